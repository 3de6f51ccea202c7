/// A 64-bit mixer (splitmix64's finalizer) for the hash tables keyed by handles and UUIDs.
///
/// `Dictionary` hashes a key with `_rawHashValue(seed:)`, which by default runs SipHash through a
/// `Hasher`: about 180 instructions a lookup, a tenth of a notification through the layers
/// (Docs/Performance.md). Handles and UUIDs come from our own tables, not from an attacker choosing
/// colliding keys, so a mixer of a few multiplications is enough; equal values still hash equally,
/// and the table's per-instance seed still varies the order, which nothing observable depends on.
@inlinable
func cheapHash(_ value: UInt64, seed: Int) -> Int {
    var mixed = value ^ UInt64(bitPattern: Int64(seed))
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int(truncatingIfNeeded: mixed ^ (mixed >> 31))
}
