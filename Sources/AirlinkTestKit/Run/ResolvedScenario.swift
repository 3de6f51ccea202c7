import Airlink
import AirlinkCore
import AirlinkSimulation

/// A scenario with its device references resolved against the world, and the values it writes to
/// or expects of inspectors checked against their declared types.
struct ResolvedScenario: Sendable {
    struct Action: Sendable {
        var action: ScenarioAction
        var peripheral: SimulatedPeripheral?
        /// A `setValue` on an inspector: which one, and the value parsed in its type.
        var inspector: ScenarioRunningInspector?
        var inspectedValue: InspectedValue?
    }
    struct Client: Sendable {
        var client: ScenarioClient
        var device: DeviceID
        /// The entry's app, from 1, and its index in the scenario's `client:` list.
        var app = 1
        var index = 0
        /// With `observe:`, the values of its writes, parsed in their types, in order.
        var observedWrites: [InspectedValue] = []
    }

    var actions: [Action] = []
    var clients: [Client] = []
    var expectationDevices: [DeviceID?] = []
    /// The value of each `observed` or `written` expectation, by the expectation's index.
    var inspectedExpectations: [Int: InspectedValue] = [:]

    init(_ scenario: Scenario, context: ScenarioContext) throws(AirlinkError) {
        for (index, action) in scenario.timeline.enumerated() {
            let location = "timeline[\(index)]"
            let peripheral = try action.device.map { name throws(AirlinkError) in
                try Self.peripheral(name, context, location)
            }
            var resolved = Action(action: action, peripheral: peripheral)
            if action.kind == .setValue, let identifier = action.identifier, let device = action.device {
                let inspector = try Self.inspector(device, context, location)
                resolved.inspector = inspector
                resolved.inspectedValue = try Self.parse(
                    action.inspectedValue ?? "", identifier, of: inspector.declaration, location)
            }
            actions.append(resolved)
        }
        // Stable sort: same time, file order.
        actions = actions.enumerated().sorted {
            ($0.element.action.at.duration, $0.offset) < ($1.element.action.at.duration, $1.offset)
        }
        .map(\.element)
        for (index, client) in scenario.client.enumerated() {
            let location = "client[\(index)]"
            var resolved = Client(client: client, device: try Self.peripheral(client.device, context, location).id)
            resolved.app = client.app ?? 1
            resolved.index = index
            if let observe = client.observe {
                let declaration = try Self.inspector(client.device, context, location + ".observe").declaration
                for operation in observe.read {
                    _ = try Self.declared(operation.identifier, in: declaration, location + ".observe.read")
                }
                for operation in observe.write {
                    resolved.observedWrites.append(
                        try Self.parse(operation.value ?? "", operation.identifier, of: declaration, location))
                }
            }
            clients.append(resolved)
        }
        for (index, expectation) in scenario.expect.enumerated() {
            let location = "expect[\(index)]"
            expectationDevices.append(
                try expectation.device.map { name throws(AirlinkError) in
                    try Self.peripheral(name, context, location).id
                })
            switch expectation.kind {
            case .observed(let identifier, let equals), .written(let identifier, let equals):
                let declaration: ScenarioInspector
                if let device = expectation.device {
                    declaration = try Self.inspector(device, context, location).declaration
                } else if let first = context.inspectors.first(where: { $0.declaration.value(identifier) != nil }) {
                    declaration = first.declaration
                } else {
                    throw AirlinkError(
                        .invalidSpecification, "\(location): no inspector of the world has a value '\(identifier)'")
                }
                inspectedExpectations[index] = try Self.parse(equals, identifier, of: declaration, location)
            default:
                break
            }
        }
    }

    private static func peripheral(_ name: String, _ context: ScenarioContext, _ location: String) throws(AirlinkError)
        -> SimulatedPeripheral
    {
        do {
            return try context.peripheral(name)
        } catch {
            throw AirlinkError(.invalidSpecification, "\(location).device: \(error.message)")
        }
    }

    private static func inspector(_ name: String, _ context: ScenarioContext, _ location: String)
        throws(AirlinkError) -> ScenarioRunningInspector
    {
        guard let inspector = context.runningInspector(name) else {
            let names = context.inspectors.map(\.declaration.name)
            throw AirlinkError(
                .invalidSpecification,
                "\(location): '\(name)' is not an inspector of the world; "
                    + (names.isEmpty
                        ? "declare one with `inspector:`" : "its inspectors are \(names.joined(separator: ", "))"))
        }
        return inspector
    }

    private static func declared(_ identifier: String, in declaration: ScenarioInspector, _ location: String)
        throws(AirlinkError) -> ScenarioInspectedValue
    {
        guard let value = declaration.value(identifier) else {
            throw AirlinkError(
                .invalidSpecification,
                "\(location): inspector \"\(declaration.name)\" has no value '\(identifier)'; it has "
                    + declaration.values.map(\.identifier).joined(separator: ", "))
        }
        return value
    }

    private static func parse(
        _ text: String, _ identifier: String, of declaration: ScenarioInspector, _ location: String
    ) throws(AirlinkError) -> InspectedValue {
        let value = try declared(identifier, in: declaration, location)
        do {
            return try InspectedValue(parsing: text, as: value.value.type)
        } catch {
            throw AirlinkError(.invalidSpecification, "\(location): \(identifier): \(error.message)")
        }
    }
}
