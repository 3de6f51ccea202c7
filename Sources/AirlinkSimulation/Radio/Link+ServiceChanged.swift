import AirlinkCore

/// The handles a link operation relies on, so that the client never uses a handle the peripheral said
/// changed (Core Spec Vol 3, Part G, 2.5.2 and 7.1: after a Service Changed indication the client must
/// rediscover the affected range before using handles in it).
enum LinkHandleScope {
    /// No handle of the database (MTU exchange, the link's own set-up).
    case none
    /// Handles found by an earlier discovery: a read, a write, a descriptor search, a CCCD write.
    case handles(ClosedRange<ATTHandle>)
    /// The primary service discovery that learns the database again: it needs no earlier handle, and
    /// once it completes the changed ranges are known again.
    case rediscovery
}

extension LinkHandleScope {
    /// Whether the scope uses a handle in `range`.
    func overlaps(_ range: ClosedRange<ATTHandle>) -> Bool {
        guard case .handles(let handles) = self else { return false }
        return handles.overlaps(range)
    }
}

extension Link {
    /// The peripheral indicated Service Changed for `range`: until a primary service discovery started
    /// after it completes, operations on handles in the range are refused with
    /// ``/AirlinkCore/AirlinkError/Code/databaseOutOfSync``; those queued or under way that rely on them
    /// fail now (one under way still takes its response off the bearer), and so does a service discovery
    /// under way, whose results may describe the old database.
    ///
    /// bluetoothd does the same with object paths: it removes the objects of the changed range, and a call
    /// on one fails. Without it, a handle the app resolved an instant before the indication would read or
    /// write (or turn on notifications of) whatever attribute the new database put there.
    func serviceChanged(_ range: ClosedRange<ATTHandle>) {
        assertConfined()
        staleRanges.append(range)
        for operation in operations where !operation.isFinished {
            let outdated: Bool
            switch operation.scope {
            case .handles: outdated = operation.scope.overlaps(range)
            case .rediscovery: outdated = operation.startedAt != nil
            case .none: outdated = false
            }
            guard outdated else { continue }
            operation.fail(
                AirlinkError(
                    .databaseOutOfSync,
                    "\(peripheral.id) reported its database changed (Service Changed, handles "
                        + "\(range.lowerBound)–\(range.upperBound)) while the operation ran; its handles may "
                        + "point at other attributes now: discover the services again and retry"))
        }
    }

    /// Throws when `scope` uses a handle the peripheral said changed and no service discovery has
    /// learned again since.
    func checkTrusted(_ scope: LinkHandleScope, _ what: @autoclosure () -> String) throws(AirlinkError) {
        assertConfined()
        guard let stale = staleRanges.first(where: { scope.overlaps($0) }) else { return }
        throw AirlinkError(
            .databaseOutOfSync,
            "cannot \(what()) on \(peripheral.id): \(peripheral.id) reported handles "
                + "\(stale.lowerBound)–\(stale.upperBound) changed (Service Changed) and they have not been "
                + "discovered again; discover the services again and retry")
    }

    /// A primary service discovery completed: the database is known again.
    func rediscovered(by operation: LinkOperation) {
        assertConfined()
        guard case .rediscovery = operation.scope, operation.succeeded else { return }
        staleRanges.removeAll()
    }

    /// The range a Service Changed indication carries (start and end handles, little-endian), or the
    /// whole database when the value is malformed.
    static func changedRange(_ value: [UInt8]) -> ClosedRange<ATTHandle> {
        guard value.count == 4 else { return ATTHandle(1)...ATTHandle.max }
        let start = UInt16(value[0]) | UInt16(value[1]) << 8
        let end = UInt16(value[2]) | UInt16(value[3]) << 8
        guard start >= 1, start <= end else { return ATTHandle(1)...ATTHandle.max }
        return ATTHandle(start)...ATTHandle(end)
    }
}
