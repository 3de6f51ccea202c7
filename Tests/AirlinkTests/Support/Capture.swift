import AirlinkCore

/// The typed error `body` throws, or `nil` if it returns.
func airlinkError<Value>(_ body: () async throws(AirlinkError) -> Value) async -> AirlinkError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}
