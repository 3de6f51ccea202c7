import Testing

/// `--help` in its forms prints the help and exits 0 (it printed `Error: CommandError(… helpRequested …)` and
/// exited 1: ArgumentParser runs a help command for it, whose error the CLI's own `main` took for a failure).
@Suite struct HelpTests {
    @Test(arguments: [["--help"], ["scan", "--help"], ["record", "-h"], ["help", "subscribe"]])
    func helpIsPrintedWithStatusZero(_ arguments: [String]) async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When help is asked for
        let result = try await cli.run(arguments)

        // Then it is printed on standard output, with no error
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("USAGE: airlink"), "\(result)")
        #expect(!result.stderr.contains("Error"), "\(result)")
    }
}
