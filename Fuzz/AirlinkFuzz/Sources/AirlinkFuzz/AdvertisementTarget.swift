import AirlinkCore

/// Advertising data (AD structures): decoding never traps and throws only `malformedData`; what decodes
/// encodes again (or says `invalidArgument` for a structure over 254 bytes) and decodes to the same
/// advertisement, and its encoding is then stable.
///
/// "The same" allows one documented difference: the encoder writes service UUIDs in lists by their
/// shortest form, 16-, 32- then 128-bit (``Advertisement/structures``), so data listing a 128-bit UUID
/// before a 16-bit one decodes again with the 16-bit one first.
let advertisementTarget = FuzzTarget(name: "advertisement") { bytes in
    let name = "advertisement"
    let advertisement: Advertisement
    do throws(AirlinkError) {
        advertisement = try Advertisement(decoding: bytes, isConnectable: true, rssi: -60)
    } catch {
        guard error.code == .malformedData else { violated(name, "decoding threw \(error.code), not malformedData") }
        return
    }
    let encoded: [UInt8]
    do throws(AirlinkError) {
        encoded = try advertisement.advertisingData()
    } catch {
        guard error.code == .invalidArgument else { violated(name, "encoding threw \(error.code)") }
        return
    }
    guard encoded.count == advertisement.encodedByteCount else {
        violated(name, "encoded \(encoded.count) bytes, encodedByteCount says \(advertisement.encodedByteCount)")
    }
    do {
        let again = try Advertisement(decoding: encoded, isConnectable: true, rssi: -60)
        var canonical = advertisement
        canonical.serviceUUIDs = [2, 4, 16].flatMap { size in
            advertisement.serviceUUIDs.filter { $0.shortestByteCount == size }
        }
        guard again == canonical else { violated(name, "decode(encode(a)) != a: \(again) vs \(canonical)") }
        guard try again.advertisingData() == encoded else { violated(name, "encode(decode(encoded)) is not stable") }
    } catch {
        violated(name, "its own encoding does not decode: \(error)")
    }
}
