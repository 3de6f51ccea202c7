extension AirlinkError {
    /// The kind of an ``AirlinkError``.
    ///
    /// A struct rather than an enum so that new codes can be added without breaking `switch`
    /// statements in users' code. Compare with `==` or match with `case .timeout`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, as printed and as listed in Docs/ErrorCatalogue.md.
        public let name: String

        private init(_ name: String) { self.name = name }

        /// The code's name.
        public var description: String { name }

        /// A string could not be parsed as a Bluetooth UUID.
        public static let invalidUUID = Code("invalidUUID")
        /// A string could not be parsed as a device identifier or BD_ADDR.
        public static let invalidDeviceID = Code("invalidDeviceID")
        /// An argument was out of range or malformed (a zero timeout, a bad pattern, a value too long).
        public static let invalidArgument = Code("invalidArgument")
        /// Bytes received or read did not follow their format (an AD structure, an ATT PDU).
        public static let malformedData = Code("malformedData")
        /// A specification (a simulated peripheral, a GATT database, a scenario) is inconsistent.
        public static let invalidSpecification = Code("invalidSpecification")
        /// An operation did not complete before its deadline.
        public static let timeout = Code("timeout")
        /// An operation was cancelled by the app or by a newer operation.
        public static let cancelled = Code("cancelled")
        /// The adapter is powered off; power it on and try again.
        public static let adapterPoweredOff = Code("adapterPoweredOff")
        /// No adapter, no Bluetooth stack, or no kernel support is available.
        public static let transportUnavailable = Code("transportUnavailable")
        /// The device is not known to the transport (never seen, or removed).
        public static let deviceNotFound = Code("deviceNotFound")
        /// The operation needs a connection and the device is not connected.
        public static let notConnected = Code("notConnected")
        /// A connection attempt failed (refused, aborted, or the device did not answer).
        public static let connectionFailed = Code("connectionFailed")
        /// An established link was lost; pending operations fail with this code.
        public static let linkLost = Code("linkLost")
        /// Another operation of the same kind is already under way (BlueZ's `InProgress`).
        public static let operationInProgress = Code("operationInProgress")
        /// No service with the requested UUID exists on the device.
        public static let serviceNotFound = Code("serviceNotFound")
        /// No characteristic with the requested UUID exists in the service.
        public static let characteristicNotFound = Code("characteristicNotFound")
        /// No descriptor with the requested UUID exists on the characteristic.
        public static let descriptorNotFound = Code("descriptorNotFound")
        /// The characteristic does not allow the operation (not readable, not writable, cannot notify).
        public static let operationNotSupported = Code("operationNotSupported")
        /// The peer answered with an ATT error; ``AirlinkError/attError`` has it.
        public static let attribute = Code("attribute")
        /// The device answered Database Out Of Sync (ATT 0x12, Core Spec Vol 3, Part G, 2.5.2.1): its database
        /// changed since the handles used were discovered. The layers have dropped their cached handles; retry.
        public static let databaseOutOfSync = Code("databaseOutOfSync")
        /// Pairing ended with a Pairing Failed command from either side (Core Spec Vol 3, Part H, 3.5.5);
        /// ``AirlinkError/pairingFailureReason`` has the reason.
        public static let pairingFailed = Code("pairingFailed")
        /// The peer no longer has the bond this side holds: encrypting with it failed with PIN or Key Missing
        /// (HCI 0x06). Forget the bond and pair again.
        public static let bondLost = Code("bondLost")
        /// A simulation stalled: it was idle while the awaited work was unfinished.
        public static let simulationStalled = Code("simulationStalled")
        /// Work escaped the simulation's executor or clock (strict mode turns this into a failure).
        public static let escapedWork = Code("escapedWork")
        /// Reading or writing stored data (the device registry's file or database) failed; the context
        /// names the path and the cause the failed system call.
        public static let storageFailed = Code("storageFailed")
        /// Stored data could not be decoded; the message says what was wrong and where the store was moved.
        public static let corruptStore = Code("corruptStore")
        /// Stored data was written with a newer schema than this version of Airlink reads.
        public static let unsupportedStoreVersion = Code("unsupportedStoreVersion")
        /// Something inside Airlink failed that should not; the message says what. Please report it.
        public static let internalError = Code("internalError")
    }
}
