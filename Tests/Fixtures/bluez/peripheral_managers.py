"""GattManager1 and LEAdvertisingManager1 on the fake adapters: they record each registration
(the object path and the caller's bus name) in the call log and reply at once, unless a scripted
fault (FailNext, HangNext) answers for them. They do not call the registered objects: the Swift
tests play bluetoothd's part themselves, over the same private bus."""

import dbus
import dbus.service

GATT_MANAGER = 'org.bluez.GattManager1'
ADVERTISING_MANAGER = 'org.bluez.LEAdvertisingManager1'


def install_managers(fake, obj):
    """Adds the two manager interfaces to an adapter object of dbusmock."""
    registered = {GATT_MANAGER: set(), ADVERTISING_MANAGER: set()}

    def add(interface, name, in_signature, registers):
        def handle(obj_path, path, sender):
            fake.record(obj_path, name, {'object': str(path), 'sender': str(sender)})
            key = (str(sender), str(path))
            if registers:
                if key in registered[interface]:
                    raise dbus.exceptions.DBusException('Already Exists', name='org.bluez.Error.AlreadyExists')
                registered[interface].add(key)
            else:
                if key not in registered[interface]:
                    raise dbus.exceptions.DBusException('Does Not Exist', name='org.bluez.Error.DoesNotExist')
                registered[interface].discard(key)

        def answer(obj_path, path, sender, ok, err):
            if fake.scripted(obj_path, name, ok, err):
                fake.record(obj_path, name, {'object': str(path), 'sender': str(sender)})
                return
            try:
                handle(obj_path, path, sender)
            except dbus.exceptions.DBusException as error:
                err(error)
                return
            ok()

        if registers:
            def method(self, path, options, sender=None, ok=None, err=None):
                answer(self.path, path, sender, ok, err)
        else:
            def method(self, path, sender=None, ok=None, err=None):
                answer(self.path, path, sender, ok, err)
        method.__name__ = name
        wrapped = dbus.service.method(interface, in_signature=in_signature, out_signature='',
                                      sender_keyword='sender', async_callbacks=('ok', 'err'))(method)
        obj.methods.setdefault(interface, {})[name] = (in_signature, '', '', wrapped)

    obj.props.setdefault(GATT_MANAGER, {})
    obj.props.setdefault(ADVERTISING_MANAGER, {
        'ActiveInstances': dbus.Byte(0), 'SupportedInstances': dbus.Byte(5),
        'SupportedIncludes': dbus.Array(['local-name'], signature='s'),
    })
    add(GATT_MANAGER, 'RegisterApplication', 'oa{sv}', True)
    add(GATT_MANAGER, 'UnregisterApplication', 'o', False)
    add(ADVERTISING_MANAGER, 'RegisterAdvertisement', 'oa{sv}', True)
    add(ADVERTISING_MANAGER, 'UnregisterAdvertisement', 'o', False)
