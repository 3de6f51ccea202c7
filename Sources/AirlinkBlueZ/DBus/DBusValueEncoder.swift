import CDBus

/// Appends ``DBusValue``s to a message through `DBusMessageIter` (libdbus's variadic
/// `dbus_message_append_args` is not available to Swift).
enum DBusValueEncoder {
    /// Checks that a value can be sent: valid strings, object paths and signatures, and container
    /// elements of the declared type. libdbus would abort on any of these.
    static func validate(_ value: DBusValue) throws(DBusError) {
        switch value {
        case .string(let text):
            guard DBusNames.isValidString(text) else { throw .invalidArgument("a D-Bus string cannot contain NUL") }
        case .objectPath(let path):
            guard DBusNames.isValidObjectPath(path) else {
                throw .invalidArgument("\"\(path)\" is not a valid D-Bus object path")
            }
        case .signature(let signature):
            guard isValidSignature(signature) else {
                throw .invalidArgument("\"\(signature)\" is not a valid D-Bus signature")
            }
        case .array(let element, let values):
            guard isSingleCompleteType(element) else {
                throw .invalidArgument("\"\(element)\" is not a single complete D-Bus type")
            }
            for item in values {
                guard item.signature == element else {
                    throw .invalidArgument("an array of \"\(element)\" holds a \"\(item.signature)\"")
                }
                try validate(item)
            }
        case .dictionary(let key, let valueSignature, let entries):
            guard key.utf8.count == 1, "ybnqiuxtdsog".utf8.contains(key.utf8.first!),
                isSingleCompleteType(valueSignature)
            else { throw .invalidArgument("\"a{\(key)\(valueSignature)}\" is not a valid D-Bus dictionary type") }
            for entry in entries {
                guard entry.key.signature == key, entry.value.signature == valueSignature else {
                    throw .invalidArgument(
                        "a dictionary of \"{\(key)\(valueSignature)}\" holds a "
                            + "\"{\(entry.key.signature)\(entry.value.signature)}\"")
                }
                try validate(entry.key)
                try validate(entry.value)
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw .invalidArgument("a D-Bus structure needs at least one field") }
            for field in fields { try validate(field) }
        case .variant(let inner):
            try validate(inner)
        case .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double, .bytes:
            break
        }
    }

    /// Appends a validated value.
    static func append(_ value: DBusValue, to iter: UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) {
        var ok = true
        switch value {
        case .byte(var byte): ok = dbus_message_iter_append_basic(iter, DBusTypeCode.byte, &byte) != 0
        case .boolean(let flag):
            var raw: dbus_bool_t = flag ? 1 : 0
            ok = dbus_message_iter_append_basic(iter, DBusTypeCode.boolean, &raw) != 0
        case .int16(var number): ok = dbus_message_iter_append_basic(iter, DBusTypeCode.int16, &number) != 0
        case .uint16(var number): ok = dbus_message_iter_append_basic(iter, DBusTypeCode.uint16, &number) != 0
        case .int32(var number): ok = dbus_message_iter_append_basic(iter, DBusTypeCode.int32, &number) != 0
        case .uint32(var number): ok = dbus_message_iter_append_basic(iter, DBusTypeCode.uint32, &number) != 0
        case .int64(var number): ok = dbus_message_iter_append_basic(iter, DBusTypeCode.int64, &number) != 0
        case .uint64(var number): ok = dbus_message_iter_append_basic(iter, DBusTypeCode.uint64, &number) != 0
        case .double(var number): ok = dbus_message_iter_append_basic(iter, DBusTypeCode.double, &number) != 0
        case .string(let text): ok = appendString(text, type: DBusTypeCode.string, to: iter)
        case .objectPath(let text): ok = appendString(text, type: DBusTypeCode.objectPath, to: iter)
        case .signature(let text): ok = appendString(text, type: DBusTypeCode.signature, to: iter)
        case .bytes(let bytes):
            try container(DBusTypeCode.array, "y", iter) { sub throws(DBusError) in
                let appended = bytes.withUnsafeBufferPointer { buffer -> Bool in
                    var base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)
                    return dbus_message_iter_append_fixed_array(sub, DBusTypeCode.byte, &base, Int32(buffer.count))
                        != 0
                }
                guard appended else { throw .malformed("out of memory appending \(bytes.count) bytes") }
            }
        case .array(let element, let values):
            try container(DBusTypeCode.array, element, iter) { sub throws(DBusError) in
                for item in values { try append(item, to: sub) }
            }
        case .dictionary(let key, let valueSignature, let entries):
            try container(DBusTypeCode.array, "{" + key + valueSignature + "}", iter) { sub throws(DBusError) in
                for entry in entries {
                    try container(DBusTypeCode.dictEntry, nil, sub) { pair throws(DBusError) in
                        try append(entry.key, to: pair)
                        try append(entry.value, to: pair)
                    }
                }
            }
        case .structure(let fields):
            try container(DBusTypeCode.struct, nil, iter) { sub throws(DBusError) in
                for field in fields { try append(field, to: sub) }
            }
        case .variant(let inner):
            try container(DBusTypeCode.variant, inner.signature, iter) { sub throws(DBusError) in
                try append(inner, to: sub)
            }
        }
        guard ok else { throw .malformed("out of memory appending a \(value.signature)") }
    }

    private static func appendString(_ text: String, type: Int32, to iter: UnsafeMutablePointer<DBusMessageIter>)
        -> Bool
    {
        text.withCString { pointer in
            var pointer: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(iter, type, &pointer) != 0
        }
    }

    private static func container(
        _ type: Int32, _ signature: String?, _ iter: UnsafeMutablePointer<DBusMessageIter>,
        _ body: (UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) -> Void
    ) throws(DBusError) {
        var sub = DBusMessageIter()
        let opened =
            if let signature {
                signature.withCString { dbus_message_iter_open_container(iter, type, $0, &sub) != 0 }
            } else {
                dbus_message_iter_open_container(iter, type, nil, &sub) != 0
            }
        guard opened else { throw .malformed("out of memory opening a D-Bus container") }
        do {
            try body(&sub)
        } catch {
            dbus_message_iter_abandon_container(iter, &sub)
            throw error
        }
        guard dbus_message_iter_close_container(iter, &sub) != 0 else {
            throw .malformed("out of memory closing a D-Bus container")
        }
    }

    /// Whether `signature` is a valid signature (any number of complete types).
    static func isValidSignature(_ signature: String) -> Bool {
        guard DBusNames.isValidString(signature) else { return false }
        return dbus_signature_validate(signature, nil) != 0
    }

    /// Whether `signature` is exactly one complete type.
    static func isSingleCompleteType(_ signature: String) -> Bool {
        guard DBusNames.isValidString(signature), !signature.isEmpty else { return false }
        return dbus_signature_validate_single(signature, nil) != 0
    }
}
