/// The D-Bus type codes (D-Bus Specification, "Type System"), which libdbus defines as macros Swift
/// does not import.
package enum DBusTypeCode {
    package static let invalid: Int32 = 0
    package static let byte = Int32(UInt8(ascii: "y"))
    package static let boolean = Int32(UInt8(ascii: "b"))
    package static let int16 = Int32(UInt8(ascii: "n"))
    package static let uint16 = Int32(UInt8(ascii: "q"))
    package static let int32 = Int32(UInt8(ascii: "i"))
    package static let uint32 = Int32(UInt8(ascii: "u"))
    package static let int64 = Int32(UInt8(ascii: "x"))
    package static let uint64 = Int32(UInt8(ascii: "t"))
    package static let double = Int32(UInt8(ascii: "d"))
    package static let string = Int32(UInt8(ascii: "s"))
    package static let objectPath = Int32(UInt8(ascii: "o"))
    package static let signature = Int32(UInt8(ascii: "g"))
    package static let unixFD = Int32(UInt8(ascii: "h"))
    package static let array = Int32(UInt8(ascii: "a"))
    package static let variant = Int32(UInt8(ascii: "v"))
    package static let `struct` = Int32(UInt8(ascii: "r"))
    package static let dictEntry = Int32(UInt8(ascii: "e"))

    /// The message types (`DBUS_MESSAGE_TYPE_*`).
    package static let methodCallMessage: Int32 = 1
    package static let methodReturnMessage: Int32 = 2
    package static let errorMessage: Int32 = 3
    package static let signalMessage: Int32 = 4
}
