import CDBus

/// Reads ``DBusValue``s from a received message through `DBusMessageIter`.
///
/// libdbus has validated the wire format of every received message, so each read below matches the
/// type the iterator reports; types Airlink does not use (Unix file descriptors) are a typed error.
enum DBusValueDecoder {
    /// Reads the value at the iterator's position (without advancing it).
    static func read(_ iter: UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(iter)
        switch type {
        case DBusTypeCode.byte: return .byte(basic(iter, UInt8(0)))
        case DBusTypeCode.boolean: return .boolean(basic(iter, dbus_bool_t(0)) != 0)
        case DBusTypeCode.int16: return .int16(basic(iter, Int16(0)))
        case DBusTypeCode.uint16: return .uint16(basic(iter, UInt16(0)))
        case DBusTypeCode.int32: return .int32(basic(iter, Int32(0)))
        case DBusTypeCode.uint32: return .uint32(basic(iter, UInt32(0)))
        case DBusTypeCode.int64: return .int64(basic(iter, Int64(0)))
        case DBusTypeCode.uint64: return .uint64(basic(iter, UInt64(0)))
        case DBusTypeCode.double: return .double(basic(iter, Double(0)))
        case DBusTypeCode.string: return .string(string(iter))
        case DBusTypeCode.objectPath: return .objectPath(string(iter))
        case DBusTypeCode.signature: return .signature(string(iter))
        case DBusTypeCode.array: return try array(iter)
        case DBusTypeCode.struct:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(iter, &sub)
            return .structure(try elements(&sub))
        case DBusTypeCode.variant:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(iter, &sub)
            return .variant(try read(&sub))
        case DBusTypeCode.unixFD:
            throw .malformed("a Unix file descriptor (type h), which Airlink does not accept")
        default:
            throw .malformed("an unknown D-Bus type code \(type)")
        }
    }

    private static func basic<Value: BitwiseCopyable>(_ iter: UnsafeMutablePointer<DBusMessageIter>, _ initial: Value)
        -> Value
    {
        var value = initial
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(iter, $0) }
        return value
    }

    private static func string(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> String {
        var pointer: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(iter, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }

    private static func elements(_ sub: UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(sub) != DBusTypeCode.invalid {
            values.append(try read(sub))
            dbus_message_iter_next(sub)
        }
        return values
    }

    private static func array(_ iter: UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) -> DBusValue {
        let elementType = dbus_message_iter_get_element_type(iter)
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(iter, &sub)
        if elementType == DBusTypeCode.byte {
            var base: UnsafePointer<UInt8>? = nil
            var count: Int32 = 0
            dbus_message_iter_get_fixed_array(&sub, &base, &count)
            guard let base, count > 0 else { return .bytes([]) }
            return .bytes(Array(UnsafeBufferPointer(start: base, count: Int(count))))
        }
        let signature = containerSignature(iter)
        let element = String(signature.dropFirst())
        if elementType == DBusTypeCode.dictEntry {
            let inner = Array(element.dropFirst().dropLast())
            let key = String(inner.prefix(1))
            let value = String(inner.dropFirst())
            var entries: [DBusDictionaryEntry] = []
            while dbus_message_iter_get_arg_type(&sub) != DBusTypeCode.invalid {
                var pair = DBusMessageIter()
                dbus_message_iter_recurse(&sub, &pair)
                let entryKey = try read(&pair)
                dbus_message_iter_next(&pair)
                let entryValue = try read(&pair)
                entries.append(DBusDictionaryEntry(key: entryKey, value: entryValue))
                dbus_message_iter_next(&sub)
            }
            return .dictionary(keySignature: key, valueSignature: value, entries)
        }
        return .array(elementSignature: element, try elements(&sub))
    }

    private static func containerSignature(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> String {
        guard let raw = dbus_message_iter_get_signature(iter) else { return "" }
        defer { dbus_free(raw) }
        return String(cString: raw)
    }
}
