import AirlinkCore

extension AttributeDatabase {
    /// The handles a change from `old` to this database affects, for the Service Changed indication
    /// (Core Spec Vol 3, Part G, 7.1), or `nil` if the structure is the same.
    ///
    /// Attributes are compared by type, permissions, role and, for declarations, value; characteristic
    /// values that merely hold other data do not count. The range is widened to the whole service groups
    /// it touches, in either database, and runs to the end of the longer table when handles moved.
    ///
    /// - Parameter old: the database before the change (a peripheral's firmware update).
    public func changedHandles(comparedWith old: AttributeDatabase) -> ClosedRange<ATTHandle>? {
        let count = max(attributes.count, old.attributes.count)
        func differs(_ index: Int) -> Bool {
            guard attributes.indices.contains(index), old.attributes.indices.contains(index) else { return true }
            return !attributes[index].hasSameStructure(as: old.attributes[index])
        }
        guard let first = (0..<count).first(where: differs), let last = (0..<count).last(where: differs) else {
            return nil
        }
        func handle(_ index: Int) -> ATTHandle {
            let own = attributes.indices.contains(index) ? attributes[index].handle : nil
            let previous = old.attributes.indices.contains(index) ? old.attributes[index].handle : nil
            return [own, previous].compactMap { $0 }.min() ?? ATTHandle(UInt16(index + 1))
        }
        var lower = handle(first)
        var upper =
            [attributes, old.attributes].compactMap { $0.indices.contains(last) ? $0[last].handle : nil }.max()
            ?? ATTHandle(UInt16(last + 1))
        for database in [self, old] {
            for service in database.services {
                if service.handles.contains(lower) { lower = min(lower, service.handles.lowerBound) }
                if service.handles.contains(upper) { upper = max(upper, service.handles.upperBound) }
            }
        }
        return lower...upper
    }
}

extension GATTAttribute {
    /// Whether two attributes look the same to a client that cached the database.
    func hasSameStructure(as other: GATTAttribute) -> Bool {
        guard type == other.type, permissions == other.permissions, role == other.role else { return false }
        switch role {
        case .service, .include, .characteristicDeclaration: return value == other.value
        case .characteristicValue, .cccd, .descriptor: return true
        }
    }
}
