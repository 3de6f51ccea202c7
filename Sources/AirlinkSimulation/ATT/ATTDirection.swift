/// Which way an ATT PDU crossed the air.
public enum ATTDirection: Sendable, Hashable {
    /// From the central to the peripheral (`>` in the trace).
    case toPeripheral
    /// From the peripheral to the central (`<` in the trace).
    case toCentral

    /// `>` or `<`, as the `att` line writes it.
    var arrow: Unicode.Scalar { self == .toPeripheral ? ">" : "<" }
}
