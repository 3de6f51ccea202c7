import AirlinkCore

extension DeviceRecordingFile {
    /// Writes in time order, within the session, to characteristics that allow writes; what followed each one in
    /// time order and from characteristics that notify or indicate.
    static func checkWrites(_ session: RecordedSession, of database: RecordedDatabase, _ root: [any CodingKey])
        throws
    {
        var previous = Duration.zero
        for (w, write) in session.writes.enumerated() {
            let path = root + [ScenarioPathKey(stringValue: "session"), ScenarioPathKey(stringValue: "writes")]
            let writePath = path + [ScenarioPathKey(intValue: w)]
            func fail(_ at: [any CodingKey], _ key: String, _ text: String) -> DecodingError {
                .dataCorrupted(.init(codingPath: at + [ScenarioPathKey(stringValue: key)], debugDescription: text))
            }
            guard let (_, characteristic) = database.characteristic(valueHandle: write.handle),
                !characteristic.properties.isDisjoint(with: [.write, .writeWithoutResponse])
            else { throw fail(writePath, "handle", "no writable characteristic has the value handle \(write.handle)") }
            guard write.time >= previous, write.time <= session.duration else {
                throw fail(
                    writePath, "at", "writes are in time order within the session (0s to \(session.duration.text))")
            }
            previous = write.time
            var after = Duration.zero
            for (n, notification) in write.followed.enumerated() {
                let notificationPath =
                    writePath + [ScenarioPathKey(stringValue: "followed"), ScenarioPathKey(intValue: n)]
                guard let (_, source) = database.characteristic(valueHandle: notification.handle),
                    source.properties.canSubscribe
                else {
                    throw fail(
                        notificationPath, "handle",
                        "no characteristic that notifies or indicates has the value handle \(notification.handle)")
                }
                guard notification.time >= after else {
                    throw fail(
                        notificationPath, "after",
                        "what followed a write is in time order; \(notification.time.text) comes before \(after.text)")
                }
                after = notification.time
            }
        }
    }
}
