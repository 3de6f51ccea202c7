"""A Bumble central against `airlink controller`: scans, connects to each built-in peripheral, discovers
every service, characteristic and descriptor, reads, writes, subscribes, receives notifications, and
sees the thermostat's injected link loss as Disconnection Complete with the expected reason.

Usage: central.py TRANSPORT [--loss-reason 0x08] [--figures]
Exit status 0 when every check held; each failed check prints one line naming what was expected.
"""

import argparse
import asyncio
import struct
import sys
import time

from bumble.core import UUID
from bumble.device import Device, Peer
from bumble.gatt import Characteristic
from bumble.hci import Address
from bumble.transport import open_transport

THERMOSTAT = "C0:FF:EE:00:00:01"
BATTERY = "B4:77:E2:00:00:02"
SENSORTAG = "BC:6A:29:00:00:03"
BATTERY_LEVEL = UUID.from_16_bits(0x2A19)
THERMOSTAT_TEMPERATURE = UUID("68753A44-4D6F-1226-9C60-0050E4C00067")
THERMOSTAT_UNIT = UUID("68753A44-4D6F-1226-9C60-0050E4C00068")
DEADLINE = 10.0  # seconds any single wait may take
BURST = 2000  # notifications in the figures' burst (Scripts/hci-interop/run --figures)

failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


async def scan(device):
    seen = {}
    responses = set()

    def on_advertisement(advertisement):
        address = advertisement.address.to_string(False)
        seen.setdefault(address, advertisement)
        if advertisement.is_scan_response:
            responses.add(address)

    device.on("advertisement", on_advertisement)
    await device.start_scanning(active=True, filter_duplicates=False)
    start = time.monotonic()
    while time.monotonic() - start < DEADLINE and not (
        {THERMOSTAT, BATTERY, SENSORTAG} <= set(seen) and THERMOSTAT in responses
    ):
        await asyncio.sleep(0.05)
    await device.stop_scanning()
    device.remove_listener("advertisement", on_advertisement)
    for address in (THERMOSTAT, BATTERY, SENSORTAG):
        check(address in seen, f"scan: heard {address}")
        if address in seen:
            check(-127 < seen[address].rssi < 20, f"scan: {address} RSSI {seen[address].rssi} dBm is plausible")
    check(THERMOSTAT in responses, "scan: the thermostat's scan response arrived")


async def discover(peer):
    await peer.discover_services()
    count = 0
    for service in peer.services:
        await service.discover_characteristics()
        for characteristic in service.characteristics:
            await characteristic.discover_descriptors()
            count += 1
    return count


async def connect(device, address):
    return await asyncio.wait_for(
        device.connect(Address(address, Address.PUBLIC_DEVICE_ADDRESS)), DEADLINE)


async def exercise(device, address, name, expected_reason=None):
    disconnected = asyncio.get_running_loop().create_future()
    connection = await connect(device, address)
    connection.on("disconnection", lambda reason: disconnected.done() or disconnected.set_result(reason))
    check(True, f"{name}: connected")
    peer = Peer(connection)
    count = await asyncio.wait_for(discover(peer), DEADLINE)
    check(count > 0, f"{name}: discovered {len(peer.services)} services, {count} characteristics")
    descriptors = sum(len(c.descriptors) for s in peer.services for c in s.characteristics)
    check(descriptors > 0, f"{name}: discovered {descriptors} descriptors")
    values = {}
    for service in peer.services:
        for characteristic in service.characteristics:
            if characteristic.properties & Characteristic.Properties.READ:
                values[characteristic.uuid] = bytes(await asyncio.wait_for(characteristic.read_value(), DEADLINE))
    check(len(values) > 0, f"{name}: read {len(values)} values")
    notified = asyncio.get_running_loop().create_future()
    subscribed = 0
    for service in peer.services:
        for characteristic in service.characteristics:
            if characteristic.properties & Characteristic.Properties.NOTIFY:
                await asyncio.wait_for(
                    characteristic.subscribe(lambda value: notified.done() or notified.set_result(bytes(value))),
                    DEADLINE)
                subscribed += 1
    check(subscribed > 0, f"{name}: subscribed to {subscribed} characteristics")
    if address == BATTERY:
        level = values.get(BATTERY_LEVEL)
        check(level == bytes([87]), f"battery: level reads 87 % (got {level!r})")
    if address == THERMOSTAT:
        temperature = values.get(THERMOSTAT_TEMPERATURE)
        # The built-in thermostat's room drifts around its 21.00 °C set point, within 0.5 °C (SimulatedPeripherals.md)
        celsius = struct.unpack("<h", temperature)[0] / 100 if temperature and len(temperature) == 2 else None
        check(celsius is not None and abs(celsius - 21.0) <= 0.5,
              f"thermostat: temperature reads 21.00 ± 0.50 °C (got {temperature!r})")
        unit = peer.get_characteristics_by_uuid(THERMOSTAT_UNIT)[0]
        await asyncio.wait_for(unit.write_value(values[THERMOSTAT_UNIT], with_response=True), DEADLINE)
        check(True, "thermostat: wrote the unit back (Write Request answered)")
        setpoint = peer.get_characteristics_by_uuid(THERMOSTAT_TEMPERATURE)[0]
        await asyncio.wait_for(setpoint.write_value(struct.pack("<h", 2500), with_response=True), DEADLINE)
        check(True, "thermostat: set point written")
    if address == SENSORTAG:
        written = 0
        for service in peer.services:
            for characteristic in service.characteristics:
                if values.get(characteristic.uuid) == b"\x00" and characteristic.properties & Characteristic.Properties.WRITE:
                    await asyncio.wait_for(characteristic.write_value(b"\x01", with_response=True), DEADLINE)
                    written += 1
        check(written > 0, f"sensortag: switched {written} sensors on")
    # The battery notifies once a minute; the controller's --notify-burst has it notify 5 s after the link is up.
    try:
        value = await asyncio.wait_for(notified, DEADLINE)
        check(len(value) > 0, f"{name}: received a notification ({value.hex()})")
    except asyncio.TimeoutError:
        check(False, f"{name}: a notification within {DEADLINE} s")
    if expected_reason is None:
        await connection.disconnect()
        reason = await asyncio.wait_for(disconnected, DEADLINE)
        check(reason == 0x16, f"{name}: our disconnection completes with 0x16 (got 0x{reason:02X})")
    else:
        try:
            reason = await asyncio.wait_for(disconnected, 3 * DEADLINE)
            check(reason == expected_reason,
                  f"{name}: the injected link loss arrives as 0x{expected_reason:02X} (got 0x{reason:02X})")
        except asyncio.TimeoutError:
            check(False, f"{name}: the injected link loss within {3 * DEADLINE} s")


async def figures(device):
    """Connect + discover + read of the battery, and notifications per second from the SensorTag."""
    cycles = []
    for _ in range(5):
        start = time.perf_counter()
        connection = await connect(device, BATTERY)
        peer = Peer(connection)
        await discover(peer)
        await peer.get_characteristics_by_uuid(BATTERY_LEVEL)[0].read_value()
        cycles.append(time.perf_counter() - start)
        await connection.disconnect()
    cycles.sort()
    print(f"figure: connect+discover+read (battery) median {cycles[len(cycles) // 2] * 1000:.1f} ms", flush=True)
    # The controller bursts BURST notifications of the battery level 3 s after each link to the battery comes up
    # (run --figures starts it with --notify-burst).
    connection = await connect(device, BATTERY)
    peer = Peer(connection)
    await discover(peer)
    arrivals = []
    complete = asyncio.get_running_loop().create_future()

    def on_value(_value):
        arrivals.append(time.perf_counter())
        if len(arrivals) >= BURST and not complete.done():
            complete.set_result(None)

    await peer.get_characteristics_by_uuid(BATTERY_LEVEL)[0].subscribe(on_value)
    await asyncio.wait_for(complete, 120)
    burst = arrivals[:BURST]
    rate = (len(burst) - 1) / (burst[-1] - burst[0])
    print(f"figure: notifications received {rate:.0f}/s (the first {BURST} of a burst)", flush=True)
    await connection.disconnect()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("transport")
    parser.add_argument("--loss-reason", default="0x08")
    parser.add_argument("--figures", action="store_true")
    arguments = parser.parse_args()
    async with await open_transport(arguments.transport) as (source, sink):
        device = Device.with_hci("bumble-central", Address("F0:F1:F2:F3:F4:F5"), source, sink)
        await asyncio.wait_for(device.power_on(), DEADLINE)
        check(True, "power on: the controller answered Bumble's reset sequence")
        await scan(device)
        await exercise(device, BATTERY, "battery")
        await exercise(device, SENSORTAG, "sensortag")
        await exercise(device, THERMOSTAT, "thermostat", expected_reason=int(arguments.loss_reason, 16))
        if arguments.figures:
            await figures(device)
    if failures:
        print(f"{len(failures)} check(s) failed", flush=True)
        sys.exit(1)
    print("all checks held", flush=True)


asyncio.run(main())
