#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The natural logarithm, without importing Foundation into every file.
@inline(__always) func _log(_ x: Double) -> Double { log(x) }
/// The cosine, without importing Foundation into every file.
@inline(__always) func _cos(_ x: Double) -> Double { cos(x) }
