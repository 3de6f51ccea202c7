import AirlinkCore

extension BlueZTransport {
    /// Does nothing yet: bluetoothd keeps the bond (in /var/lib/bluetooth) until `Adapter1.RemoveDevice`, which
    /// `bluetoothctl remove` calls (issue 20, item 4).
    public func forgetBond(_ device: DeviceID) async {}
}
