import Foundation
import Testing

@testable import AirlinkCore

/// Merging a scan response into the advertising PDU it followed, and the services an advertisement names.
@Suite struct AdvertisementScanResponseTests {
    @Test func theScanResponseCompletesTheAdvertisement() {
        // Given an advertising PDU with a shortened name and a service, and a scan response with the
        // complete name, the same service, another one, and manufacturer data
        let advertising = Advertisement(
            flags: .generalDiscoverableLEOnly, localName: .shortened("Thermost"), serviceUUIDs: [.battery],
            rssi: -60)
        var response = Advertisement(
            localName: "Thermostat", serviceUUIDs: [.battery, .deviceInformation],
            manufacturerData: [.init(companyID: 0x000D, data: [1, 2])], txPowerLevel: 4)
        response.isScanResponse = true

        // When merged
        let merged = advertising.merged(withScanResponse: response)

        // Then the device shows the complete name, each service once, the response's data, and the PDU's
        // flags and RSSI; the result is no scan response
        #expect(merged.localName == .complete("Thermostat"))
        #expect(merged.serviceUUIDs == [.battery, .deviceInformation])
        #expect(merged.manufacturerData(for: 0x000D) == [1, 2])
        #expect(merged.txPowerLevel == 4)
        #expect(merged.flags == .generalDiscoverableLEOnly)
        #expect(merged.rssi == -60)
        #expect(!merged.isScanResponse)
        #expect(advertising.merged(withScanResponse: nil) == advertising)
    }

    @Test func aCompleteNameIsKeptOverAShortenedOneThatBeginsIt() {
        let complete = Advertisement.LocalName.complete("Thermostat")
        #expect(complete.keeping(.shortened("Thermost")) == complete)
        #expect(complete.keeping(.shortened("Other")) == .shortened("Other"))
        #expect(complete.keeping(.complete("Renamed")) == .complete("Renamed"))
        #expect(Advertisement.LocalName.shortened("Thermost").keeping(complete) == complete)
    }

    @Test func aServiceAdvertisedAndCarryingDataIsOneService() {
        // Given a battery advertising 180F in its list and with service data
        let advertisement = Advertisement(
            serviceUUIDs: [.battery],
            serviceData: [.init(uuid: .battery, data: [0x57]), .init(uuid: .heartRate, data: [])])

        // Then it names 180F once, then the heart rate service
        #expect(advertisement.advertisedServices == [.battery, .heartRate])
    }

    @Test func isScanResponseIsNotEncoded() throws {
        // Given a scan response
        var response = Advertisement(localName: "X")
        response.isScanResponse = true

        // When it goes through JSON, Then it comes back as data a receiver did not observe, without the flag
        let data = try JSONEncoder().encode(response)
        #expect(!String(decoding: data, as: UTF8.self).contains("isScanResponse"))
        #expect(try JSONDecoder().decode(Advertisement.self, from: data).isScanResponse == false)
    }
}
