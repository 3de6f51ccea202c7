import AirlinkCore

/// How an injected connection attempt fails, named as the stack reports it.
public enum ConnectFailure: Sendable, Hashable, CustomStringConvertible {
    /// BlueZ's `le-connection-abort-by-local`: the controller gave up on the attempt
    /// (``AirlinkError/Code/connectionFailed``, cause `org.bluez.Error.Failed`).
    case abortedByLocal
    /// BlueZ's "Operation already in progress" (``AirlinkError/Code/operationInProgress``, cause
    /// `org.bluez.Error.InProgress`).
    case alreadyInProgress
    /// The link was set up but died at once: HCI 0x3E Connection Failed to be Established
    /// (``AirlinkError/Code/connectionFailed``).
    case failedToEstablish
    /// The peripheral never answers the connection request: the attempt runs into its timeout.
    case noAnswer

    /// The error a `connect` throws for this failure.
    func error(for device: DeviceID) -> AirlinkError? {
        switch self {
        case .abortedByLocal:
            AirlinkError(
                .connectionFailed,
                "connecting to \(device) failed: le-connection-abort-by-local; the controller gave up, try again",
                cause: .bluez(name: "org.bluez.Error.Failed", message: "le-connection-abort-by-local"))
        case .alreadyInProgress:
            AirlinkError(
                .operationInProgress,
                "connecting to \(device) failed: Operation already in progress; wait for the other attempt",
                cause: .bluez(name: "org.bluez.Error.InProgress", message: "Operation already in progress"))
        case .failedToEstablish:
            AirlinkError(
                .connectionFailed,
                "connecting to \(device) failed: \(DisconnectionReason.failedToEstablish)",
                cause: .injected("connection failed to be established"))
        case .noAnswer:
            nil
        }
    }

    /// `le-connection-abort-by-local`, `in-progress`, `failed-to-establish`, `no-answer`.
    public var description: String {
        switch self {
        case .abortedByLocal: "le-connection-abort-by-local"
        case .alreadyInProgress: "in-progress"
        case .failedToEstablish: "failed-to-establish"
        case .noAnswer: "no-answer"
        }
    }
}

/// Which ATT requests an injected fault applies to.
public enum ATTOperation: Sendable, Hashable, CustomStringConvertible {
    /// Every request.
    case any
    /// Reads (Read and Read Blob Requests) of a characteristic or descriptor, or of any when `nil`.
    case read(BluetoothUUID?)
    /// Writes (Write Requests and Commands, Prepare Write Requests) of a characteristic or descriptor,
    /// or of any when `nil`.
    case write(BluetoothUUID?)
    /// Requests with this opcode.
    case opcode(ATTOpcode)

    /// `any`, `read 2A19`, `write *`, `ATT_FIND_INFORMATION_REQ`.
    public var description: String {
        switch self {
        case .any: "any"
        case .read(let uuid): "read \(uuid.map(\.description) ?? "*")"
        case .write(let uuid): "write \(uuid.map(\.description) ?? "*")"
        case .opcode(let opcode): opcode.description
        }
    }
}

/// A fault to inject later: what the verbs of ``SimulatedPeripheral`` and ``VirtualRadio`` do,
/// as a value that can be scheduled.
public enum RadioFault: Sendable {
    /// The peripheral ends every link with `reason`.
    case dropLink(DisconnectionReason)
    /// The peripheral goes out of range; its links are lost after the supervision timeout.
    case moveOutOfRange
    /// The peripheral comes back in range.
    case moveBackInRange
    /// The peripheral moves.
    case move(to: Position)
    /// The next connection attempts fail.
    case failNextConnects(Int, ConnectFailure)
    /// The next matching requests are answered with an ATT error.
    case respond(ATTOperation, ATTError, times: Int)
    /// The next matching requests are never answered.
    case neverRespond(ATTOperation, times: Int)
    /// Responses to matching requests are delayed.
    case delayResponses(ATTOperation, by: Duration, times: Int)
    /// The peripheral reboots.
    case reset
    /// The peripheral's database changes.
    case changeDatabase([Service])
    /// The peripheral sends a burst of notifications of a characteristic.
    case burstNotifications(BluetoothUUID, count: Int)
    /// The central's adapter powers off.
    case powerOffAdapter
    /// The central's adapter powers on.
    case powerOnAdapter
}
