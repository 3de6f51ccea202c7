/// What a device can show and take from its user during pairing (Core Spec Vol 3, Part H, 2.3.2).
public enum IOCapability: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Shows a six-digit number; takes no input.
    case displayOnly = 0x00
    /// Shows a number and takes a yes or a no.
    case displayYesNo = 0x01
    /// Takes digits; shows nothing.
    case keyboardOnly = 0x02
    /// Neither shows nor takes anything (a sensor without a screen or buttons).
    case noInputNoOutput = 0x03
    /// Shows a number and takes digits.
    case keyboardDisplay = 0x04

    /// `display-yes-no`, as traces and scenarios write it.
    public var description: String {
        switch self {
        case .displayOnly: "display-only"
        case .displayYesNo: "display-yes-no"
        case .keyboardOnly: "keyboard-only"
        case .noInputNoOutput: "no-input-no-output"
        case .keyboardDisplay: "keyboard-display"
        }
    }
}
