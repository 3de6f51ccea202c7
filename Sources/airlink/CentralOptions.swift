import Airlink
import ArgumentParser

/// The flags of every command that connects: the shared ones, the reconnection strategy, the
/// connect timeout and the registry.
struct CentralOptions: ParsableArguments {
    @OptionGroup var global: GlobalOptions
    @OptionGroup var registry: RegistryOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "What to do when the link drops: none, linear:WAIT,ATTEMPTS[,TIMEOUT] (linear:2s,3), "
                + "exponential:BASE,CAP,ATTEMPTS[,TIMEOUT] (exponential:1s,30s,5).", valueName: "strategy"))
    var reconnect: String = "none"

    @Option(name: .customLong("connect-timeout"), help: "How long connecting may take: 500ms, 10s.")
    var connectTimeout: String = "10s"

    func validate() throws {
        _ = try ReconnectArgument.parse(reconnect)
        guard DurationArgument(argument: connectTimeout) != nil else {
            throw ValidationError(
                "--connect-timeout \"\(connectTimeout)\" is not a duration: write a positive number and a unit, "
                    + "such as 500ms or 10s")
        }
    }

    /// The reconnection strategy.
    var strategy: any ReconnectionStrategy { (try? ReconnectArgument.parse(reconnect)) ?? NoReconnectionStrategy() }

    /// The connect timeout.
    var timeout: Duration { DurationArgument(argument: connectTimeout)?.duration ?? .seconds(10) }
}
