import AirlinkCore

/// Discovers a characteristic's descriptors with Find Information over the handles after its value, up to
/// the next characteristic's declaration or the service's end (Core Spec Vol 3, Part G, 4.7.1).
public struct DiscoverDescriptorsProcedure: GATTProcedure {
    /// The handles searched; `nil` when the characteristic has no room for descriptors.
    public let range: ClosedRange<ATTHandle>?
    private var next = ATTHandle.min
    private var descriptors: [GATTDescriptor] = []

    /// Creates the procedure for an explicit handle range.
    public init(range: ClosedRange<ATTHandle>?) { self.range = range }

    /// Creates the procedure for one characteristic, bounded by the next characteristic of the same service.
    ///
    /// - Parameters:
    ///   - characteristic: the characteristic.
    ///   - service: the service it belongs to.
    ///   - siblings: the service's characteristics, as discovered (any order).
    public init(of characteristic: GATTCharacteristic, in service: GATTService, siblings: [GATTCharacteristic]) {
        let following = siblings.map(\.declarationHandle).filter { $0 > characteristic.valueHandle }.min()
        let end = following.map { ATTHandle($0.rawValue - 1) } ?? service.handles.upperBound
        let start = characteristic.valueHandle.rawValue
        self.range = start < end.rawValue ? ATTHandle(start + 1)...end : nil
    }

    private var name: String { "discover descriptors" }

    /// Sends the first Find Information Request, or completes at once with none if the range is empty.
    public mutating func start() -> GATTProcedureStep<[GATTDescriptor]> {
        descriptors = []
        guard let range else { return .completed([]) }
        next = range.lowerBound
        return .send(.findInformationRequest(start: next, end: range.upperBound))
    }

    /// Collects the descriptors found and asks for the rest of the range.
    public mutating func handle(_ response: ATTPDU) -> GATTProcedureStep<[GATTDescriptor]> {
        guard let range else { return .failed(.unexpected(name, response, expected: .findInformationResponse)) }
        switch response {
        case .findInformationResponse(let entries):
            for entry in entries {
                guard entry.handle >= next else {
                    return .failed(AirlinkError(.malformedData, "\(name): the server went back to \(entry.handle)"))
                }
                descriptors.append(GATTDescriptor(uuid: entry.type, handle: entry.handle))
            }
            guard let last = entries.last?.handle, last < range.upperBound else { return .completed(descriptors) }
            next = ATTHandle(last.rawValue + 1)
            return .send(.findInformationRequest(start: next, end: range.upperBound))
        case .errorResponse(_, _, .attributeNotFound):
            return .completed(descriptors)
        case .errorResponse(let request, let handle, let error):
            return .failed(.refused(name, request, handle, error))
        default:
            return .failed(.unexpected(name, response, expected: .findInformationResponse))
        }
    }
}
