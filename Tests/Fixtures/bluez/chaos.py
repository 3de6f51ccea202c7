"""The fake BlueZ's chaos mode: faults drawn from a seed, each kind bounded (README.md, "Chaos mode").

Every draw comes from the seed: the n-th decision about a key (a method on an object, a signal, the
timeline) uses `random.Random(f'{seed}/{key}/{n}')`, so the same seed makes the same choices for the
same calls whatever else interleaves with them (another call, a notification, a timer), and a seed
reproduces as far as the client's own timing lets it. What the chaos did is logged (`ChaosLog`).

What it draws:
- per method call: a late reply (`lateMaxMs`), no reply at all (`maxNever` per run), or an error
  from BlueZ's own set for that method (`maxErrors` per run);
- per Connect: the order of its reply and signals (reply first, `ServicesResolved` before the GATT
  objects, `ServicesResolved` late by up to `resolveLateMaxMs`) and the link's delay;
- per state signal (`Connected`, `ServicesResolved`, `Notifying`, `Powered`, `Discovering`): sent twice;
- per disconnection: its signals (`Device1.Disconnected`, `Notifying`, `ServicesResolved`,
  `Connected`) reordered, the redundant ones dropped, or `Connected` and `ServicesResolved` coalesced
  into one `PropertiesChanged`; the GATT objects always go last, as bluetoothd removes them;
- a timeline of up to `events` faults within `durationMs`: a link drop with a random reason, the
  GATT objects removed and re-added one by one, `ServicesResolved` flapping, the adapter powered off
  mid-operation and back on, bluetoothd restarting (org.bluez released and owned again, its
  pending calls answered `NoReply`, its links gone without a signal).

Notification values (`Value` changes) are never duplicated, dropped or reordered: D-Bus keeps a
sender's order, and a peripheral's notifications are the client's to judge.
"""

import random
import time

import dbus
from gi.repository import GLib

DEVICE = 'org.bluez.Device1'
CHARACTERISTIC = 'org.bluez.GattCharacteristic1'
ADAPTER = 'org.bluez.Adapter1'
STATE_PROPERTIES = {'Connected', 'ServicesResolved', 'Notifying', 'Powered', 'Discovering'}

DEFAULT_PROFILE = {
    'durationMs': 4000,
    'late': 0.10,
    'lateMaxMs': 800,
    'never': 0.03,
    'maxNever': 1,
    'error': 0.08,
    'maxErrors': 3,
    'duplicate': 0.15,
    'connectOrder': 0.5,
    'resolveLateMaxMs': 1200,
    'disconnectOrder': 0.5,
    'events': 3,
    'kinds': ['drop-link', 'readd-objects', 'resolved-flap', 'power-off', 'restart'],
}

# BlueZ's own errors, per method, with the texts bluetoothd sends.
ERRORS = {
    'Connect': [('Failed', 'le-connection-abort-by-local'), ('Failed', 'Software caused connection abort'),
                ('InProgress', 'In Progress'), ('NotReady', 'Resource Not Ready')],
    'Disconnect': [('NotConnected', 'Not Connected')],
    'ReadValue': [('Failed', 'Not connected'), ('NotPermitted', 'Read not permitted'),
                  ('NotAuthorized', 'Operation Not Authorized'), ('InvalidOffset', 'Invalid offset'),
                  ('InProgress', 'In Progress'), ('Failed', 'Operation failed with ATT error: 0x0e')],
    'WriteValue': [('Failed', 'Not connected'), ('NotPermitted', 'Write not permitted'),
                   ('NotAuthorized', 'Operation Not Authorized'), ('NotSupported', 'Operation is not supported'),
                   ('InvalidValueLength', 'Invalid Length'), ('InProgress', 'In Progress'),
                   ('Failed', 'Operation failed with ATT error: 0x0e')],
    'StartNotify': [('Failed', 'Not connected'), ('NotPermitted', 'Notify not permitted'),
                    ('NotSupported', 'Operation is not supported'), ('InProgress', 'In Progress')],
    'StopNotify': [('Failed', 'No notify session started')],
    'StartDiscovery': [('InProgress', 'Operation already in progress'), ('NotReady', 'Resource Not Ready'),
                       ('Failed', 'Operation failed')],
    'StopDiscovery': [('Failed', 'No discovery started')],
    'SetDiscoveryFilter': [('NotReady', 'Resource Not Ready')],
}
REASONS = ['org.bluez.Reason.Timeout', 'org.bluez.Reason.Remote', 'org.bluez.Reason.Local',
           'org.bluez.Reason.Unknown', '']


# Methods bluetoothd answers at once from its own state: late, they are handled late (the state read when the
# reply is sent), never answered late with an older state. D-Bus keeps one sender's order, so a client never
# sees such a snapshot older than the signals before it.
SNAPSHOTS = {'GetManagedObjects'}


class Deferred:
    """A call handled `delay` ms late, unless a restart answered it meanwhile (it stays in `pending`)."""

    def __init__(self, chaos, delay, entry):
        self.chaos = chaos
        self.delay = delay
        self.entry = entry

    def run(self, call):
        """Calls `call(ok, err)` after the delay."""
        def fire():
            if self.entry in self.chaos.pending:
                self.chaos.pending.remove(self.entry)
                call(*self.entry)
            return False
        GLib.timeout_add(self.delay, fire)


class Chaos:
    """Seeded faults for one run; `FakeBlueZ.chaos` holds it while it is on (Reset turns it off)."""

    def __init__(self, fake, seed, profile):
        unknown = set(profile) - set(DEFAULT_PROFILE)
        if unknown:
            raise ValueError(f'unknown chaos profile keys {sorted(unknown)}; known: {sorted(DEFAULT_PROFILE)}')
        self.fake = fake
        self.seed = int(seed)
        self.profile = {**DEFAULT_PROFILE, **profile}
        self.counts = {}
        self.never = 0
        self.errors = 0
        self.log = []
        self.started = time.monotonic()
        self.pending = []  # (ok, err) of calls answered late or never: a restart answers them NoReply

    # ----- draws and the log

    def rng(self, key):
        """The generator of the next decision about `key`: a function of the seed, the key and its count."""
        n = self.counts.get(key, 0)
        self.counts[key] = n + 1
        return random.Random(f'{self.seed}/{key}/{n}')

    def now_ms(self):
        return int((time.monotonic() - self.started) * 1000)

    def note(self, kind, **details):
        self.log.append({'t': self.now_ms(), 'kind': kind, **details})

    def active(self):
        return self.fake.chaos is self

    def later(self, ms, function):
        """Runs `function` after `ms`, unless this chaos was turned off (Reset, another seed) meanwhile."""
        def fire():
            if self.active():
                function()
            return False
        GLib.timeout_add(max(0, int(ms)), fire)

    # ----- method calls

    def gate(self, path, method, ok, err):
        """Decides a call's fate: (ok, err) to answer with (perhaps late), a `Deferred` to handle it late
        (`SNAPSHOTS`), or None when chaos answered it."""
        rng = self.rng(f'call/{path}/{method}')
        roll = rng.random()
        p = self.profile
        choices = ERRORS.get(method)
        if choices and roll < p['error'] and self.errors < p['maxErrors']:
            self.errors += 1
            name, text = rng.choice(choices)
            self.note('error', path=path, method=method, error=f'org.bluez.Error.{name}', text=text)
            err(dbus.exceptions.DBusException(text, name=f'org.bluez.Error.{name}'))
            return None
        roll -= p['error']
        if method != 'GetManagedObjects' and 0 <= roll < p['never'] and self.never < p['maxNever']:
            self.never += 1
            self.note('never', path=path, method=method)
            self.pending.append((ok, err))
            return None
        roll -= p['never']
        if 0 <= roll < p['late']:
            delay = rng.randint(20, p['lateMaxMs'])
            self.note('late', path=path, method=method, ms=delay)
            entry = (ok, err)
            self.pending.append(entry)
            if method in SNAPSHOTS:
                return Deferred(self, delay, entry)

            def answer(function):
                def reply(*args):
                    def send():
                        if entry in self.pending:
                            self.pending.remove(entry)
                            function(*args)
                        return False
                    # A late reply is sent even after Reset: its caller is waiting for it.
                    GLib.timeout_add(delay, lambda: bool(send()))
                return reply
            return answer(ok), answer(err)
        return ok, err

    # ----- Connect

    def connect_order(self, path, state):
        """Draws this Connect's order of reply and signals, and its delays."""
        rng = self.rng(f'connect/{path}')
        state['delay'] = rng.randint(5, 300)
        if rng.random() < self.profile['connectOrder']:
            state['mode'] = rng.choice(['reply-first', 'resolve-early', 'resolve-late'])
        else:
            state['mode'] = 'normal'
        state['resolveDelay'] = rng.randint(20, self.profile['resolveLateMaxMs'])
        self.note('connect', path=path, mode=state['mode'], delayMs=state['delay'], resolveMs=state['resolveDelay'])

    # ----- signals

    def copies(self, path, interface, member, args):
        """How many times a signal is sent: twice for some state PropertiesChanged, else once."""
        if member != 'PropertiesChanged' or not args or not set(args[1].keys()) <= STATE_PROPERTIES:
            return 1
        names = ','.join(sorted(str(k) for k in args[1].keys()))
        if self.rng(f'signal/{path}/{names}').random() < self.profile['duplicate']:
            self.note('duplicate', path=path, properties=names)
            return 2
        return 1

    def disconnection(self, path, steps):
        """Orders the signals of a disconnection: `steps` maps 'reason', 'notifying', 'resolved',
        'connected' to functions; returns the functions to run, in order."""
        rng = self.rng(f'disconnect/{path}')
        order = ['reason', 'notifying', 'resolved', 'connected']
        if rng.random() >= self.profile['disconnectOrder']:
            return [steps[name] for name in order if name in steps]
        rng.shuffle(order)
        # Redundant signals may be left out: the reason (BlueZ before 5.64 has no Disconnected signal),
        # Notifying (Connected false ends every session), ServicesResolved (implied by Connected false).
        dropped = [name for name in ('reason', 'notifying', 'resolved') if name in steps and rng.random() < 0.3]
        coalesce = 'resolved' in steps and 'resolved' not in dropped and rng.random() < 0.3
        kept = [name for name in order if name in steps and name not in dropped]
        if coalesce:
            kept.remove('resolved')
            self.note('disconnect', path=path, order=kept, dropped=dropped, coalesced=True)
            return [steps[name] if name != 'connected' else steps['coalesced'] for name in kept]
        self.note('disconnect', path=path, order=kept, dropped=dropped, coalesced=False)
        return [steps[name] for name in kept]

    # ----- the timeline

    def start_timeline(self):
        p = self.profile
        rng = self.rng('timeline')
        count = rng.randint(0, p['events'])
        drawn = sorted((rng.randint(200, max(200, p['durationMs'] - 500)), rng.choice(p['kinds']))
                       for _ in range(count))
        self.note('timeline', events=[{'atMs': at, 'kind': kind} for at, kind in drawn])
        for at, kind in drawn:
            self.later(at, lambda kind=kind: self.fire(kind))

    def connected_devices(self):
        return sorted(path for path, state in self.fake.state.items() if state['connected'])

    def fire(self, kind):
        rng = self.rng(f'event/{kind}')
        fake = self.fake
        devices = self.connected_devices()
        if kind == 'drop-link':
            if not devices:
                return self.note(kind, skipped='no link')
            device = rng.choice(devices)
            reason = rng.choice(REASONS)
            self.note(kind, path=device, reason=reason)
            fake.drop_link(device, reason)
        elif kind == 'readd-objects':
            if not devices:
                return self.note(kind, skipped='no link')
            device = rng.choice(devices)
            interval = rng.randint(5, 150)
            resolve_again = rng.random() < 0.5
            self.note(kind, path=device, intervalMs=interval, resolveAgain=resolve_again)
            fake.readd_slowly(device, interval, resolve_again)
        elif kind == 'resolved-flap':
            resolved = [d for d in devices if fake.state[d]['resolved']]
            if not resolved:
                return self.note(kind, skipped='nothing resolved')
            device = rng.choice(resolved)
            gap = rng.randint(10, 500)
            self.note(kind, path=device, ms=gap)
            fake.state[device]['resolved'] = False
            fake.set_properties(device, DEVICE, {'ServicesResolved': dbus.Boolean(False)})

            def again():
                if fake.state.get(device, {}).get('connected') and not fake.state[device]['resolved']:
                    fake.resolve(device)
            self.later(gap, again)
        elif kind == 'power-off':
            adapter = sorted(fake.filters)[0]
            off = rng.randint(50, 800)
            first = rng.random() < 0.5
            self.note(kind, path=adapter, ms=off, poweredFirst=first)
            if first:
                fake.power_off_first(adapter, rng.randint(0, 100))
            else:
                fake.set_powered(adapter, False)
            self.later(off, lambda: fake.set_powered(adapter, True))
        elif kind == 'restart':
            gap = rng.randint(50, 500)
            self.note(kind, ms=gap)
            self.restart(gap)

    def restart(self, gap_ms):
        """bluetoothd stops: its pending calls get NoReply from the bus, its links and GATT objects go
        without a signal (nobody is left to send one), org.bluez loses its owner; `gap_ms` later it is
        owned again with the adapter and the devices re-exported, no link up."""
        fake = self.fake
        no_reply = dbus.exceptions.DBusException(
            'Message recipient disconnected from message bus without replying',
            name='org.freedesktop.DBus.Error.NoReply')
        pending = self.pending + fake.hung
        self.pending, fake.hung = [], []
        for path, state in sorted(fake.state.items()):
            if state['connecting'] is not None:
                GLib.source_remove(state['connecting']['timer'])
                pending.append((state['connecting']['ok'], state['connecting']['err']))
                state['connecting'] = None
        for _, err in pending:
            err(no_reply)
        fake.forget_silently()
        fake.release_name()
        self.later(gap_ms, fake.own_name)
