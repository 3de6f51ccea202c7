import AirlinkCore

extension RadioPeripheral {
    /// The bond this peripheral keeps with the central at `address`, if they paired and bonded.
    func bond(with address: DeviceID) -> PairingResult? {
        assertConfined()
        return bonds.first { $0.central == address }?.bond
    }

    /// Keeps (or replaces) the bond with the central at `address`; a bonded central is also remembered between
    /// connections for GATT caching, as ``/AirlinkCore/PeripheralSpec/bondsWithCentrals`` makes every central.
    func remember(bond: PairingResult, with address: DeviceID) {
        assertConfined()
        if let index = bonds.firstIndex(where: { $0.central == address }) {
            bonds[index].bond = bond
        } else {
            bonds.append((address, bond))
        }
    }

    /// Whether the central at `address` is bonded: every central when the spec says so, else one that paired.
    func isBonded(_ address: DeviceID) -> Bool { spec.bondsWithCentrals || bond(with: address) != nil }

    /// Forgets every bond (a factory reset of its pairing data): a central that comes back with its bond meets
    /// PIN or Key Missing when it encrypts.
    func forgetBonds() {
        assertConfined()
        let forgotten = bonds.map(\.central)
        bonds = []
        if !spec.bondsWithCentrals { rememberedClients.removeAll { forgotten.contains($0.address) } }
        world.record("fault", "\(idText) forgets its bonds")
    }
}
