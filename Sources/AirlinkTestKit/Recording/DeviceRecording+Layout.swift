import AirlinkCore
import AirlinkSimulation

extension DeviceRecording {
    /// Checks that the virtual radio lays `spec` out with the recorded handles.
    func checkLayout(of spec: PeripheralSpec) throws(AirlinkError) {
        let served = try AttributeDatabase(spec.gattDefinition)
        var replayed = RecordedDatabase(layoutOf: served)
        let recorded = layout
        // A recording without the services bluetoothd hides is compared without them.
        for hidden in [BluetoothUUID.genericAccess, .genericAttribute]
        where !recorded.services.contains(where: { $0.uuid == hidden }) {
            replayed.services.removeAll { $0.uuid == hidden }
        }
        for (s, (want, got)) in zip(recorded.services, replayed.services).enumerated() {
            let path = "services[\(s)]"
            guard want.uuid == got.uuid, want.handles == got.handles else {
                throw layoutError(
                    "\(path): service \(want.uuid) has handles \(want.handles.lowerBound)...\(want.handles.upperBound) "
                        + "in the recording, the replay would serve \(got.uuid) at "
                        + "\(got.handles.lowerBound)...\(got.handles.upperBound)")
            }
            for (c, (a, b)) in zip(want.characteristics, got.characteristics).enumerated() where a != b {
                throw layoutError(
                    "\(path).characteristics[\(c)]: characteristic \(a.uuid) at \(a.declarationHandle) (value "
                        + "\(a.valueHandle)) in the recording, the replay would serve \(b.uuid) at "
                        + "\(b.declarationHandle) (value \(b.valueHandle)) with descriptors "
                        + b.descriptors.map { "\($0.uuid) at \($0.handle)" }.joined(separator: ", "))
            }
        }
        guard recorded.services.count == replayed.services.count else {
            throw layoutError(
                "the recording has \(recorded.services.count) services, the replay would serve "
                    + "\(replayed.services.count)")
        }
    }

    private func layoutError(_ text: String) -> AirlinkError {
        AirlinkError(
            .invalidSpecification,
            "recording \(name): \(text). The virtual radio serves 0x1800 with Device Name and Appearance at "
                + "0x0001-0x0005, then 0x1801, places each service and characteristic at its recorded handle, "
                + "each CCCD "
                + "right after its value and the other descriptors after it, and ends a service at its last "
                + "attribute; edit the recording's handles to that layout (Docs/RecordReplay.md)")
    }

    /// The database without values: what discovery shows.
    var layout: RecordedDatabase {
        var copy = database
        for s in copy.services.indices {
            for c in copy.services[s].characteristics.indices {
                copy.services[s].characteristics[c].value = nil
                copy.services[s].characteristics[c].writeError = nil
                for d in copy.services[s].characteristics[c].descriptors.indices {
                    copy.services[s].characteristics[c].descriptors[d].value = nil
                }
            }
        }
        return copy
    }
}

extension RecordedDatabase {
    /// The layout an attribute table gives a discovering client, without values.
    init(layoutOf table: AttributeDatabase) {
        self.init(
            services: table.services.map { service in
                var recorded = RecordedService(
                    uuid: service.uuid, isPrimary: service.isPrimary, handles: service.handles,
                    includes: service.includedServiceHandles)
                for attribute in table.attributes(in: service.handles) {
                    switch attribute.role {
                    case .characteristicValue(let properties, _):
                        recorded.characteristics.append(
                            RecordedCharacteristic(
                                uuid: attribute.type, declarationHandle: ATTHandle(attribute.handle.rawValue - 1),
                                valueHandle: attribute.handle, properties: properties))
                    case .cccd, .descriptor:
                        recorded.characteristics[recorded.characteristics.count - 1].descriptors.append(
                            RecordedDescriptor(uuid: attribute.type, handle: attribute.handle))
                    case .service, .include, .characteristicDeclaration: break
                    }
                }
                return recorded
            })
    }
}
