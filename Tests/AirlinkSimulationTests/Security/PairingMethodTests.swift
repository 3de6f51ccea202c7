import AirlinkCore
import Testing

/// The method two devices pair with follows the specification's tables (Core Spec Vol 3, Part H, 2.3.5.1).
@Suite struct PairingMethodTests {
    private static func features(_ io: IOCapability, sc: Bool, mitm: Bool = true, oob: Bool = false)
        -> PairingFeatures
    {
        PairingFeatures(io: io, hasOOBData: oob, mitm: mitm, secureConnections: sc)
    }

    @Test(arguments: [
        // (central, peripheral, Secure Connections, expected): table 2.8, rows and columns that differ.
        (IOCapability.keyboardOnly, IOCapability.displayOnly, false, PairingMethod.passkeyEntry(.peripheralDisplays)),
        (.displayOnly, .keyboardOnly, false, .passkeyEntry(.centralDisplays)),
        (.keyboardOnly, .keyboardOnly, true, .passkeyEntry(.bothEnter)),
        (.displayYesNo, .displayYesNo, false, .justWorks),
        (.displayYesNo, .displayYesNo, true, .numericComparison),
        (.keyboardDisplay, .keyboardDisplay, false, .passkeyEntry(.centralDisplays)),
        (.keyboardDisplay, .keyboardDisplay, true, .numericComparison),
        (.keyboardDisplay, .displayYesNo, false, .passkeyEntry(.peripheralDisplays)),
        (.keyboardDisplay, .displayYesNo, true, .numericComparison),
        (.displayYesNo, .keyboardDisplay, false, .passkeyEntry(.centralDisplays)),
        (.keyboardDisplay, .keyboardOnly, true, .passkeyEntry(.centralDisplays)),
        (.keyboardOnly, .keyboardDisplay, true, .passkeyEntry(.peripheralDisplays)),
        (.displayOnly, .displayOnly, true, .justWorks),
        (.keyboardDisplay, .noInputNoOutput, true, .justWorks),
        (.noInputNoOutput, .keyboardDisplay, true, .justWorks),
    ])
    func ioCapabilitiesChooseTheMethod(
        _ central: IOCapability, _ peripheral: IOCapability, _ sc: Bool, _ expected: PairingMethod
    ) {
        // Given both sides ask for MITM protection, When the method is chosen, Then it is the table's
        #expect(
            PairingMethod.chosen(
                central: Self.features(central, sc: sc), peripheral: Self.features(peripheral, sc: sc)) == expected)
    }

    @Test func withoutMITMOnEitherSideItIsJustWorks() {
        let method = PairingMethod.chosen(
            central: Self.features(.keyboardDisplay, sc: true, mitm: false),
            peripheral: Self.features(.keyboardDisplay, sc: true, mitm: false))
        #expect(method == .justWorks)
    }

    @Test func outOfBandNeedsBothSidesDataForLegacyAndEitherForSecureConnections() {
        // Given only the central holds out-of-band data
        let central = Self.features(.displayYesNo, sc: false, oob: true)
        let peripheral = Self.features(.displayYesNo, sc: false)
        // Then legacy pairing does not use it, and Secure Connections does
        #expect(PairingMethod.chosen(central: central, peripheral: peripheral) == .justWorks)
        var scCentral = central
        scCentral.secureConnections = true
        var scPeripheral = peripheral
        scPeripheral.secureConnections = true
        #expect(PairingMethod.chosen(central: scCentral, peripheral: scPeripheral) == .outOfBand)
    }
}
