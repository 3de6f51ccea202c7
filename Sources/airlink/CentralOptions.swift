import Airlink
import ArgumentParser

/// The flags of every command that connects: the shared ones, the reconnection strategy, the
/// connect timeout and the registry.
struct CentralOptions: ParsableArguments {
    @OptionGroup var global: GlobalOptions
    @OptionGroup var registry: RegistryOptions

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "What to do when the link drops: none, linear:WAIT,ATTEMPTS[,TIMEOUT] (linear:2s,3), "
                + "exponential:BASE,CAP,ATTEMPTS[,TIMEOUT] (exponential:1s,30s,5).", valueName: "strategy"))
    var reconnect: String = "none"

    @Option(
        name: .customLong("connect-timeout"), parsing: .unconditional,
        help: ArgumentHelp(
            "How long connecting may take: 500ms, 10s (at most 10m on sim). On BlueZ, also how long to scan for a "
                + "device BlueZ does not list (forgotten, or lost with a restart of bluetoothd) before connecting.",
            valueName: "duration"))
    var connectTimeout: String = "10s"

    func validate() throws {
        _ = try ReconnectArgument.parse(reconnect, maximum: DurationArgument.maximum(on: global))
        _ = try DurationArgument.parse(
            connectTimeout, flag: "--connect-timeout", maximum: DurationArgument.maximum(on: global))
    }

    /// What `--reconnect` names; none when the flag is absent (validation already rejected bad text).
    // try?: validate() already refused bad text.
    var strategy: any ReconnectionStrategy { (try? ReconnectArgument.parse(reconnect)) ?? NoReconnectionStrategy() }

    /// What `--connect-timeout` gives, 10 s when absent (validation already rejected bad text).
    // try?: validate() already refused bad text.
    var timeout: Duration { (try? DurationArgument.parse(connectTimeout, flag: "")) ?? .seconds(10) }
}
