import AirlinkCore

extension ATTServer {
    /// ATT_WRITE_REQ and ATT_WRITE_CMD (Core Spec Vol 3, Part F, 3.4.5.1–3.4.5.3). A command that fails is
    /// dropped without a word, as the specification requires.
    mutating func write(_ handle: ATTHandle, _ value: [UInt8], respond: Bool) -> [Action] {
        let request: ATTOpcode = respond ? .writeRequest : .writeCommand
        switch apply(value, to: handle) {
        case .failure(let failure):
            return respond ? errorResponse(request, handle, failure.error) : []
        case .success(let actions):
            return actions + (respond ? [.send(.writeResponse)] : [])
        }
    }

    /// ATT_PREPARE_WRITE_REQ: checks the handle and permissions now, the offset and length at execution
    /// (Vol 3, Part F, 3.4.6.1).
    mutating func prepareWrite(_ handle: ATTHandle, offset: UInt16, value: [UInt8]) -> [Action] {
        guard let attribute = database[handle] else {
            return errorResponse(.prepareWriteRequest, handle, .invalidHandle)
        }
        if let error = writeError(attribute) { return errorResponse(.prepareWriteRequest, handle, error) }
        guard prepareQueue.count < Self.prepareQueueCapacity else {
            return errorResponse(.prepareWriteRequest, handle, .prepareQueueFull)
        }
        prepareQueue.append(PreparedWrite(handle: handle, offset: Int(offset), value: value))
        return [.send(.prepareWriteResponse(handle: handle, offset: offset, value: value))]
    }

    /// ATT_EXECUTE_WRITE_REQ: writes every queued value or none (Vol 3, Part F, 3.4.6.3).
    ///
    /// Parts of one handle apply in order, each at its offset onto the value built so far (starting from
    /// the stored value) and cutting what lay beyond it. An offset past that value earns Invalid Offset, a
    /// result over 512 bytes Invalid Attribute Value Length; either way nothing is written and the queue
    /// is cleared.
    mutating func executeWrite(commit: Bool) -> [Action] {
        let queue = prepareQueue
        prepareQueue = []
        guard commit else { return [.send(.executeWriteResponse)] }
        var handles: [ATTHandle] = []
        var values: [ATTHandle: [UInt8]] = [:]
        for part in queue {
            if values[part.handle] == nil {
                handles.append(part.handle)
                values[part.handle] = database[part.handle].map(currentValue) ?? []
            }
            let current = values[part.handle]!
            guard part.offset <= current.count else {
                return errorResponse(.executeWriteRequest, part.handle, .invalidOffset)
            }
            let built = Array(current[..<part.offset]) + part.value
            guard built.count <= AttributeDatabase.maximumValueLength else {
                return errorResponse(.executeWriteRequest, part.handle, .invalidAttributeValueLength)
            }
            values[part.handle] = built
        }
        var actions: [Action] = []
        for handle in handles {
            switch apply(values[handle]!, to: handle) {
            case .failure(let failure): return errorResponse(.executeWriteRequest, handle, failure.error)
            case .success(let done): actions += done
            }
        }
        return actions + [.send(.executeWriteResponse)]
    }

    /// Why a write failed, as an `Error` so that `Result` can carry it.
    struct WriteFailure: Error {
        var error: ATTError
    }

    /// Checks and stores one value, handling CCCDs and Client Supported Features per connection.
    private mutating func apply(_ value: [UInt8], to handle: ATTHandle) -> Result<[Action], WriteFailure> {
        guard let attribute = database[handle] else { return .failure(WriteFailure(error: .invalidHandle)) }
        if let error = writeError(attribute) { return .failure(WriteFailure(error: error)) }
        guard value.count <= AttributeDatabase.maximumValueLength else {
            return .failure(WriteFailure(error: .invalidAttributeValueLength))
        }
        if case .cccd(let valueHandle, let properties) = attribute.role {
            return configure(handle, valueHandle: valueHandle, properties: properties, value: value)
        }
        if handle == database.clientSupportedFeaturesHandle { return writeClientSupportedFeatures(value) }
        do {
            try database.setValue(value, for: handle)
        } catch {
            return .failure(WriteFailure(error: .unlikelyError))
        }
        return .success([.valueWritten(handle: handle, value: value)])
    }

    /// A CCCD write: two bytes, with only the bits the characteristic's properties allow
    /// (Vol 3, Part G, 3.3.3.3); other bits earn Value Not Allowed, another length Invalid Attribute Value
    /// Length. Turning indications off drops indications still queued for the characteristic.
    private mutating func configure(
        _ cccd: ATTHandle, valueHandle: ATTHandle, properties: CharacteristicProperties, value: [UInt8]
    ) -> Result<[Action], WriteFailure> {
        guard value.count == 2 else { return .failure(WriteFailure(error: .invalidAttributeValueLength)) }
        let bits = UInt16(value[0]) | UInt16(value[1]) << 8
        var allowed: UInt16 = 0
        if properties.contains(.notify) { allowed |= 0x0001 }
        if properties.contains(.indicate) { allowed |= 0x0002 }
        guard bits & ~allowed == 0 else { return .failure(WriteFailure(error: .valueNotAllowed)) }
        let old = cccdValues[cccd] ?? 0
        cccdValues[cccd] = bits
        if bits & 0x0002 == 0 { pendingIndications.removeAll { $0.handle == valueHandle } }
        guard old != bits else { return .success([]) }
        return .success([.subscriptionChanged(valueHandle: valueHandle, notify: bits & 1 != 0, indicate: bits & 2 != 0)]
        )
    }
}
