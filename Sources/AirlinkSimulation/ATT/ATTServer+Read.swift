import AirlinkCore

extension ATTServer {
    /// ATT_READ_REQ: the value, truncated to ATT_MTU − 1 bytes (Core Spec Vol 3, Part F, 3.4.4.3–3.4.4.4).
    func read(_ handle: ATTHandle) -> [Action] { [.send(readResponse(to: handle))] }

    /// The answer to ATT_READ_REQ for `handle`: a Read Response or an Error Response. A read changes
    /// nothing on the server, so a link answers it with this alone (no list of actions to allocate).
    func readResponse(to handle: ATTHandle) -> ATTPDU {
        guard let attribute = database[handle] else {
            return .errorResponse(request: .readRequest, handle: handle, error: .invalidHandle)
        }
        if let error = readError(attribute) {
            return .errorResponse(request: .readRequest, handle: handle, error: error)
        }
        let value = currentValue(attribute)
        let limit = Int(mtu) - 1
        return .readResponse(value.count <= limit ? value : Array(value.prefix(limit)))
    }

    /// ATT_READ_BLOB_REQ: up to ATT_MTU − 1 bytes from `offset` (Vol 3, Part F, 3.4.4.5–3.4.4.6).
    ///
    /// An offset past the end earns Invalid Offset; an offset at the end an empty part. A value that fits
    /// in one Read Response (at most ATT_MTU − 1 bytes) earns Attribute Not Long, as the Read Long
    /// Characteristic Values procedure expects (Vol 3, Part G, 4.8.3).
    func readBlob(_ handle: ATTHandle, offset: Int) -> [Action] {
        guard let attribute = database[handle] else {
            return errorResponse(.readBlobRequest, handle, .invalidHandle)
        }
        if let error = readError(attribute) { return errorResponse(.readBlobRequest, handle, error) }
        let value = currentValue(attribute)
        if offset > value.count { return errorResponse(.readBlobRequest, handle, .invalidOffset) }
        if value.count <= Int(mtu) - 1 { return errorResponse(.readBlobRequest, handle, .attributeNotLong) }
        return [.send(.readBlobResponse(Array(value[offset..<min(value.count, offset + Int(mtu) - 1)])))]
    }
}
