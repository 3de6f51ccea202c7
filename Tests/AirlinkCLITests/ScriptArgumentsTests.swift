import Foundation
import Testing

/// The repository's scripts take their numbers as the CLI does: a bad one exits 64 naming the range, never a
/// traceback from the interpreter the script hands it to.
@Suite struct ScriptArgumentsTests {
    @Test(arguments: ["abc", "-1", "0", "999", "1000000000001", "1 2", "1e6", "18446744073709551616"])
    func controllerSoakRefusesACountOutsideItsRange(_ count: String) async throws {
        // When Scripts/controller-soak is given the count (before it starts a controller)
        let (output, errors, status) = try await ManPageTests.run(
            "/bin/bash", [World.shipped("Scripts/controller-soak"), count])

        // Then it exits 64 saying what to write, and runs nothing
        #expect(status == 64, "\(errors)")
        #expect(errors.contains("is not a number of commands from 1000 to 1000000000"), "\(errors)")
        #expect(!errors.contains("Traceback") && output.isEmpty)
    }
}
