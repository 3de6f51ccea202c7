#!/usr/bin/python3
"""A fake BlueZ for Airlink's tests: a private dbus-daemon, python-dbusmock's bluez5 template on it,
the template's faults patched, and peripherals with GATT databases loaded from JSON (README.md).

    /usr/bin/python3 fake_bluez.py --dir TMPDIR --description thermostat.json [--description ...]
        [--chaos SEED [--chaos-profile JSON]]

Prints `READY <bus address>` once org.bluez is owned and every object exists. Exits on SIGTERM or
when its standard input closes (the test process went away), stopping the dbus-daemon it started.
Tests steer it through org.airlink.FakeBlueZ1 at /org/airlink/FakeBlueZ (see control.py).
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import dbus  # noqa: E402
import dbus.mainloop.glib  # noqa: E402
import dbus.service  # noqa: E402
from dbusmock import mockobject  # noqa: E402
from gi.repository import GLib  # noqa: E402

import bluez_model  # noqa: E402
import chaos  # noqa: E402
import control  # noqa: E402
import peripherals  # noqa: E402

BUS_CONFIG = '''<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_type="method_return"/>
    <allow send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="signal"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
  </policy>
</busconfig>
'''


def start_daemon(directory):
    config = os.path.join(directory, 'bus.conf')
    with open(config, 'w', encoding='utf-8') as handle:
        handle.write(BUS_CONFIG.format(socket=os.path.join(directory, 'bus')))
    daemon = subprocess.Popen(
        ['dbus-daemon', '--config-file', config, '--nofork', '--nopidfile', '--print-address=1'],
        stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
        stderr=open(os.path.join(directory, 'dbus-daemon.log'), 'wb'))
    address = daemon.stdout.readline().decode().strip()
    if not address:
        daemon.kill()
        sys.exit('fake_bluez: dbus-daemon did not start')
    return daemon, address


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--dir', required=True, help='a directory for the bus socket and config (the caller removes it)')
    parser.add_argument('--description', action='append', default=[], help='a peripheral JSON file (repeatable)')
    parser.add_argument('--chaos', type=int, metavar='SEED',
                        help='start in the chaos mode, drawing every fault from SEED (README.md, "Chaos mode")')
    parser.add_argument('--chaos-profile', default='{}', metavar='JSON',
                        help='overrides of the chaos profile\'s defaults, such as {"events": 0, "error": 0.2}')
    args = parser.parse_args()
    try:
        chaos_profile = json.loads(args.chaos_profile)
        if not isinstance(chaos_profile, dict):
            raise ValueError('it is not a JSON object')
        chaos.Chaos(None, 0, chaos_profile)
    except ValueError as error:
        sys.exit(f'fake_bluez: --chaos-profile: {error} (write a JSON object such as \'{{"events": 0}}\')')

    adapters = []
    devices = []
    try:
        for path in args.description:
            with open(path, encoding='utf-8') as handle:
                loaded = peripherals.load(json.load(handle))
            for adapter in loaded['adapters']:
                if adapter['name'] not in [a['name'] for a in adapters]:
                    adapters.append(adapter)
            devices.extend(loaded['peripherals'])
    except (OSError, ValueError, peripherals.SpecError) as error:
        sys.exit(f'fake_bluez: {error}')
    if not adapters:
        adapters = [{'name': 'hci0', 'powered': True}]

    daemon, address = start_daemon(args.dir)
    loop = GLib.MainLoop()

    def stop(*_):
        loop.quit()
        return False

    try:
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(address)
        manager = mockobject.DBusMockObject(
            bus, '/', mockobject.OBJECT_MANAGER_IFACE, {}, os.devnull, True)
        mockobject.objects['/'] = manager
        manager.AddTemplate('bluez5', {})
        fake = bluez_model.FakeBlueZ(bus, manager, adapters, devices)
        fake.populate()
        control.Control(bus, fake)
        fake.own_name()
        if args.chaos is not None:
            fake.start_chaos(args.chaos, chaos_profile)

        GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGTERM, stop)
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGINT, stop)
        GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP | GLib.IO_ERR, lambda *_: stop())
        print(f'READY {address}', flush=True)
        loop.run()
    finally:
        daemon.terminate()
        try:
            daemon.wait(timeout=2)
        except subprocess.TimeoutExpired:
            daemon.kill()
        # The caller removes the directory too; this covers a caller that died first.
        shutil.rmtree(args.dir, ignore_errors=True)


if __name__ == '__main__':
    main()
