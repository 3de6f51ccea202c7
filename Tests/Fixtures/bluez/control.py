"""org.airlink.FakeBlueZ1 at /org/airlink/FakeBlueZ: how tests steer the fake BlueZ.

Not part of the object manager's tree, so clients of org.bluez never see it.
"""

import json

import dbus
import dbus.service
from dbusmock import mockobject

import peripherals

INTERFACE = 'org.airlink.FakeBlueZ1'
PATH = '/org/airlink/FakeBlueZ'


def control_error(text):
    return dbus.exceptions.DBusException(text, name='org.airlink.FakeBlueZ.Error')


class Control(dbus.service.Object):
    def __init__(self, bus, fake):
        super().__init__(bus, PATH)
        self.bus = bus
        # python-dbusmock replaces dbus-python's method lookup with one that reads `methods` first.
        self.methods = {}
        self.fake = fake

    def _path(self, path):
        if path not in mockobject.objects:
            raise control_error(f'no object {path}')
        return path

    @dbus.service.method(INTERFACE, in_signature='ssssu', out_signature='')
    def FailNext(self, path, method, name, text, count):
        """The next `count` calls of `method` on `path` ('' for any) answer the error `name: text`."""
        self.fake.faults.append({'path': str(path), 'method': str(method), 'kind': 'fail',
                                 'name': str(name), 'text': str(text), 'count': int(count)})

    @dbus.service.method(INTERFACE, in_signature='ssu', out_signature='')
    def HangNext(self, path, method, count):
        """The next `count` calls of `method` on `path` never answer."""
        self.fake.faults.append({'path': str(path), 'method': str(method), 'kind': 'hang', 'count': int(count)})

    @dbus.service.method(INTERFACE, in_signature='ssu', out_signature='')
    def WrongSignatureNext(self, path, method, count):
        """The next `count` calls of `method` on `path` answer with a string instead of their type."""
        self.fake.faults.append({'path': str(path), 'method': str(method), 'kind': 'wrong', 'count': int(count)})

    @dbus.service.method(INTERFACE, in_signature='ssu', out_signature='')
    def EmptyReplyNext(self, path, method, count):
        """The next `count` calls of `method` on `path` answer with no value at all (an empty reply)."""
        self.fake.faults.append({'path': str(path), 'method': str(method), 'kind': 'empty', 'count': int(count)})

    @dbus.service.method(INTERFACE, in_signature='ssu', out_signature='')
    def SetConnectMode(self, device, mode, delay_ms):
        """normal | resolve-early | reply-first | never-resolve, and the delay before the link is up."""
        if mode not in ('normal', 'resolve-early', 'reply-first', 'never-resolve'):
            raise control_error(f'unknown connect mode {mode}')
        state = self.fake.state.get(str(device))
        if state is None:
            raise control_error(f'no device {device}')
        state['mode'] = str(mode)
        state['delay'] = int(delay_ms)

    @dbus.service.method(INTERFACE, in_signature='ssu', out_signature='')
    def SetPairing(self, device, method, passkey):
        """How the device pairs: just-works; passkey (Pair asks the registered agent's RequestPasskey and
        compares with `passkey`); confirm (RequestConfirmation of `passkey`); display (DisplayPasskey of
        `passkey`: the device's user types it)."""
        if method not in ('just-works', 'passkey', 'confirm', 'display'):
            raise control_error(f'unknown pairing method {method}')
        state = self.fake.state.get(str(device))
        if state is None:
            raise control_error(f'no device {device}')
        state['pairing'] = (str(method), int(passkey))

    @dbus.service.method(INTERFACE, in_signature='sb', out_signature='')
    def SetBond(self, device, bonded):
        """The bond changes outside the client's Pair (another tool paired, or bluetoothd dropped the keys):
        Paired and Bonded turn to `bonded` in one PropertiesChanged."""
        if str(device) not in self.fake.state:
            raise control_error(f'no device {device}')
        self.fake.set_properties(str(device), 'org.bluez.Device1',
                                 {'Paired': dbus.Boolean(bool(bonded)), 'Bonded': dbus.Boolean(bool(bonded))})

    @dbus.service.method(INTERFACE, in_signature='say', out_signature='')
    def NotifyOnSubscribe(self, characteristic, value):
        """The next StartNotify on the characteristic emits this value before it answers."""
        self.fake.notify_on_subscribe[str(characteristic)] = [int(b) for b in value]

    @dbus.service.method(INTERFACE, in_signature='say', out_signature='b')
    def Notify(self, characteristic, value):
        """The peripheral notifies a value; false when nobody subscribed (nothing is sent)."""
        return self.fake.notify(str(characteristic), [int(b) for b in value])

    @dbus.service.method(INTERFACE, in_signature='ss', out_signature='b')
    def DropLink(self, device, reason):
        """The link drops (out of range, peripheral reset); `reason` is an org.bluez.Reason.* name
        announced with Device1.Disconnected first, or '' for none."""
        if str(device) not in self.fake.state:
            raise control_error(f'no device {device}')
        return self.fake.drop_link(str(device), str(reason))

    @dbus.service.method(INTERFACE, in_signature='sb', out_signature='b')
    def RemoveDevice(self, device, abrupt):
        """BlueZ forgets the device; `abrupt` skips the disconnection signals (as when bluetoothd
        drops its objects)."""
        return self.fake.remove_device(str(device), bool(abrupt))

    @dbus.service.method(INTERFACE, in_signature='sb', out_signature='')
    def SetPowered(self, adapter, powered):
        """Powers the adapter on or off; powering off drops every link first."""
        self.fake.set_powered(self._path(str(adapter)), bool(powered))

    @dbus.service.method(INTERFACE, in_signature='s', out_signature='')
    def RemoveAdapter(self, adapter):
        """The adapter is removed (unplugged): its objects go, without disconnection signals; Reset
        brings it back."""
        self.fake.remove_adapter(self._path(str(adapter)))

    @dbus.service.method(INTERFACE, in_signature='su', out_signature='')
    def PowerOffFirst(self, adapter, link_delay_ms):
        """Powers the adapter off in bluetoothd's order: Powered turns false at once, the links drop
        `link_delay_ms` later; connection attempts under way never answer."""
        self.fake.power_off_first(self._path(str(adapter)), int(link_delay_ms))

    @dbus.service.method(INTERFACE, in_signature='ss', out_signature='')
    def ChangeServices(self, device, services_json):
        """Service Changed: the device's GATT database becomes these services (JSON, README format)."""
        try:
            self.fake.change_services(str(device), json.loads(str(services_json)))
        except (ValueError, peripherals.SpecError) as error:
            raise control_error(str(error))

    @dbus.service.method(INTERFACE, in_signature='ss', out_signature='')
    def StaleCache(self, device, services_json):
        """The device's database becomes these services (JSON, README format) without BlueZ noticing: BlueZ
        keeps serving its old objects, on later connections too, until RemoveDevice; reads of the Database
        Hash characteristic (0x2B2A) reach the device and answer the new database's value."""
        if str(device) not in self.fake.specs:
            raise control_error(f'no device {device}')
        try:
            self.fake.stale_cache(str(device), json.loads(str(services_json)))
        except (ValueError, peripherals.SpecError) as error:
            raise control_error(str(error))

    @dbus.service.method(INTERFACE, in_signature='ssub', out_signature='')
    def ChangeServicesSlowly(self, device, services_json, interval_ms, resolve_again):
        """Service Changed as BlueZ may report it: the old objects go, the new ones come back one at a
        time, `interval_ms` apart; with `resolve_again`, ServicesResolved turns false first and true
        again once the last object is there."""
        try:
            self.fake.change_services_slowly(
                str(device), json.loads(str(services_json)), int(interval_ms), bool(resolve_again))
        except (ValueError, peripherals.SpecError) as error:
            raise control_error(str(error))

    @dbus.service.method(INTERFACE, in_signature='ssu', out_signature='')
    def ChangeServicesAfterDiscovery(self, device, services_json, discovery_ms):
        """Service Changed as the real bluetoothd reports it: the old objects go at once, the new ones all come
        `discovery_ms` later (its discovery of the changed range over the air)."""
        try:
            self.fake.change_services_after_discovery(
                str(device), json.loads(str(services_json)), int(discovery_ms))
        except (ValueError, peripherals.SpecError) as error:
            raise control_error(str(error))

    @dbus.service.method(INTERFACE, in_signature='s', out_signature='o')
    def AddPeripheral(self, peripheral_json):
        """Adds a peripheral (JSON, README format); BlueZ knows it at once when it is "known"."""
        try:
            names = [a['name'] for a in self.fake.initial_adapters]
            spec = peripherals.load_peripheral(json.loads(str(peripheral_json)), 'peripheral', names)
        except (ValueError, peripherals.SpecError) as error:
            raise control_error(str(error))
        return self.fake.add_device(spec, announce=spec['known'])

    @dbus.service.method(INTERFACE, in_signature='ss', out_signature='o')
    def CentralConnects(self, adapter, address):
        """A remote central connects to the adapter (the app's advertisement); returns its device path."""
        return self.fake.central_connects(self._path(str(adapter)), str(address))

    @dbus.service.method(INTERFACE, in_signature='osu', out_signature='')
    def CentralPairs(self, device, method, passkey):
        """A connected central pairs with the adapter, bluetoothd asking the default agent as `method` says
        (confirm, passkey, display, authorize, cancel, just-works; see bluez_model.central_pairs)."""
        if method not in ('confirm', 'passkey', 'display', 'authorize', 'cancel', 'just-works'):
            raise control_error(f'unknown pairing method {method}')
        self.fake.central_pairs(self._path(str(device)), str(method), int(passkey))

    @dbus.service.method(INTERFACE, in_signature='os', out_signature='b')
    def CentralLeaves(self, device, reason):
        """A central's link ends; `reason` is an org.bluez.Reason.* name, or '' for none."""
        return self.fake.central_leaves(self._path(str(device)), str(reason))

    @dbus.service.method(INTERFACE, in_signature='', out_signature='')
    def ReleaseName(self):
        """bluetoothd leaves the bus: org.bluez loses its owner."""
        self.fake.release_name()

    @dbus.service.method(INTERFACE, in_signature='ts', out_signature='')
    def SetChaos(self, seed, profile_json):
        """Turns the chaos mode on from now, drawing from `seed`; `profile_json` overrides the
        profile's defaults ('' or '{}' for none; chaos.py). Reset turns it off."""
        try:
            profile = json.loads(str(profile_json) or '{}')
            if not isinstance(profile, dict):
                raise ValueError('the chaos profile is a JSON object such as {"events": 2}')
            self.fake.start_chaos(int(seed), profile)
        except ValueError as error:
            raise control_error(str(error))

    @dbus.service.method(INTERFACE, in_signature='', out_signature='s')
    def ChaosLog(self):
        """What the chaos mode did so far, as JSON: [{"t": ms, "kind": ..., ...}] ('[]' when off)."""
        return json.dumps(self.fake.chaos.log if self.fake.chaos is not None else [])

    @dbus.service.method(INTERFACE, in_signature='', out_signature='s')
    def CallLog(self):
        """Calls of interest so far (SetDiscoveryFilter, StartDiscovery, Connect, WriteValue ...), as JSON."""
        return json.dumps(self.fake.calls)

    @dbus.service.method(INTERFACE, in_signature='', out_signature='')
    def Reset(self):
        """Back to the state loaded from the descriptions: devices, adapters, no faults, no log; owns
        org.bluez again if ReleaseName gave it up."""
        self.fake.reset()
        self.fake.own_name()


