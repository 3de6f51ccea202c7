@testable import AirlinkHCI

/// What the HCI controller's state-machine suites share: a command as the host's input, the events among
/// the actions.
protocol ControllerTesting {}

extension ControllerTesting {
    /// The events the controller sends the host, in order.
    func events(_ actions: [HCIController.Action]) -> [HCIEvent] {
        actions.compactMap { if case .send(.event(let event)) = $0 { event } else { nil } }
    }

    /// A command from the host.
    func command(_ opcode: HCIOpcode, _ parameters: [UInt8] = []) -> HCIController.Input {
        .host(.command(HCICommand(opcode, parameters)))
    }
}
