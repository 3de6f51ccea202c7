import Airlink
import AirlinkCore

/// The Device Information Service (0x180A, DIS 1.1), typed: each string, the System ID and the PnP ID.
///
/// ```swift
/// let info = DeviceInformationService(connection)
/// print(try await info.manufacturer(), try await info.firmwareRevision())
/// ```
public final class DeviceInformationService: Sendable {
    /// The service's manager.
    public let service: DeviceService

    /// The Device Information service of a connection's device.
    public init(_ connection: ConnectionManager) {
        service = connection.services.service(.deviceInformation)
    }

    /// Manufacturer Name String (0x2A29).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` from the read (``/AirlinkCore/AirlinkError/Code/characteristicNotFound``
    ///   if the device leaves it out; DIS makes every characteristic optional);
    ///   ``/AirlinkCore/AirlinkError/Code/malformedData`` for bytes that are not UTF-8.
    public func manufacturer() async throws(AirlinkError) -> String { try await string(.manufacturerNameString) }
    /// Model Number String (0x2A24). Throws as ``manufacturer()``.
    public func model() async throws(AirlinkError) -> String { try await string(.modelNumberString) }
    /// Serial Number String (0x2A25). Throws as ``manufacturer()``.
    public func serialNumber() async throws(AirlinkError) -> String { try await string(.serialNumberString) }
    /// Firmware Revision String (0x2A26). Throws as ``manufacturer()``.
    public func firmwareRevision() async throws(AirlinkError) -> String { try await string(.firmwareRevisionString) }
    /// Hardware Revision String (0x2A27). Throws as ``manufacturer()``.
    public func hardwareRevision() async throws(AirlinkError) -> String { try await string(.hardwareRevisionString) }
    /// Software Revision String (0x2A28). Throws as ``manufacturer()``.
    public func softwareRevision() async throws(AirlinkError) -> String { try await string(.softwareRevisionString) }

    /// System ID (0x2A23), 8 bytes.
    ///
    /// - Throws: as ``manufacturer()``; ``/AirlinkCore/AirlinkError/Code/malformedData`` for another length.
    public func systemID() async throws(AirlinkError) -> SystemID {
        try await service.read(SystemID.self, from: .systemID)
    }

    /// PnP ID (0x2A50), 7 bytes.
    ///
    /// - Throws: as ``manufacturer()``; ``/AirlinkCore/AirlinkError/Code/malformedData`` for another length.
    public func pnpID() async throws(AirlinkError) -> PnPID {
        try await service.read(PnPID.self, from: .pnpID)
    }

    /// Every value, read one after the other.
    ///
    /// - Throws: the first error of the reads.
    public func all() async throws(AirlinkError) -> DeviceInformation {
        DeviceInformation(
            manufacturer: try await manufacturer(), model: try await model(), serialNumber: try await serialNumber(),
            firmwareRevision: try await firmwareRevision(), hardwareRevision: try await hardwareRevision(),
            softwareRevision: try await softwareRevision(), systemID: try await systemID(), pnpID: try await pnpID())
    }

    private func string(_ uuid: BluetoothUUID) async throws(AirlinkError) -> String {
        try await service.read(String.self, from: uuid)
    }
}
