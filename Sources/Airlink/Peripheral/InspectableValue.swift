import AirlinkCore
import Foundation

/// A Swift type an ``Inspector`` can publish and an ``InspectorClient`` can read and write: Bool, the fixed
/// width integers (`Int` and `UInt` as 64 bits), Double, String, `[UInt8]` and `Data`, and any
/// `Codable` type that declares ``JSONInspectable`` (sent as JSON).
public protocol InspectableValue: Sendable {
    /// The type code of every value of this type.
    static var inspectedType: InspectedType { get }
    /// The value with its type.
    var inspectedValue: InspectedValue { get }
    /// The Swift value of an inspected value.
    ///
    /// - Throws: ``/AirlinkCore/ATTRefusal`` with Value Not Allowed (0x13) when the value is of another type.
    init(inspected: InspectedValue) throws(ATTRefusal)
}

/// A `Codable` value an ``Inspector`` publishes as JSON (type code 0x0D).
///
/// ```swift
/// struct Limits: Codable, JSONInspectable { var low: Double; var high: Double }
/// ```
public protocol JSONInspectable: InspectableValue, Codable {}

extension JSONInspectable {
    /// JSON.
    public static var inspectedType: InspectedType { .json }

    /// The value encoded as JSON with sorted keys (an encoding that cannot fail gives `null`).
    public var inspectedValue: InspectedValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // try?: the doc promises `null` for a value JSON cannot hold (a NaN); this property cannot throw
        return .json((try? encoder.encode(self)).map { Array($0) } ?? Array("null".utf8))
    }

    /// Decodes the JSON of an inspected value.
    public init(inspected: InspectedValue) throws(ATTRefusal) {
        // try?: ATTRefusal carries an ATT error code only (Value Not Allowed), which is what the central hears
        guard case .json(let bytes) = inspected, let value = try? JSONDecoder().decode(Self.self, from: Data(bytes))
        else { throw ATTRefusal(.valueNotAllowed) }
        self = value
    }
}

extension Bool: InspectableValue {
    /// Bool.
    public static var inspectedType: InspectedType { .bool }
    /// `.bool(self)`.
    public var inspectedValue: InspectedValue { .bool(self) }
    /// From `.bool`.
    public init(inspected: InspectedValue) throws(ATTRefusal) {
        guard case .bool(let value) = inspected else { throw ATTRefusal(.valueNotAllowed) }
        self = value
    }
}

extension Double: InspectableValue {
    /// Double.
    public static var inspectedType: InspectedType { .double }
    /// `.double(self)`.
    public var inspectedValue: InspectedValue { .double(self) }
    /// From `.double`.
    public init(inspected: InspectedValue) throws(ATTRefusal) {
        guard case .double(let value) = inspected else { throw ATTRefusal(.valueNotAllowed) }
        self = value
    }
}

extension String: InspectableValue {
    /// String.
    public static var inspectedType: InspectedType { .string }
    /// `.string(self)`.
    public var inspectedValue: InspectedValue { .string(self) }
    /// From `.string`.
    public init(inspected: InspectedValue) throws(ATTRefusal) {
        guard case .string(let value) = inspected else { throw ATTRefusal(.valueNotAllowed) }
        self = value
    }
}

extension Array: InspectableValue where Element == UInt8 {
    /// Bytes.
    public static var inspectedType: InspectedType { .bytes }
    /// `.bytes(self)`.
    public var inspectedValue: InspectedValue { .bytes(self) }
    /// From `.bytes`.
    public init(inspected: InspectedValue) throws(ATTRefusal) {
        guard case .bytes(let value) = inspected else { throw ATTRefusal(.valueNotAllowed) }
        self = value
    }
}

extension Data: InspectableValue {
    /// Bytes.
    public static var inspectedType: InspectedType { .bytes }
    /// `.bytes(self)`.
    public var inspectedValue: InspectedValue { .bytes(Array(self)) }
    /// From `.bytes`.
    public init(inspected: InspectedValue) throws(ATTRefusal) {
        guard case .bytes(let value) = inspected else { throw ATTRefusal(.valueNotAllowed) }
        self = Data(value)
    }
}

/// An unsigned integer published with its width.
public protocol InspectableUnsignedInteger: InspectableValue, FixedWidthInteger, UnsignedInteger {}

extension InspectableUnsignedInteger {
    /// UInt8...UInt64.
    public static var inspectedType: InspectedType { .unsigned(bits: bitWidth) }
    /// `.unsigned(self, bits:)`.
    public var inspectedValue: InspectedValue { .unsigned(UInt64(self), bits: Self.bitWidth) }
    /// From `.unsigned` of the same width.
    public init(inspected: InspectedValue) throws(ATTRefusal) {
        guard case .unsigned(let value, let bits) = inspected, bits == Self.bitWidth,
            let exact = Self(exactly: value)
        else { throw ATTRefusal(.valueNotAllowed) }
        self = exact
    }
}

/// A signed integer published with its width.
public protocol InspectableSignedInteger: InspectableValue, FixedWidthInteger, SignedInteger {}

extension InspectableSignedInteger {
    /// Int8...Int64.
    public static var inspectedType: InspectedType { .signed(bits: bitWidth) }
    /// `.signed(self, bits:)`.
    public var inspectedValue: InspectedValue { .signed(Int64(self), bits: Self.bitWidth) }
    /// From `.signed` of the same width.
    public init(inspected: InspectedValue) throws(ATTRefusal) {
        guard case .signed(let value, let bits) = inspected, bits == Self.bitWidth, let exact = Self(exactly: value)
        else { throw ATTRefusal(.valueNotAllowed) }
        self = exact
    }
}

extension UInt8: InspectableUnsignedInteger {}
extension UInt16: InspectableUnsignedInteger {}
extension UInt32: InspectableUnsignedInteger {}
extension UInt64: InspectableUnsignedInteger {}
extension UInt: InspectableUnsignedInteger {}
extension Int8: InspectableSignedInteger {}
extension Int16: InspectableSignedInteger {}
extension Int32: InspectableSignedInteger {}
extension Int64: InspectableSignedInteger {}
extension Int: InspectableSignedInteger {}
