import AirlinkCore
import Foundation

/// The JSON form of a device registry file, schema version 1:
///
/// ```json
/// { "format": "airlink-device-registry", "schemaVersion": 1, "devices": [ { "id": ... }, ... ] }
/// ```
///
/// Devices are written the last connected first. A reader refuses a file of a newer schema version
/// rather than guess at it.
enum RegistryDocument {
    /// The `format` field's value.
    static let format = "airlink-device-registry"
    /// The schema version this Airlink writes and the newest it reads.
    static let schemaVersion = 1

    /// Why a file could not be decoded.
    enum Failure: Error {
        /// Not a registry file of a known form; the text says what was wrong.
        case corrupt(String)
        /// A registry file of a newer schema.
        case newerVersion(Int)
    }

    private struct Header: Decodable {
        var format: String?
        var schemaVersion: Int?
    }

    private struct Body: Codable {
        var format: String
        var schemaVersion: Int
        var devices: [ConnectionRecord]
    }

    /// Decodes and validates the records of a registry file.
    static func decode(_ bytes: [UInt8]) throws(Failure) -> [DeviceID: ConnectionRecord] {
        let data = Data(bytes)
        let decoder = JSONDecoder()
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: data)
        } catch {
            throw .corrupt(
                bytes.isEmpty
                    ? "the file is empty" : "it is not a JSON object (\(syntaxError(data) ?? describe(error)))")
        }
        guard header.format == format else {
            throw .corrupt("its \"format\" is \(header.format.map { "\"\($0)\"" } ?? "missing"), not \"\(format)\"")
        }
        guard let version = header.schemaVersion, version >= 1 else {
            throw .corrupt("its \"schemaVersion\" is missing or below 1")
        }
        guard version <= schemaVersion else { throw .newerVersion(version) }
        let body: Body
        do {
            body = try decoder.decode(Body.self, from: data)
        } catch {
            throw .corrupt(syntaxError(data).map { "it is not valid JSON (\($0))" } ?? describe(error))
        }
        var records: [DeviceID: ConnectionRecord] = [:]
        records.reserveCapacity(body.devices.count)
        for (index, record) in body.devices.enumerated() {
            do {
                try record.validate()
            } catch {
                throw .corrupt("devices[\(index)]: \(error.message)")
            }
            guard records.updateValue(record, forKey: record.id) == nil else {
                throw .corrupt("devices[\(index)]: \(record.id) is listed twice")
            }
        }
        return records
    }

    /// Encodes records, the last connected first, as the text of a registry file. Keys are sorted, so
    /// the same records give the same text in every process (JSONEncoder's own key order is not fixed).
    static func encode(_ records: some Collection<ConnectionRecord>) throws(AirlinkError) -> [UInt8] {
        let body = Body(
            format: format, schemaVersion: schemaVersion, devices: records.sorted(by: ConnectionRecord.isMoreRecent))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(body)) + [UInt8(ascii: "\n")]
        } catch {
            throw AirlinkError(.internalError, "encoding the device registry failed: \(error)")
        }
    }

    /// What is wrong with the JSON syntax of `data` (`Number 1e400 is not representable in Swift.`,
    /// `Invalid UTF-8 sequence …`), which JSONDecoder reports only as "not valid JSON"; `nil` if
    /// the syntax is fine.
    static func syntaxError(_ data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            return ((error as NSError).userInfo["NSDebugDescription"] as? String) ?? "\(error)"
        }
    }

    /// A decoding error as one line: where (`devices[3].id`) and what.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func location(_ path: [any CodingKey]) -> String {
            var text = ""
            for key in path {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text.isEmpty ? "the top level" : text
        }
        switch error {
        case .dataCorrupted(let context):
            return "\(location(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(location(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "\(location(context.codingPath)) is not a \(type)"
        @unknown default:
            return "\(error)"
        }
    }
}
