import AirlinkCore
import AirlinkRegistry

extension DeviceRecording {
    /// Makes a recording from what a recorder observed; its name is the Device Name read, else the advertised
    /// name, else the address, kept as ``maximumNameLength`` allows (cut at a character, control characters
    /// replaced by U+FFFD).
    ///
    /// - Parameters:
    ///   - device: the device's address.
    ///   - transport: the transport's name.
    ///   - advertisements: the device's advertisements as reported, with their times.
    ///   - database: the database discovered, with the values read.
    ///   - session: the notifications received while watched.
    init(
        device: DeviceID, transport: String, advertisements: [(time: Duration, advertisement: Advertisement)],
        database: RecordedDatabase, session: RecordedSession
    ) {
        let deviceName = database.characteristic(.deviceName)?.value?.bytes.flatMap {
            String(validating: $0, as: UTF8.self)
        }
        let advertisedName = advertisements.lazy.compactMap(\.advertisement.name).last
        // A device may send a Device Name of up to 512 bytes (a long read) and any bytes in it: the recording keeps
        // what its replay accepts, at most 248 bytes without control characters, as a registry does.
        let name = ConnectionRecord.sanitizedName(deviceName ?? advertisedName ?? device.description)
        self.init(
            name: name, id: device, transport: transport,
            advertising: Self.advertising(advertisements), database: database, session: session)
    }

    /// The latest advertisement's data and scan response's, the interval and RSSI over the advertisements.
    private static func advertising(_ all: [(time: Duration, advertisement: Advertisement)])
        -> RecordedAdvertising?
    {
        let reports = all.filter { !$0.advertisement.isScanResponse }
        guard let latest = reports.last?.advertisement else { return nil }
        let response = all.last { $0.advertisement.isScanResponse }?.advertisement
        return RecordedAdvertising(
            // try?: both were decoded from the bytes heard, so they encode again
            data: (try? latest.advertisingData()) ?? [], scanResponse: try? response?.advertisingData(),
            interval: RecordedAdvertising.interval(of: reports.map(\.time)),
            isConnectable: latest.isConnectable, txPower: latest.txPowerLevel,
            rssi: RSSIDistribution(reports.compactMap { $0.advertisement.rssi.map(Int.init) }), reports: reports.count)
    }
}
