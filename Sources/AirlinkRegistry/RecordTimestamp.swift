import Foundation

/// When a connection happened, as stored in a ``ConnectionRecord``: seconds since 1970-01-01 00:00 UTC.
///
/// The registry never reads a clock itself. The caller passes the time of each connection, so a
/// simulation stores the same values on every run: a ``RecordClock`` maps the environment's clock
/// (`AirlinkClock`, virtual in simulation) onto this scale from a chosen epoch. On hardware the
/// epoch is the wall-clock time at which the environment was created, `RecordTimestamp(Date())`.
///
/// Encoded as a bare number (`1767225600.25`) in JSON and as a `REAL` in SQLite; a `Double` holds
/// present-day times to well under a microsecond and round-trips exactly through both.
public struct RecordTimestamp: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    /// Seconds since 1970-01-01 00:00 UTC.
    public var secondsSince1970: Double

    /// Creates a timestamp.
    ///
    /// - Parameter secondsSince1970: seconds since 1970-01-01 00:00 UTC; stores reject values that
    ///   are not finite.
    public init(secondsSince1970: Double) { self.secondsSince1970 = secondsSince1970 }

    /// Creates a timestamp from a `Date`, for code that runs on hardware.
    ///
    /// - Parameter date: the moment.
    public init(_ date: Date) { secondsSince1970 = date.timeIntervalSince1970 }

    /// 1970-01-01 00:00 UTC.
    public static let epoch = RecordTimestamp(secondsSince1970: 0)

    /// The moment as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: secondsSince1970) }

    /// The timestamp `duration` later.
    ///
    /// - Parameter duration: how much later (earlier if negative).
    public func advanced(by duration: Duration) -> RecordTimestamp {
        let (seconds, attoseconds) = duration.components
        return RecordTimestamp(secondsSince1970: secondsSince1970 + Double(seconds) + Double(attoseconds) * 1e-18)
    }

    /// Orders timestamps in time.
    public static func < (lhs: RecordTimestamp, rhs: RecordTimestamp) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    /// The seconds since 1970, as encoded: `1767225600.25`.
    public var description: String { "\(secondsSince1970)" }

    /// Decodes a timestamp from a bare number of seconds since 1970.
    public init(from decoder: any Decoder) throws {
        secondsSince1970 = try decoder.singleValueContainer().decode(Double.self)
    }

    /// Encodes the timestamp as a bare number of seconds since 1970.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(secondsSince1970)
    }
}
