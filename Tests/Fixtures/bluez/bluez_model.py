"""The fake BlueZ's object model: adapters from python-dbusmock's bluez5 template, devices and GATT
objects added through dbusmock's generic API (AddObject, method tables, property dictionaries), and
the template's faults patched:

- Device1.Connect sets Connected, exports the GATT objects, then sets ServicesResolved (the template
  only emits Connected and never ServicesResolved);
- Adapter1.StartDiscovery works without SetDiscoveryFilter (the template raises KeyError) and
  announces devices, re-announcing those BlueZ already knows;
- ManufacturerData is a{qv} and ServiceData a{sv}, each variant holding ay (the template's AddDevice
  gives arrays of the wrong type); Adapter1.Roles exists.

Methods are installed as dbus-python methods with asynchronous replies, so that a reply can follow
signals, come later, or never come (a hung call), as BlueZ's do.
"""

import copy

import dbus
import dbus.service
from dbusmock import mockobject
from gi.repository import GLib

import chaos
import peripherals
from peripheral_managers import install_managers

ADAPTER = 'org.bluez.Adapter1'
DEVICE = 'org.bluez.Device1'
AGENT_MANAGER = 'org.bluez.AgentManager1'
SERVICE = 'org.bluez.GattService1'
CHARACTERISTIC = 'org.bluez.GattCharacteristic1'
DESCRIPTOR = 'org.bluez.GattDescriptor1'
OBJECT_MANAGER = 'org.freedesktop.DBus.ObjectManager'
PROPERTIES = 'org.freedesktop.DBus.Properties'


def bluez_error(name, text):
    return dbus.exceptions.DBusException(text, name='org.bluez.Error.' + name)


def byte_array(values):
    return dbus.Array([dbus.Byte(v) for v in values], signature='y')


def install(obj, interface, name, in_signature, function):
    """Puts `function(obj, *args, ok, err)` on `obj` as `interface.name`, replying asynchronously.
    The reply's signature is guessed from the value passed to ok(), so a scripted fault can reply
    with a wrong type."""
    count = len(list(dbus.Signature(in_signature)))
    fake = function.__self__

    def gated(path, ok, err):
        """The chaos mode's say on the call (README.md): the replies to use, or None when it answered."""
        if fake.chaos is None:
            return ok, err
        replies = fake.chaos.gate(path, name, ok, err)
        if replies is None:  # answered by the chaos (an error, or never)
            fake.record(path, name, {'chaos': fake.chaos.log[-1]['kind']})
        return replies

    def dispatch(replies, call):
        """Runs `call(ok, err)` with the replies chaos chose: now, or late for a deferred call."""
        if isinstance(replies, chaos.Deferred):
            replies.run(call)
        elif replies:
            call(*replies)

    if count == 0:
        def method(self, ok, err):
            dispatch(gated(self.path, ok, err), lambda ok, err: function(self, ok=ok, err=err))
    elif count == 1:
        def method(self, a, ok, err):
            dispatch(gated(self.path, ok, err), lambda ok, err: function(self, a, ok=ok, err=err))
    else:
        def method(self, a, b, ok, err):
            dispatch(gated(self.path, ok, err), lambda ok, err: function(self, a, b, ok=ok, err=err))
    method.__name__ = name
    wrapped = dbus.service.method(interface, in_signature=in_signature, async_callbacks=('ok', 'err'))(method)
    wrapped._dbus_out_signature = None
    obj.methods.setdefault(interface, {})[name] = (in_signature, '', '', wrapped)


class FakeBlueZ:
    def __init__(self, bus, manager, adapters, devices):
        self.bus = bus
        self.manager = manager
        self.initial_adapters = adapters
        self.initial_devices = devices
        self.specs = {}         # device path -> peripheral spec
        self.state = {}         # device path -> dict(connected, resolved, connecting, exported, ...)
        self.filters = {}       # adapter path -> discovery filter dict
        self.faults = []        # dicts: path, method, kind (fail|hang|wrong|empty), name, text, count
        self.agents = []        # (sender, path, capability) of registered agents, the last first
        self.hung = []          # (ok, err) of calls that never answer
        self.calls = []         # call log: dicts path, method, args
        self.call_counts = {}   # method -> how many calls the log holds (counting the log was O(n) a call)
        self.notify_on_subscribe = {}
        self.chaos = None       # chaos.Chaos while the chaos mode is on
        self.stale = {}         # device path -> the services BlueZ's cache keeps serving (StaleCache)

    # ----- signals and properties

    def send_signal(self, path, interface, member, signature, *args):
        copies = 1 if self.chaos is None else self.chaos.copies(path, interface, member, args)
        for _ in range(copies):
            message = dbus.lowlevel.SignalMessage(path, interface, member)
            message.append(*args, signature=signature)
            self.bus.send_message(message)

    def set_properties(self, path, interface, changes):
        obj = mockobject.objects[path]
        for key, value in changes.items():
            obj.props.setdefault(interface, {})[key] = value
        self.send_signal(path, PROPERTIES, 'PropertiesChanged', 'sa{sv}as',
                         interface, dbus.Dictionary(changes, signature='sv'), dbus.Array([], signature='s'))

    def interfaces_of(self, path):
        obj = mockobject.objects[path]
        return dbus.Dictionary(
            {interface: dbus.Dictionary(props, signature='sv') for interface, props in obj.props.items()
             if interface.startswith('org.bluez.') and props},
            signature='sa{sv}')

    def add_object(self, path, interface, props):
        self.manager.AddObject(path, interface, props, [])
        self.send_signal('/', OBJECT_MANAGER, 'InterfacesAdded', 'oa{sa{sv}}',
                         dbus.ObjectPath(path), self.interfaces_of(path))

    def remove_object(self, path):
        interfaces = [i for i in mockobject.objects[path].props if i.startswith('org.bluez.')]
        self.manager.RemoveObject(path)
        self.send_signal('/', OBJECT_MANAGER, 'InterfacesRemoved', 'oas',
                         dbus.ObjectPath(path), dbus.Array(interfaces, signature='s'))

    # ----- scripted faults

    def record(self, path, method, args):
        self.calls.append({'path': path, 'method': method, 'args': args})
        # Tests wait on this instead of polling the log: the method, and how many such calls are logged.
        logged = self.call_counts.get(method, 0) + 1
        self.call_counts[method] = logged
        self.send_signal('/org/airlink/FakeBlueZ', 'org.airlink.FakeBlueZ1', 'CallLogged', 'su',
                         method, dbus.UInt32(logged))

    def fault(self, path, method):
        for fault in self.faults:
            if fault['method'] == method and fault['path'] in ('', path) and fault['count'] > 0:
                fault['count'] -= 1
                return fault
        return None

    def scripted(self, path, method, ok, err, wrong_value=None):
        """Applies a scripted fault; returns True when it answered (or deliberately did not)."""
        fault = self.fault(path, method)
        if fault is None:
            return False
        if fault['kind'] == 'fail':
            err(dbus.exceptions.DBusException(fault['text'], name=fault['name']))
        elif fault['kind'] == 'hang':
            self.hung.append((ok, err))
        elif fault['kind'] == 'wrong':
            ok(dbus.String('not what BlueZ sends') if wrong_value is None else wrong_value)
        elif fault['kind'] == 'empty':
            ok()
        return True

    # ----- population

    def populate(self):
        install(self.manager, OBJECT_MANAGER, 'GetManagedObjects', '', self.get_managed_objects)
        self.install_agent_manager()
        for adapter in self.initial_adapters:
            self.add_adapter(adapter)
        for spec in self.initial_devices:
            self.add_device(spec, announce=spec['known'])

    def get_managed_objects(self, _obj, ok, err):
        if self.scripted('/', 'GetManagedObjects', ok, err):
            return
        result = {}
        for path in sorted(mockobject.objects):
            if path != '/':
                interfaces = self.interfaces_of(path)
                if interfaces:
                    result[dbus.ObjectPath(path)] = interfaces
        ok(dbus.Dictionary(result, signature='oa{sa{sv}}'))

    def add_adapter(self, adapter):
        path = self.manager.AddAdapter(adapter['name'], 'Airlink fake BlueZ')
        obj = mockobject.objects[path]
        props = obj.props[ADAPTER]
        props['Powered'] = dbus.Boolean(adapter['powered'])
        props.setdefault('Roles', dbus.Array(['central', 'peripheral'], signature='s'))
        props['Discovering'] = dbus.Boolean(False)
        self.filters[path] = {}
        install(obj, ADAPTER, 'StartDiscovery', '', self.start_discovery)
        install(obj, ADAPTER, 'StopDiscovery', '', self.stop_discovery)
        install(obj, ADAPTER, 'SetDiscoveryFilter', 'a{sv}', self.set_discovery_filter)
        install(obj, ADAPTER, 'RemoveDevice', 'o', self.remove_device_method)
        install_managers(self, obj)

    def device_path(self, spec):
        return f"/org/bluez/{spec['adapter']}/dev_{spec['address'].replace(':', '_')}"

    def device_properties(self, spec):
        props = {
            'Address': dbus.String(spec['address']),
            'AddressType': dbus.String(spec['addressType']),
            'Alias': dbus.String(spec['name'] or spec['address'].replace(':', '-')),
            'Adapter': dbus.ObjectPath(f"/org/bluez/{spec['adapter']}"),
            'Paired': dbus.Boolean(spec['paired']),
            'Bonded': dbus.Boolean(spec['paired']),
            'Trusted': dbus.Boolean(False),
            'Blocked': dbus.Boolean(False),
            'LegacyPairing': dbus.Boolean(False),
            'Connected': dbus.Boolean(False),
            'ServicesResolved': dbus.Boolean(False),
            'UUIDs': dbus.Array(spec['advertisedServices'], signature='s'),
            'ManufacturerData': dbus.Dictionary(
                {dbus.UInt16(k): byte_array(v) for k, v in spec['manufacturerData'].items()}, signature='qv'),
            'ServiceData': dbus.Dictionary(
                {k: byte_array(v) for k, v in spec['serviceData'].items()}, signature='sv'),
        }
        if spec['rssi'] is not None:
            props['RSSI'] = dbus.Int16(spec['rssi'])
        if spec['name'] is not None:
            props['Name'] = dbus.String(spec['name'])
        if spec['txPower'] is not None:
            props['TxPower'] = dbus.Int16(spec['txPower'])
        return props

    def add_device(self, spec, announce):
        path = self.device_path(spec)
        self.specs[path] = spec
        self.state[path] = {'connected': False, 'resolved': False, 'connecting': None, 'exported': [],
                            'mode': spec['connect'], 'delay': 5, 'pairing': ('just-works', 0)}
        if announce:
            self.announce(path)
        return path

    def announce(self, path):
        """Makes the device known to BlueZ (InterfacesAdded), or re-announces it (PropertiesChanged)."""
        spec = self.specs[path]
        if path in mockobject.objects:
            if spec['rssi'] is not None:
                self.set_properties(path, DEVICE, {'RSSI': dbus.Int16(spec['rssi'])})
            return
        self.add_object(path, DEVICE, self.device_properties(spec))
        obj = mockobject.objects[path]
        install(obj, DEVICE, 'Connect', '', self.connect)
        install(obj, DEVICE, 'Disconnect', '', self.disconnect)
        install(obj, DEVICE, 'Pair', '', self.pair)
        obj.AddMethods(DEVICE, [('CancelPairing', '', '', ''), ('ConnectProfile', 's', '', ''),
                                ('DisconnectProfile', 's', '', '')])

    # ----- adapter methods

    def adapter_powered(self, adapter_path):
        return bool(mockobject.objects[adapter_path].props[ADAPTER]['Powered'])

    def set_discovery_filter(self, obj, options, ok, err):
        self.record(obj.path, 'SetDiscoveryFilter', {str(k): to_json(v) for k, v in options.items()})
        if self.scripted(obj.path, 'SetDiscoveryFilter', ok, err):
            return
        known = {'UUIDs', 'RSSI', 'Pathloss', 'Transport', 'DuplicateData', 'Discoverable', 'Pattern'}
        for key in options:
            if key not in known:
                err(bluez_error('InvalidArguments', 'Invalid arguments in method call'))
                return
        self.filters[obj.path] = {str(k): to_json(v) for k, v in options.items()}
        ok()
        if obj.props[ADAPTER]['Discovering']:
            # Peripherals keep advertising: a changed filter reports those it now admits.
            GLib.idle_add(self.announce_all, obj.path)

    def start_discovery(self, obj, ok, err):
        self.record(obj.path, 'StartDiscovery', {})
        if self.scripted(obj.path, 'StartDiscovery', ok, err):
            return
        if not self.adapter_powered(obj.path):
            err(bluez_error('NotReady', 'Resource Not Ready'))
            return
        if obj.props[ADAPTER]['Discovering']:
            err(bluez_error('InProgress', 'Operation already in progress'))
            return
        self.set_properties(obj.path, ADAPTER, {'Discovering': dbus.Boolean(True)})
        ok()
        GLib.idle_add(self.announce_all, obj.path)

    def announce_all(self, adapter_path):
        adapter = mockobject.objects.get(adapter_path)
        if adapter is None or not adapter.props[ADAPTER]['Discovering']:
            return False
        wanted = self.filters.get(adapter_path, {})
        uuids = [u.lower() for u in wanted.get('UUIDs', [])]
        for path in sorted(self.specs):
            spec = self.specs[path]
            if not path.startswith(adapter_path + '/'):
                continue
            if wanted.get('Transport') == 'bredr':
                continue
            if 'RSSI' in wanted and (spec['rssi'] is None or spec['rssi'] < wanted['RSSI']):
                continue
            advertised = spec['advertisedServices'] + list(spec['serviceData'])
            if uuids and not any(u in advertised for u in uuids):
                continue
            self.announce(path)
        return False

    def stop_discovery(self, obj, ok, err):
        self.record(obj.path, 'StopDiscovery', {})
        if self.scripted(obj.path, 'StopDiscovery', ok, err):
            return
        if not obj.props[ADAPTER]['Discovering']:
            err(bluez_error('Failed', 'No discovery started'))
            return
        self.set_properties(obj.path, ADAPTER, {'Discovering': dbus.Boolean(False)})
        ok()

    def remove_device_method(self, obj, device, ok, err):
        self.record(obj.path, 'RemoveDevice', {'device': str(device)})
        if self.scripted(obj.path, 'RemoveDevice', ok, err):
            return
        if str(device) not in mockobject.objects or str(device) not in self.state:
            err(bluez_error('DoesNotExist', 'Does Not Exist'))
            return
        self.remove_device(str(device), abrupt=False)
        ok()

    def remove_device(self, path, abrupt):
        state = self.state.get(path)
        if state is None or path not in mockobject.objects:
            return False
        if state['connected'] and not abrupt:
            self.drop_link(path, '')
        for child in sorted((p for p in mockobject.objects if p.startswith(path + '/')), reverse=True):
            self.remove_object(child)
        state['exported'] = []
        state['connected'] = state['resolved'] = False
        self.stale.pop(path, None)  # BlueZ's cache of the device goes with it
        self.remove_object(path)
        return True

    def remove_adapter(self, adapter_path):
        """The adapter goes away (unplugged): its devices' objects, then its own, without disconnection
        signals; calls it left unanswered stay so."""
        for path in sorted(p for p in self.state if p.startswith(adapter_path + '/')):
            self.remove_device(path, abrupt=True)
        for child in sorted((p for p in mockobject.objects if p.startswith(adapter_path + '/')), reverse=True):
            self.remove_object(child)
        self.remove_object(adapter_path)

    def set_powered(self, adapter_path, powered):
        if not powered:
            for path in sorted(self.state):
                if path.startswith(adapter_path + '/') and self.state[path]['connected']:
                    self.drop_link(path, 'org.bluez.Reason.Local')
            if mockobject.objects[adapter_path].props[ADAPTER]['Discovering']:
                self.set_properties(adapter_path, ADAPTER, {'Discovering': dbus.Boolean(False)})
        self.set_properties(adapter_path, ADAPTER, {'Powered': dbus.Boolean(powered)})

    def power_off_first(self, adapter_path, link_delay_ms):
        """bluetoothd's order: Powered turns false, then the links drop (after `link_delay_ms`)."""
        self.set_properties(adapter_path, ADAPTER, {'Powered': dbus.Boolean(False)})
        for path, state in sorted(self.state.items()):
            pending = state['connecting']
            if path.startswith(adapter_path + '/') and pending is not None:
                state['connecting'] = None
                GLib.source_remove(pending['timer'])

        def drop():
            for path in sorted(self.state):
                if path.startswith(adapter_path + '/') and self.state[path]['connected']:
                    self.drop_link(path, 'org.bluez.Reason.Local')
            return False

        GLib.timeout_add(link_delay_ms, drop)

    # ----- device methods

    def connect(self, obj, ok, err):
        path = obj.path
        self.record(path, 'Connect', {})
        if self.scripted(path, 'Connect', ok, err):
            return
        state = self.state[path]
        if not self.adapter_powered(self.adapter_of(path)):
            err(bluez_error('NotReady', 'Resource Not Ready'))
            return
        if state['connected'] and state['resolved']:
            ok()
            return
        if state['connecting'] is not None:
            err(bluez_error('InProgress', 'In Progress'))
            return
        pending = {'ok': ok, 'err': err}
        if self.chaos is not None:
            self.chaos.connect_order(path, state)

        def establish():
            if state['connecting'] is not pending:
                return False
            state['connecting'] = None
            mode = state['mode']
            if mode == 'reply-first':
                ok()
            state['connected'] = True
            self.set_properties(path, DEVICE, {'Connected': dbus.Boolean(True)})
            if mode == 'resolve-early':
                self.resolve(path)
                ok()
                GLib.timeout_add(150, self.export_if_connected, path)
            elif mode == 'never-resolve':
                ok()
            elif mode == 'resolve-late':
                # The GATT objects at once, ServicesResolved (and the reply) later; a drop meanwhile fails it.
                self.export_gatt(path)

                def resolve_late():
                    if not state['connected']:
                        err(bluez_error('Failed', 'Software caused connection abort'))
                    else:
                        self.resolve(path)
                        ok()
                    return False
                GLib.timeout_add(state.get('resolveDelay', 150), resolve_late)
            else:
                self.export_gatt(path)
                self.resolve(path)
                if mode == 'normal':
                    ok()
            return False

        state['connecting'] = pending
        pending['timer'] = GLib.timeout_add(state['delay'], establish)

    def resolve(self, path):
        self.state[path]['resolved'] = True
        self.set_properties(path, DEVICE, {'ServicesResolved': dbus.Boolean(True)})

    def export_if_connected(self, path):
        if self.state.get(path, {}).get('connected'):
            self.export_gatt(path)
        return False

    def disconnect(self, obj, ok, err):
        path = obj.path
        self.record(path, 'Disconnect', {})
        if self.scripted(path, 'Disconnect', ok, err):
            return
        state = self.state[path]
        pending = state['connecting']
        if pending is not None:
            state['connecting'] = None
            GLib.source_remove(pending['timer'])
            pending['err'](bluez_error('Failed', 'le-connection-abort-by-local'))
        if state['connected']:
            self.drop_link(path, '')
        ok()

    def pair(self, obj, ok, err):
        """Device1.Pair: Just Works, bonding (FailNext plays BlueZ's errors, HangNext a Pair never answered)."""
        path = obj.path
        self.record(path, 'Pair', {})
        if self.scripted(path, 'Pair', ok, err):
            return
        if not self.adapter_powered(self.adapter_of(path)):
            err(bluez_error('NotReady', 'Resource Not Ready'))
            return
        if obj.props[DEVICE]['Paired']:
            # bluetoothd 5.66 (real stack): a device bonded over LE is paired again over BR/EDR, which an LE-only
            # device refuses (mgmt Not Supported): AuthenticationFailed. AlreadyExists needs both bearers bonded.
            err(bluez_error('AuthenticationFailed', 'Authentication Failed'))
            return
        if not self.state[path]['connected']:
            err(bluez_error('ConnectionAttemptFailed', 'Page Timeout'))
            return

        def paired():
            self.set_properties(path, DEVICE, {'Paired': dbus.Boolean(True), 'Bonded': dbus.Boolean(True)})
            ok()

        def refused(error):
            name = error.get_dbus_name() or ''
            if name.endswith('.Canceled'):
                err(bluez_error('AuthenticationCanceled', 'Authentication Canceled'))
            else:
                err(bluez_error('AuthenticationRejected', 'Authentication Rejected'))

        method, passkey = self.state[path]['pairing']
        if method == 'just-works':
            paired()
            return
        if not self.agents:
            err(bluez_error('AuthenticationFailed', 'Authentication Failed'))
            return
        sender, agent, _ = self.agents[0]
        if method == 'passkey':
            def entered(value):
                if int(value) == passkey:
                    paired()
                else:
                    err(bluez_error('AuthenticationFailed', 'Authentication Failed'))
            self.record(path, 'RequestPasskey', {})
            self.bus.call_async(sender, agent, 'org.bluez.Agent1', 'RequestPasskey', 'o', (dbus.ObjectPath(path),),
                                entered, refused, timeout=30)
        elif method == 'display':
            self.record(path, 'DisplayPasskey', {'passkey': passkey})
            self.bus.call_async(sender, agent, 'org.bluez.Agent1', 'DisplayPasskey', 'ouq',
                                (dbus.ObjectPath(path), dbus.UInt32(passkey), dbus.UInt16(0)), lambda: paired(),
                                refused, timeout=30)
        else:  # confirm
            self.record(path, 'RequestConfirmation', {'passkey': passkey})
            self.bus.call_async(sender, agent, 'org.bluez.Agent1', 'RequestConfirmation', 'ou',
                                (dbus.ObjectPath(path), dbus.UInt32(passkey)), lambda: paired(), refused, timeout=30)

    def install_agent_manager(self):
        """AgentManager1 that remembers who registered each agent, so that Pair can call it (the template's
        forgets the sender)."""
        fake = self

        def register(manager, agent, capability, sender=None):
            if capability not in ('DisplayOnly', 'DisplayYesNo', 'KeyboardOnly', 'NoInputNoOutput',
                                  'KeyboardDisplay'):
                raise bluez_error('InvalidArguments', 'Invalid Arguments')
            if any(a[0] == sender and a[1] == str(agent) for a in fake.agents):
                raise bluez_error('AlreadyExists', 'Already Exists')
            fake.agents.insert(0, (sender, str(agent), str(capability)))
            fake.record('/org/bluez', 'RegisterAgent', {'capability': str(capability)})

        def unregister(manager, agent, sender=None):
            before = len(fake.agents)
            fake.agents = [a for a in fake.agents if not (a[0] == sender and a[1] == str(agent))]
            if len(fake.agents) == before:
                raise bluez_error('DoesNotExist', 'Does Not Exist')
            fake.record('/org/bluez', 'UnregisterAgent', {})

        def request_default(manager, agent, sender=None):
            for index, entry in enumerate(fake.agents):
                if entry[0] == sender and entry[1] == str(agent):
                    fake.agents.insert(0, fake.agents.pop(index))
                    fake.record('/org/bluez', 'RequestDefaultAgent', {'capability': entry[2]})
                    return
            raise bluez_error('DoesNotExist', 'Does Not Exist')

        obj = mockobject.objects['/org/bluez']
        for name, signature, function in (('RegisterAgent', 'os', register), ('UnregisterAgent', 'o', unregister),
                                          ('RequestDefaultAgent', 'o', request_default)):
            function.__name__ = name
            wrapped = dbus.service.method(AGENT_MANAGER, in_signature=signature, sender_keyword='sender')(function)
            obj.methods.setdefault(AGENT_MANAGER, {})[name] = (signature, '', '', wrapped)

    def drop_link(self, path, reason):
        state = self.state[path]
        if not state['connected']:
            return False
        steps = {}
        if reason:
            steps['reason'] = lambda: self.send_signal(path, DEVICE, 'Disconnected', 'ss', reason, 'disconnected')
        notifying = [c for c in self.characteristics_of(path)
                     if mockobject.objects[c].props[CHARACTERISTIC]['Notifying']]
        if notifying:
            steps['notifying'] = lambda: [
                self.set_properties(c, CHARACTERISTIC, {'Notifying': dbus.Boolean(False)}) for c in notifying]
        if state['resolved']:
            steps['resolved'] = lambda: self.set_properties(path, DEVICE, {'ServicesResolved': dbus.Boolean(False)})
            steps['coalesced'] = lambda: self.set_properties(
                path, DEVICE, {'Connected': dbus.Boolean(False), 'ServicesResolved': dbus.Boolean(False)})
        steps['connected'] = lambda: self.set_properties(path, DEVICE, {'Connected': dbus.Boolean(False)})
        state['resolved'] = False
        state['connected'] = False
        order = ['reason', 'notifying', 'resolved', 'connected']
        for step in (self.chaos.disconnection(path, steps) if self.chaos is not None
                     else [steps[name] for name in order if name in steps]):
            step()
        if not self.specs[path]['paired']:
            self.unexport_gatt(path)
        return True

    def central_connects(self, adapter_path, address):
        """A remote central connects to the adapter's advertisement: bluetoothd creates its Device1
        object (InterfacesAdded) if it has none, then sets Connected."""
        path = f"{adapter_path}/dev_{address.replace(':', '_')}"
        if path not in mockobject.objects:
            self.add_object(path, DEVICE, {
                'Address': dbus.String(address), 'AddressType': dbus.String('public'),
                'Alias': dbus.String(address.replace(':', '-')), 'Adapter': dbus.ObjectPath(adapter_path),
                'Paired': dbus.Boolean(False), 'Bonded': dbus.Boolean(False), 'Trusted': dbus.Boolean(False),
                'Blocked': dbus.Boolean(False), 'LegacyPairing': dbus.Boolean(False),
                'Connected': dbus.Boolean(False), 'ServicesResolved': dbus.Boolean(False),
                'UUIDs': dbus.Array([], signature='s')})
        self.set_properties(path, DEVICE, {'Connected': dbus.Boolean(True)})
        return path

    def central_pairs(self, path, method, passkey):
        """A connected central pairs with the adapter: bluetoothd asks the default agent (the last registered or
        made default) as `method` says (confirm: RequestConfirmation of `passkey`; passkey: RequestPasskey, which
        must answer `passkey`; display: DisplayPasskey; authorize: RequestAuthorization; cancel: the request is
        cancelled with Agent1.Cancel; just-works: nothing), then sets Paired, and Bonded when the adapter is
        Pairable. The agent's answer is in the call log (PairingAnswered)."""
        adapter = mockobject.objects[self.adapter_of(path)].props[ADAPTER]
        device = dbus.ObjectPath(path)

        def paired(*_):
            self.record(path, 'PairingAnswered', {'ok': True})
            self.set_properties(path, DEVICE, {'Paired': dbus.Boolean(True),
                                               'Bonded': dbus.Boolean(bool(adapter.get('Pairable', True)))})

        def refused(error):
            self.record(path, 'PairingAnswered', {'ok': False, 'error': error.get_dbus_name() or ''})

        if method == 'just-works':
            paired()
            return
        if not self.agents:
            raise bluez_error('AuthenticationFailed', 'no agent')
        sender, agent, _ = self.agents[0]

        def ask(member, signature, args, reply):
            self.bus.call_async(sender, agent, 'org.bluez.Agent1', member, signature, args, reply, refused,
                                timeout=30)

        if method == 'confirm':
            ask('RequestConfirmation', 'ou', (device, dbus.UInt32(passkey)), paired)
        elif method == 'passkey':
            ask('RequestPasskey', 'o', (device,),
                lambda value: paired() if int(value) == passkey else refused(bluez_error('Rejected', 'wrong')))
        elif method == 'display':
            ask('DisplayPasskey', 'ouq', (device, dbus.UInt32(passkey), dbus.UInt16(0)), paired)
        elif method == 'authorize':
            ask('RequestAuthorization', 'o', (device,), paired)
        else:  # cancel
            ask('RequestConfirmation', 'ou', (device, dbus.UInt32(passkey)), lambda: None)
            self.bus.call_async(sender, agent, 'org.bluez.Agent1', 'Cancel', '', (),
                                lambda: self.record(path, 'PairingAnswered', {'ok': False, 'error': 'Cancel'}),
                                refused, timeout=30)

    def central_leaves(self, path, reason):
        """The central's link ends; `reason` is announced with Device1.Disconnected first ('' for none)."""
        if not mockobject.objects[path].props[DEVICE]['Connected']:
            return False
        if reason:
            self.send_signal(path, DEVICE, 'Disconnected', 'ss', reason, 'disconnected')
        self.set_properties(path, DEVICE, {'Connected': dbus.Boolean(False)})
        return True

    def adapter_of(self, path):
        return '/'.join(path.split('/')[:4])

    # ----- GATT objects

    def export_gatt(self, path, services=None):
        for step in self.export_steps(path, services):
            step()

    def export_steps(self, path, services=None):
        """The GATT objects to add, one function per object, in handle order."""
        spec = self.specs[path]
        state = self.state[path]
        if state['exported']:
            return []
        if services is None:
            services = self.stale[path] if path in self.stale else spec['services']
        by_uuid = {}
        for service in services:
            by_uuid.setdefault(service['uuid'], f"{path}/service{service['handle']:04x}")
        steps = []

        def add_service(service):
            service_path = f"{path}/service{service['handle']:04x}"
            includes = [by_uuid[u] for u in service['includes'] if u in by_uuid]
            self.add_object(service_path, SERVICE, {
                'UUID': dbus.String(service['uuid']),
                'Primary': dbus.Boolean(service['primary']),
                'Device': dbus.ObjectPath(path),
                'Includes': dbus.Array(includes, signature='o'),
                'Handle': dbus.UInt16(service['handle']),
            })
            state['exported'].append(service_path)

        def add_characteristic(service_path, characteristic):
            char_path = f"{service_path}/char{characteristic['handle']:04x}"
            self.add_object(char_path, CHARACTERISTIC, {
                'UUID': dbus.String(characteristic['uuid']),
                'Service': dbus.ObjectPath(service_path),
                'Value': byte_array(characteristic['value']),
                'Notifying': dbus.Boolean(False),
                'Flags': dbus.Array(characteristic['flags'], signature='s'),
                'MTU': dbus.UInt16(spec['mtu']),
                'Handle': dbus.UInt16(characteristic['handle'] + 1),
            })
            obj = mockobject.objects[char_path]
            obj.fake_value = list(characteristic['value'])
            install(obj, CHARACTERISTIC, 'ReadValue', 'a{sv}', self.read_value)
            install(obj, CHARACTERISTIC, 'WriteValue', 'aya{sv}', self.write_value)
            install(obj, CHARACTERISTIC, 'StartNotify', '', self.start_notify)
            install(obj, CHARACTERISTIC, 'StopNotify', '', self.stop_notify)

        def add_descriptor(char_path, descriptor):
            desc_path = f"{char_path}/desc{descriptor['handle']:04x}"
            self.add_object(desc_path, DESCRIPTOR, {
                'UUID': dbus.String(descriptor['uuid']),
                'Characteristic': dbus.ObjectPath(char_path),
                'Value': byte_array(descriptor['value']),
                'Flags': dbus.Array(descriptor['flags'], signature='s'),
                'Handle': dbus.UInt16(descriptor['handle']),
            })
            desc = mockobject.objects[desc_path]
            desc.fake_value = list(descriptor['value'])
            install(desc, DESCRIPTOR, 'ReadValue', 'a{sv}', self.read_value)
            install(desc, DESCRIPTOR, 'WriteValue', 'aya{sv}', self.write_value)

        for service in services:
            service_path = f"{path}/service{service['handle']:04x}"
            steps.append(lambda service=service: add_service(service))
            for characteristic in service['characteristics']:
                char_path = f"{service_path}/char{characteristic['handle']:04x}"
                steps.append(lambda s=service_path, c=characteristic: add_characteristic(s, c))
                for descriptor in characteristic['descriptors']:
                    steps.append(lambda c=char_path, d=descriptor: add_descriptor(c, d))
        return steps

    def unexport_gatt(self, path):
        for child in sorted((p for p in mockobject.objects if p.startswith(path + '/')), reverse=True):
            self.remove_object(child)
        self.state[path]['exported'] = []

    def change_services(self, path, raw_services):
        spec = self.specs[path]
        spec['services'] = peripherals.load_services(raw_services, path, 10)
        connected = self.state[path]['connected']
        self.unexport_gatt(path)
        if connected or spec['paired']:
            self.export_gatt(path)

    def stale_cache(self, path, raw_services):
        """The device's firmware changed without BlueZ noticing: its database becomes `raw_services`, but BlueZ
        keeps serving (and exporting on every connection) the objects it had, until RemoveDevice drops them. A read
        of the Database Hash characteristic reaches the device: it answers with the new database's value."""
        spec = self.specs[path]
        self.stale.setdefault(path, spec['services'])
        spec['services'] = peripherals.load_services(raw_services, path, 10)

    def device_value(self, obj, path):
        """What a read of `obj` answers: the stored value, or for the Database Hash of a device BlueZ's cache is
        stale for, the device's own (BlueZ reads characteristic values from the device, not from its cache)."""
        device = self.device_of(path)
        uuid = obj.props[CHARACTERISTIC]['UUID'] if CHARACTERISTIC in obj.props else None
        if device in self.stale and uuid == peripherals.DATABASE_HASH:
            for service in self.specs[device]['services']:
                for characteristic in service['characteristics']:
                    if characteristic['uuid'] == peripherals.DATABASE_HASH:
                        return list(characteristic['value'])
            return []
        return obj.fake_value

    def change_services_after_discovery(self, path, raw_services, discovery_ms):
        """Service Changed as bluetoothd 5.66 reports it (seen on the real stack): the old objects go as its
        discovery of the changed range starts, and the new ones all come at once `discovery_ms` later, when that
        discovery over the air has ended (if the device is still connected then)."""
        self.specs[path]['services'] = peripherals.load_services(raw_services, path, 10)
        self.unexport_gatt(path)

        def discovered():
            if self.state.get(path, {}).get('connected'):
                self.export_gatt(path)
            return False

        GLib.timeout_add(discovery_ms, discovered)

    def change_services_slowly(self, path, raw_services, interval_ms, resolve_again):
        """Service Changed with the new objects added one at a time, `interval_ms` apart; with
        `resolve_again`, ServicesResolved turns false first and true again after the last object."""
        self.specs[path]['services'] = peripherals.load_services(raw_services, path, 10)
        self.readd_slowly(path, interval_ms, resolve_again)

    def readd_slowly(self, path, interval_ms, resolve_again):
        """The device's GATT objects removed, then re-added one at a time, `interval_ms` apart (as
        `change_services_slowly`, with the services it has)."""
        spec = self.specs[path]
        state = self.state[path]
        if resolve_again and state['resolved']:
            state['resolved'] = False
            self.set_properties(path, DEVICE, {'ServicesResolved': dbus.Boolean(False)})
        self.unexport_gatt(path)
        steps = self.export_steps(path) if state['connected'] or spec['paired'] else []
        if resolve_again and state['connected']:
            steps.append(lambda: self.resolve(path))

        def next_step():
            if not steps or not self.state.get(path, {}).get('connected'):
                return False
            steps.pop(0)()
            return bool(steps)

        GLib.timeout_add(interval_ms, next_step)

    def characteristics_of(self, device_path):
        return sorted(p for p in mockobject.objects
                      if p.startswith(device_path + '/') and CHARACTERISTIC in mockobject.objects[p].props)

    def device_of(self, path):
        return '/'.join(path.split('/')[:5])

    def check_connected(self, path, err):
        if not self.state[self.device_of(path)]['connected']:
            err(bluez_error('Failed', 'Not connected'))
            return False
        return True

    def read_value(self, obj, options, ok, err):
        path = obj.path
        self.record(path, 'ReadValue', {})
        if self.scripted(path, 'ReadValue', ok, err) or not self.check_connected(path, err):
            return
        if DESCRIPTOR in obj.props:
            if obj.props[DESCRIPTOR]['UUID'] == peripherals.CCCD:
                char = mockobject.objects[str(obj.props[DESCRIPTOR]['Characteristic'])]
                notifying = bool(char.props[CHARACTERISTIC]['Notifying'])
                flags = list(char.props[CHARACTERISTIC]['Flags'])
                mode = 0 if not notifying else (1 if 'notify' in flags else 2)
                ok(byte_array([mode, 0]))
                return
            flags = list(obj.props[DESCRIPTOR]['Flags'])
        else:
            flags = list(obj.props[CHARACTERISTIC]['Flags'])
        if 'read' not in flags:
            err(bluez_error('NotPermitted', 'Read not permitted'))
            return
        offset = int(options.get('offset', 0))
        value = self.device_value(obj, path)
        if offset > len(value):
            err(bluez_error('InvalidArguments', 'Invalid offset'))
            return
        ok(byte_array(value[offset:]))

    def write_value(self, obj, value, options, ok, err):
        path = obj.path
        self.record(path, 'WriteValue', {'value': bytes(value).hex(), 'options': to_json(options)})
        if self.scripted(path, 'WriteValue', ok, err) or not self.check_connected(path, err):
            return
        if DESCRIPTOR in obj.props:
            if obj.props[DESCRIPTOR]['UUID'] == peripherals.CCCD:
                err(bluez_error('NotPermitted', 'Write not permitted'))
                return
            if 'write' not in list(obj.props[DESCRIPTOR]['Flags']):
                err(bluez_error('NotPermitted', 'Write not permitted'))
                return
        else:
            flags = list(obj.props[CHARACTERISTIC]['Flags'])
            kind = str(options.get('type', 'request' if 'write' in flags else 'command'))
            needed = {'request': 'write', 'command': 'write-without-response', 'reliable': 'reliable-write'}
            if needed.get(kind) not in flags:
                err(bluez_error('NotSupported', 'Operation is not supported'))
                return
        if len(value) > 512:
            err(bluez_error('InvalidArguments', 'Invalid Length'))
            return
        offset = int(options.get('offset', 0))
        obj.fake_value = obj.fake_value[:offset] + [int(b) for b in value]
        ok()

    def start_notify(self, obj, ok, err):
        path = obj.path
        self.record(path, 'StartNotify', {})
        if self.scripted(path, 'StartNotify', ok, err) or not self.check_connected(path, err):
            return
        props = obj.props[CHARACTERISTIC]
        if 'notify' not in props['Flags'] and 'indicate' not in props['Flags']:
            err(bluez_error('NotSupported', 'Operation is not supported'))
            return
        if props['Notifying']:
            err(bluez_error('InProgress', 'In Progress'))
            return
        early = self.notify_on_subscribe.pop(path, None)
        if early is not None:
            # The peripheral notifies as soon as the CCCD is written: BlueZ emits the value
            # before it answers StartNotify.
            obj.fake_value = list(early)
            self.set_properties(path, CHARACTERISTIC, {'Value': byte_array(early)})
        self.set_properties(path, CHARACTERISTIC, {'Notifying': dbus.Boolean(True)})
        ok()

    def stop_notify(self, obj, ok, err):
        path = obj.path
        self.record(path, 'StopNotify', {})
        if self.scripted(path, 'StopNotify', ok, err):
            return
        if not obj.props[CHARACTERISTIC]['Notifying']:
            err(bluez_error('Failed', 'No notify session started'))
            return
        self.set_properties(path, CHARACTERISTIC, {'Notifying': dbus.Boolean(False)})
        ok()

    def notify(self, path, value):
        obj = mockobject.objects.get(path)
        if obj is None or CHARACTERISTIC not in obj.props or not obj.props[CHARACTERISTIC]['Notifying']:
            return False
        obj.fake_value = list(value)
        self.set_properties(path, CHARACTERISTIC, {'Value': byte_array(value)})
        return True

    # ----- reset

    def forget_silently(self):
        """bluetoothd went away: every link is down and every GATT object of an unpaired device gone,
        with no signal (nobody is left to send one); the adapters stop discovering."""
        for path, state in sorted(self.state.items()):
            if path in mockobject.objects and (state['connected'] or state['resolved']):
                props = mockobject.objects[path].props[DEVICE]
                props['Connected'] = props['ServicesResolved'] = dbus.Boolean(False)
            state['connected'] = state['resolved'] = False
            for char_path in self.characteristics_of(path):
                mockobject.objects[char_path].props[CHARACTERISTIC]['Notifying'] = dbus.Boolean(False)
            if not self.specs[path]['paired']:
                for child in sorted((p for p in mockobject.objects if p.startswith(path + '/')), reverse=True):
                    self.manager.RemoveObject(child)
                state['exported'] = []
        for adapter in self.filters:
            if adapter in mockobject.objects:
                mockobject.objects[adapter].props[ADAPTER]['Discovering'] = dbus.Boolean(False)

    def start_chaos(self, seed, profile):
        """The chaos mode, from now (chaos.py): faults drawn from `seed`, its timeline started."""
        self.chaos = chaos.Chaos(self, seed, profile)
        self.chaos.start_timeline()

    def release_name(self):
        """bluetoothd leaves the bus: org.bluez loses its owner (NameOwnerChanged)."""
        self.bus.release_name('org.bluez')

    def own_name(self):
        """bluetoothd is back: org.bluez is owned again, with the objects as they are."""
        self.bus.request_name('org.bluez', dbus.bus.NAME_FLAG_DO_NOT_QUEUE)

    def reset(self):
        self.chaos = None
        for state in self.state.values():
            if state['connecting'] is not None:
                GLib.source_remove(state['connecting']['timer'])
                state['connecting'] = None
        for path in sorted(self.state):
            self.remove_device(path, abrupt=True)
        self.specs = {}
        self.state = {}
        self.faults = []
        self.agents = []
        self.hung = []
        self.calls = []
        self.call_counts = {}
        self.notify_on_subscribe = {}
        self.stale = {}
        for adapter in self.initial_adapters:
            path = f"/org/bluez/{adapter['name']}"
            if path not in mockobject.objects:
                self.add_adapter(adapter)
            props = mockobject.objects[path].props[ADAPTER]
            if props['Discovering']:
                self.set_properties(path, ADAPTER, {'Discovering': dbus.Boolean(False)})
            if bool(props['Powered']) != adapter['powered']:
                self.set_properties(path, ADAPTER, {'Powered': dbus.Boolean(adapter['powered'])})
            self.filters[path] = {}
        for spec in self.initial_devices:
            self.add_device(copy.deepcopy(spec), announce=spec['known'])


def to_json(value):
    """dbus-python values -> JSON-friendly values, for the call log."""
    if isinstance(value, (dbus.Dictionary, dict)):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (dbus.Array, list)):
        if isinstance(value, dbus.Array) and value.signature == 'y':
            return bytes(int(b) for b in value).hex()
        return [to_json(v) for v in value]
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (int, dbus.Byte)):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return str(value)
