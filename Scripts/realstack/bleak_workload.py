"""The comparison workload on bleak (BlueZ's D-Bus API from Python), run inside the real-stack VM by
Scripts/realstack/compare-bleak:

  bleak_workload.py cycle ADDRESS        one connect + service discovery + read of the battery level, disconnect
  bleak_workload.py notify ADDRESS N     subscribe to the battery level and count N notifications (the controller's
                                         --notify-burst sends them); prints the rate from the first to the last

Each prints one line of JSON with its times in seconds (time.monotonic)."""
import asyncio
import json
import sys
import time

from bleak import BleakClient, BleakScanner

BATTERY_LEVEL = "00002a19-0000-1000-8000-00805f9b34fb"


async def find(address):
    device = await BleakScanner.find_device_by_address(address, timeout=20.0)
    if device is None:
        raise SystemExit(f"bleak: {address} was not found in 20 s")
    return device


async def cycle(address):
    device = await find(address)
    start = time.monotonic()
    async with BleakClient(device, timeout=30.0) as client:
        connected = time.monotonic()
        value = await client.read_gatt_char(BATTERY_LEVEL)
        read = time.monotonic()
    print(json.dumps({"connectAndDiscover": connected - start, "read": read - connected,
                      "cycle": time.monotonic() - start, "value": list(value)}))


async def notify(address, count):
    device = await find(address)
    stamps = []
    done = asyncio.Event()

    def received(_, data):
        stamps.append(time.monotonic())
        if len(stamps) >= count:
            done.set()

    async with BleakClient(device, timeout=30.0) as client:
        await client.start_notify(BATTERY_LEVEL, received)
        try:
            await asyncio.wait_for(done.wait(), timeout=90.0)
        except asyncio.TimeoutError:
            pass
    span = stamps[-1] - stamps[0] if len(stamps) > 1 else 0.0
    print(json.dumps({"received": len(stamps), "span": span,
                      "perSecond": (len(stamps) - 1) / span if span > 0 else 0.0}))


if __name__ == "__main__":
    if sys.argv[1] == "cycle":
        asyncio.run(cycle(sys.argv[2]))
    else:
        asyncio.run(notify(sys.argv[2], int(sys.argv[3])))
