import AirlinkCore

/// What `airlink --version` prints: the tool, and where the names it shows for UUIDs and companies come
/// from (the lists `Scripts/assigned-numbers` generated the tables from, with their versions).
enum VersionText {
    /// The lines `--version` prints.
    static let text = """
        airlink (Airlink, built from source)
        UUID names: \(BluetoothUUID.assignedNumbersSource)
        vendor UUID names: \(BluetoothUUID.vendorNamesSource)
        company names: \(CompanyIdentifiers.source)
        """
}
