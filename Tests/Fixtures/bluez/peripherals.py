"""Loads the peripheral JSON format (see README.md) into plain Python values.

Everything is checked here, with messages that name the peripheral and the field, so that a bad
description fails before any D-Bus object exists.
"""

import re

BASE_UUID_SUFFIX = '-0000-1000-8000-00805f9b34fb'
FLAG_NAMES = {
    'broadcast', 'read', 'write-without-response', 'write', 'notify', 'indicate',
    'authenticated-signed-writes', 'extended-properties', 'reliable-write', 'writable-auxiliaries',
    'encrypt-read', 'encrypt-write', 'encrypt-authenticated-read', 'encrypt-authenticated-write',
}
ADDRESS = re.compile(r'^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$')
ADAPTER = re.compile(r'^hci[0-9]+$')
CCCD = '00002902' + BASE_UUID_SUFFIX
DATABASE_HASH = '00002b2a' + BASE_UUID_SUFFIX


class SpecError(Exception):
    pass


def full_uuid(text, where):
    """'180F', '0x180F', 'F000AA00' or the 36-character form -> lowercase 36-character form."""
    value = str(text).lower()
    if value.startswith('0x'):
        value = value[2:]
    if re.fullmatch(r'[0-9a-f]{4}', value):
        return '0000' + value + BASE_UUID_SUFFIX
    if re.fullmatch(r'[0-9a-f]{8}', value):
        return value + BASE_UUID_SUFFIX
    if re.fullmatch(r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}', value):
        return value
    raise SpecError(f'{where}: "{text}" is not a UUID (write 180F or the 36-character form)')


def hex_bytes(text, where):
    """'0a1B' or '0a 1b' or '' -> list of ints."""
    if text is None:
        return []
    if not isinstance(text, str):
        raise SpecError(f'{where}: values are hex strings such as "0a1b", not {type(text).__name__}')
    compact = text.replace(' ', '').replace(':', '')
    if len(compact) % 2 or not re.fullmatch(r'[0-9A-Fa-f]*', compact):
        raise SpecError(f'{where}: "{text}" is not an even number of hex digits')
    return list(bytes.fromhex(compact))


def load(document):
    """Returns {'adapters': [...], 'peripherals': [...]} with defaults filled in and handles assigned."""
    if not isinstance(document, dict):
        raise SpecError('the description must be a JSON object with "peripherals" (and optionally "adapters")')
    adapters = []
    for index, adapter in enumerate(document.get('adapters', [{'name': 'hci0'}])):
        name = adapter.get('name', '')
        if not ADAPTER.match(name):
            raise SpecError(f'adapters[{index}]: "{name}" is not an adapter name such as hci0')
        adapters.append({'name': name, 'powered': bool(adapter.get('powered', True))})
    names = [adapter['name'] for adapter in adapters]
    peripherals = []
    for index, raw in enumerate(document.get('peripherals', [])):
        peripherals.append(load_peripheral(raw, f'peripherals[{index}]', names))
    return {'adapters': adapters, 'peripherals': peripherals}


def load_peripheral(raw, where, adapter_names):
    address = raw.get('address', '')
    if not ADDRESS.match(address):
        raise SpecError(f'{where}: "{address}" is not a BD_ADDR such as C0:FF:EE:00:00:01')
    where = f'{where} ({raw.get("name", address)})'
    address_type = raw.get('addressType', 'public')
    if address_type not in ('public', 'random'):
        raise SpecError(f'{where}: addressType must be "public" or "random", not "{address_type}"')
    adapter = raw.get('adapter', adapter_names[0] if adapter_names else 'hci0')
    if adapter not in adapter_names:
        raise SpecError(f'{where}: adapter "{adapter}" is not among the adapters {adapter_names}')
    manufacturer = {}
    for key, value in raw.get('manufacturerData', {}).items():
        company = int(key, 16) if str(key).lower().startswith('0x') else int(key)
        if not 0 <= company <= 0xFFFF:
            raise SpecError(f'{where}: manufacturer id {key} does not fit 16 bits')
        manufacturer[company] = hex_bytes(value, f'{where} manufacturerData {key}')
    service_data = {}
    for key, value in raw.get('serviceData', {}).items():
        service_data[full_uuid(key, f'{where} serviceData')] = hex_bytes(value, f'{where} serviceData {key}')
    peripheral = {
        'name': raw.get('name'),
        'address': address.upper(),
        'addressType': address_type,
        'adapter': adapter,
        'rssi': None if 'rssi' in raw and raw['rssi'] is None else int(raw.get('rssi', -60)),
        'txPower': raw.get('txPower'),
        'advertisedServices': [full_uuid(u, f'{where} advertisedServices') for u in raw.get('advertisedServices', [])],
        'manufacturerData': manufacturer,
        'serviceData': service_data,
        'known': bool(raw.get('known', False) or raw.get('paired', False)),
        'paired': bool(raw.get('paired', False)),
        'mtu': int(raw.get('mtu', 247)),
        'connect': raw.get('connect', 'normal'),
        'services': load_services(raw.get('services', []), where, int(raw.get('firstHandle', 10))),
    }
    if peripheral['connect'] not in ('normal', 'resolve-early', 'reply-first', 'never-resolve'):
        raise SpecError(f'{where}: connect must be normal, resolve-early, reply-first or never-resolve')
    return peripheral


def load_services(raw_services, where, first_handle):
    """Assigns handles as a GATT server lays them out (Core Spec Vol 3, Part G, 3): the service
    declaration, then per characteristic its declaration, its value, its CCCD when it can notify or
    indicate (added when not listed), then its other descriptors. Explicit "handle" fields win."""
    services = []
    handle = first_handle
    for s_index, raw in enumerate(raw_services):
        s_where = f'{where} services[{s_index}]'
        handle = int(raw.get('handle', handle))
        service = {
            'uuid': full_uuid(raw.get('uuid', ''), s_where),
            'primary': bool(raw.get('primary', True)),
            'handle': handle,
            'includes': [full_uuid(u, s_where + ' includes') for u in raw.get('includes', [])],
            'characteristics': [],
        }
        handle += 1
        for c_index, raw_c in enumerate(raw.get('characteristics', [])):
            c_where = f'{s_where} characteristics[{c_index}]'
            flags = list(raw_c.get('flags', []))
            for flag in flags:
                if flag not in FLAG_NAMES:
                    raise SpecError(f'{c_where}: "{flag}" is not a BlueZ characteristic flag ({sorted(FLAG_NAMES)})')
            handle = int(raw_c.get('handle', handle))
            characteristic = {
                'uuid': full_uuid(raw_c.get('uuid', ''), c_where),
                'flags': flags,
                'handle': handle,
                'value': hex_bytes(raw_c.get('value', ''), c_where + ' value'),
                'descriptors': [],
            }
            handle += 2
            raw_descriptors = list(raw_c.get('descriptors', []))
            listed = [full_uuid(d.get('uuid', ''), c_where + ' descriptor') for d in raw_descriptors]
            if ('notify' in flags or 'indicate' in flags) and CCCD not in listed:
                raw_descriptors.insert(0, {'uuid': '2902', 'flags': ['read', 'write']})
            for d_index, raw_d in enumerate(raw_descriptors):
                d_where = f'{c_where} descriptors[{d_index}]'
                handle = int(raw_d.get('handle', handle))
                characteristic['descriptors'].append({
                    'uuid': full_uuid(raw_d.get('uuid', ''), d_where),
                    'flags': list(raw_d.get('flags', ['read'])),
                    'handle': handle,
                    'value': hex_bytes(raw_d.get('value', ''), d_where + ' value'),
                })
                handle += 1
            service['characteristics'].append(characteristic)
        services.append(service)
    return services
