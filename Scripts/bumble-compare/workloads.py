"""Bumble's side of Airlink's side-by-side (Docs/Performance.md, "Bumble side by side").

The workloads Airlink's benchmarks run on the virtual radio, run here on Bumble's in-process
LocalLink (two or more Bumble controllers and hosts in one asyncio loop, no HCI transport):

- cycle: connect, discover every service and characteristic, read one value, disconnect;
- reads: sequential reads of a 20-byte value on one connection;
- notifications: a peripheral notifies a 20-byte value, the central's subscriber counts them;
- scan N: N peripherals advertising every 100 ms, one central scanning with duplicates for
  one second (Bumble has no virtual time: the second is a real one, set-up included).

Prints one line per figure, `name<TAB>value<TAB>unit`, which Scripts/bumble-compare/run reads.
"""

import argparse
import asyncio
import logging
import time

from bumble.controller import Controller
from bumble.core import UUID, AdvertisingData
from bumble.device import Device, Peer
from bumble.gatt import Characteristic, CharacteristicValue, Service
from bumble.hci import Address
from bumble.host import Host
from bumble.link import LocalLink
from bumble.transport.common import AsyncPipeSink

SERVICE = 'B0B00001-0000-1000-8000-00805F9B34FB'
VALUE = 'B0B00002-0000-1000-8000-00805F9B34FB'


def make_device(link: LocalLink, index: int) -> Device:
    """A Bumble device on `link`, with its own controller and host."""
    address = f'F0:F1:F2:{(index >> 16) & 0xFF:02X}:{(index >> 8) & 0xFF:02X}:{index & 0xFF:02X}'
    controller = Controller(f'C{index}', link=link, public_address=address)
    host = Host(controller, AsyncPipeSink(controller))
    return Device(address=Address(address), host=host)


def add_sensor_service(device: Device) -> Characteristic:
    """The sensor of Airlink's radio benchmarks: one service, a 20-byte readable, notifiable value."""
    characteristic = Characteristic(
        VALUE,
        Characteristic.Properties.READ | Characteristic.Properties.NOTIFY,
        Characteristic.READABLE,
        CharacteristicValue(read=lambda _connection: bytes([0x5A] * 20)),
    )
    device.add_service(Service(SERVICE, [characteristic]))
    return characteristic


async def pair_of_devices():
    """A central and a sensor peripheral, powered on, the peripheral advertising."""
    link = LocalLink()
    central, peripheral = make_device(link, 1), make_device(link, 2)
    characteristic = add_sensor_service(peripheral)
    await central.power_on()
    await peripheral.power_on()
    await peripheral.start_advertising(auto_restart=True, advertising_interval_min=20, advertising_interval_max=20)
    return central, peripheral, characteristic


async def value_proxy(central: Device, peripheral: Device):
    connection = await central.connect(peripheral.random_address)
    peer = Peer(connection)
    await peer.discover_all()
    return connection, peer, peer.get_characteristics_by_uuid(UUID(VALUE))[0]


async def cycles(count: int) -> float:
    """Seconds per connect, discover all, read, disconnect."""
    central, peripheral, _ = await pair_of_devices()
    start = time.perf_counter()
    for _ in range(count):
        connection = await central.connect(peripheral.random_address)
        peer = Peer(connection)
        await peer.discover_all()
        characteristic = peer.get_characteristics_by_uuid(UUID(VALUE))[0]
        await characteristic.read_value()
        await connection.disconnect()
    return (time.perf_counter() - start) / count


async def reads(count: int) -> float:
    """Reads per second on one connection."""
    central, peripheral, _ = await pair_of_devices()
    _, _, proxy = await value_proxy(central, peripheral)
    start = time.perf_counter()
    for _ in range(count):
        await proxy.read_value()
    return count / (time.perf_counter() - start)


async def notifications(count: int) -> float:
    """Notifications per second from the peripheral to the central's subscriber."""
    central, peripheral, characteristic = await pair_of_devices()
    _, _, proxy = await value_proxy(central, peripheral)
    received = 0
    done = asyncio.get_running_loop().create_future()

    def on_value(_value):
        nonlocal received
        received += 1
        if received == count and not done.done():
            done.set_result(None)

    await proxy.subscribe(on_value)
    value = bytes([0x5A] * 20)
    start = time.perf_counter()
    for _ in range(count):
        await peripheral.notify_subscribers(characteristic, value, force=True)
    await asyncio.wait_for(done, timeout=60)
    return count / (time.perf_counter() - start)


async def scan(advertisers: int) -> tuple[float, int]:
    """Seconds to set up `advertisers` peripherals and scan them for one second; advertisements heard."""
    start = time.perf_counter()
    link = LocalLink()
    central = make_device(link, 0)
    await central.power_on()
    for index in range(advertisers):
        device = make_device(link, index + 1)
        await device.power_on()
        data = bytes(AdvertisingData([(AdvertisingData.COMPLETE_LOCAL_NAME, f'Node {index}'.encode())]))
        await device.start_advertising(
            advertising_data=data, advertising_interval_min=100, advertising_interval_max=100)
    heard = 0

    def on_advertisement(_advertisement):
        nonlocal heard
        heard += 1

    central.on('advertisement', on_advertisement)
    await central.start_scanning(filter_duplicates=False)
    await asyncio.sleep(1)
    await central.stop_scanning()
    return time.perf_counter() - start, heard


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--cycles', type=int, default=50)
    parser.add_argument('--reads', type=int, default=2000)
    parser.add_argument('--notifications', type=int, default=10000)
    parser.add_argument('--scan', type=int, nargs='*', default=[100, 1000])
    arguments = parser.parse_args()
    logging.disable(logging.WARNING)
    print(f'cycle\t{await cycles(arguments.cycles) * 1e6:.0f}\tus', flush=True)
    print(f'reads\t{await reads(arguments.reads):.0f}\t/s', flush=True)
    print(f'notifications\t{await notifications(arguments.notifications):.0f}\t/s', flush=True)
    for advertisers in arguments.scan:
        seconds, heard = await scan(advertisers)
        print(f'scan {advertisers}\t{seconds * 1e3:.0f}\tms\t{heard} heard', flush=True)


if __name__ == '__main__':
    asyncio.run(main())
