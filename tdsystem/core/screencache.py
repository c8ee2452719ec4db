"""The screens' cache: what hundreds of screens and phones ask for every second (the field
figures beside the clock, the seat list of a field of thousands), worked out once for every
web process and machine.

It is Django's cache framework (`settings.CACHES`, docs/deployment.md): Redis in
production, so every process of every web machine shares one answer per event and
language; each process's own memory in the embedded run (one machine, one web process) and
in the tests.

- **Versions.** Every entry about an event is kept under the event's version number. Every
  change to an event takes its named lock (`core.locking.locks_take`), and the lock bumps
  the version once the change commits (`changed`), so no screen is answered a figure from
  before a change it could have seen: the next poll anywhere misses and fills again. An
  event's flights and main event are bumped with it (what `family_register` names): a
  flight's figures show the whole event's pool. Entries not about one event (the room's
  current event) are kept under the room's version, bumped by every change.
- **One refill.** An entry older than its seconds (`SCREEN_CACHE_SECONDS`) is filled again
  by one process: the first to take its fill key (`cache.add`, which only one can); the
  others are answered the entry it replaces, of the same version, meanwhile. An entry
  nobody has yet (a new version) is answered from the version before it while it is
  filled, or, when there is none, waited for a moment, then computed.
- **Trailing entries.** A list that costs tens of milliseconds to make (the seat list of
  a field of thousands) may be asked with a `trail`: after a change it is answered as it
  was for up to `trail` seconds from when it was made, then filled again once for all the
  changes meanwhile, so a busy minute's hundred bust-outs do not make it a hundred times.
  It is kept under one name whatever the version, with the version it was made at; a
  newer one is only ever filled once the one it replaces is `trail` old, so every copy
  younger than that is still the newest, and no figure goes back.
- **Copies.** Each process keeps the entries it has read, decoded, and answers from its
  copy while the version it read from the cache is the copy's and the copy is younger
  than the entry's seconds: a poll then costs one small read of the cache (the version),
  not the entries' transfer and decoding.
- **No figure goes back** on the clock's poll: it asks for its entries at the event's
  count of changes (`scope_counted`), read from the database with its clock, and each
  change adds one to it in its own transaction (`core.models.ScreenVersion`), so an entry
  made after a change committed is never kept under a count from before it. A version of
  the cache is bumped just after the commit: in that moment a poll may make the old
  version's entry from the new rows, so the lists asked at the version show a change
  within the moment after its commit.
- **The cache down.** A cache that fails (Redis stopped, unreachable) is left alone for
  `DOWN_SECONDS`; meanwhile every answer is computed from the database, never an error.
  A change committed while the cache is down bumps its versions when it is back (in the
  process that made it).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from django.core.cache import caches

logger = logging.getLogger(__name__)

T = TypeVar("T")

ALIAS = "default"
PREFIX = "screen"
ROOM = "room"
# A failing cache is not asked again for this long (each ask of a cache that drops its
# packets would wait for its socket timeout).
DOWN_SECONDS = 5.0
# A fill key outlives a fill that never ends (its process killed): then anyone may fill.
FILL_SECONDS = 10
# How long a poll waits for an entry nobody has yet, being filled by another, before it
# computes the answer itself; and how often it looks.
WAIT_SECONDS = 2.0
WAIT_STEP = 0.005
# A version number is kept a day; one that is gone (expired, evicted, Redis emptied) starts
# again from the clock's milliseconds, above any number it had.
VERSION_SECONDS = 24 * 3600

_family: list[Callable[[int], Iterable[int]]] = []
_down_until = 0.0
_unsent: set[str] = set()  # versions to bump once the cache answers again
_unsent_lock = threading.Lock()
# This process's copies of the entries it has read, as decoded values: (scope, key) ->
# (version, time stored, value). Used only while the version is the cache's and the entry
# young enough, as the cache's own entry would be.
_copies: dict[tuple, tuple[int | None, float, Any]] = {}
COPIES = 5000


def family_register(resolve: Callable[[int], Iterable[int]]) -> None:
    """`resolve(event_id)` names the events whose screens show an event's figures too (its
    main event and flights): they are bumped with it. Registered by events' AppConfig."""
    if resolve not in _family:
        _family.append(resolve)


def _now() -> float:
    """The time an entry's age is counted in: the machines' own clocks, kept in step
    (docs/operations.md, time synchronisation)."""
    return time.time()


def _cache():
    return caches[ALIAS]


def _usable() -> bool:
    if time.monotonic() < _down_until:
        return False
    # Versions a change could not bump while the cache was down, bumped before it is read.
    return not _unsent or _send_unsent()


def _failed(exc: BaseException) -> None:
    global _down_until
    _down_until = time.monotonic() + DOWN_SECONDS
    logger.warning("screen cache unavailable, answering from the database: %s", exc)


def _version_key(scope: str) -> str:
    return f"{PREFIX}:v:{scope}"


def _bump(keys: Iterable[str]) -> None:
    cache = _cache()
    for key in keys:
        try:
            cache.incr(key)
        except ValueError:  # no number yet (or lost): start above any it had
            if not cache.add(key, _fresh_version(), VERSION_SECONDS):
                cache.incr(key)


def _fresh_version() -> int:
    return int(time.time() * 1000)


def _send_unsent() -> bool:
    with _unsent_lock:
        keys = set(_unsent)
        try:
            _bump(keys)
        except Exception as exc:
            _failed(exc)
            return False
        _unsent.difference_update(keys)
        return True


def changed(*event_ids: int) -> None:
    """The screens of these events (and of their families) changed: bump their versions
    and the room's. Run on commit of every change that takes an event's lock."""
    scopes = {ROOM}
    for event_id in event_ids:
        scopes.add(str(event_id))
        for resolve in _family:
            try:
                scopes.update(str(related) for related in resolve(event_id))
            except Exception:  # the database gone since the commit: the event's own, at least
                logger.exception("screen cache: the events beside event %s not found", event_id)
    keys = {_version_key(scope) for scope in scopes}
    with _unsent_lock:
        _unsent.update(keys)
    if time.monotonic() >= _down_until:
        _send_unsent()


class Scope:
    """The entries of one event (or the room) at the version read once, for the parts of
    one answer."""

    def __init__(self, scope: str, version: int | None) -> None:
        self.scope = scope
        self.version = version  # None: the cache is down, everything is computed

    def _name(self, key: tuple, version: int | None = None, trailing: bool = False) -> str:
        """An entry's name: under this version (or `version`), or, trailing, under one name
        whatever the version (its entry carries the version it was made at)."""
        words = ":".join(str(part) for part in key)
        if trailing:
            return f"{PREFIX}:{self.scope}:trailing:{words}"
        return f"{PREFIX}:{self.scope}:{self.version if version is None else version}:{words}"

    def _copy(self, key: tuple, seconds: float, trail: float = 0.0) -> Any:
        """This process's copy of the entry, if it is young enough for this version."""
        copy = _copies.get((self.scope, key))
        if copy is not None and self._fresh(copy, seconds, trail):
            return copy
        return None

    def _fresh(self, entry: tuple, seconds: float, trail: float) -> bool:
        """Whether an entry (version made at, time made, value) may answer for this
        version: of it (or newer) and younger than `seconds`, or of an older one and
        younger than `trail` (a trailing entry)."""
        version, stored = entry[0], entry[1]
        if version is None or self.version is None:
            return False
        age = _now() - stored
        if version >= self.version:
            return age < seconds
        return age < min(trail, seconds)

    def _keep(self, key: tuple, entry: tuple) -> None:
        if len(_copies) > COPIES:
            _copies.clear()
        _copies[(self.scope, key)] = entry

    def peek(self, wanted: Mapping[tuple, float]) -> dict[tuple, Any]:
        """The entries of `wanted`'s keys fresher than their seconds, in one round trip
        at most; the others are missing (ask them with `get`)."""
        if self.version is None:
            return {}
        kept: dict[tuple, Any] = {}
        names: dict[str, tuple[tuple, float]] = {}
        for key, seconds in wanted.items():
            if seconds <= 0:
                continue
            copy = self._copy(key, seconds)
            if copy is not None:
                kept[key] = copy[2]
            else:
                names[self._name(key)] = (key, seconds)
        if not names:
            return kept
        try:
            found = _cache().get_many(list(names))
        except Exception as exc:
            _failed(exc)
            self.version = None
            return {}
        for name, found_entry in found.items():
            key, seconds = names[name]
            entry = _entry(found_entry)
            if entry is not None and self._fresh(entry, seconds, 0.0):
                kept[key] = entry[2]
                self._keep(key, entry)
        return kept

    def get(self, key: tuple, compute: Callable[[], T], seconds: float, trail: float = 0.0) -> T:
        """The entry of `key`, computed (once, by whoever takes its fill key) when it is
        older than `seconds` or missing; with a `trail`, also answered for up to `trail`
        seconds after a change (a trailing entry, above). Whatever `compute` raises is
        raised, and nothing kept."""
        if self.version is None or seconds <= 0:
            return compute()
        copy = self._copy(key, seconds, trail)
        if copy is not None:
            return copy[2]
        cache = _cache()
        name = self._name(key, trailing=trail > 0)
        fill = f"{name}:fill"
        try:
            hit = _entry(cache.get(name))
            if hit is not None and self._fresh(hit, seconds, trail):
                self._keep(key, hit)
                return hit[2]
            mine = cache.add(fill, 1, FILL_SECONDS)
            if not mine and hit is None and not trail:
                # A new version being filled by another: the version before meanwhile.
                hit = _entry(cache.get(self._name(key, self.version - 1)))
        except Exception as exc:
            _failed(exc)
            return compute()
        if mine:
            return self._fill(key, name, fill, compute, seconds)
        if hit is not None:
            return hit[2]  # being filled by another: the entry it replaces meanwhile
        hit = self._waited(name)
        if hit is None:
            return compute()
        self._keep(key, hit)
        return hit[2]

    def _fill(
        self, key: tuple, name: str, fill: str, compute: Callable[[], T], seconds: float
    ) -> T:
        cache = _cache()
        version, started = self.version, _now()
        try:
            value = compute()
        except BaseException:
            _forget(fill)
            raise
        entry = (version, started, value)
        try:
            # Kept past its seconds: the entry others are answered while it is filled again.
            cache.set(name, entry, max(60, int(seconds * 10)))
            cache.delete(fill)
        except Exception as exc:
            _failed(exc)
        else:
            self._keep(key, entry)
        return value

    def _waited(self, name: str) -> Any:
        """An entry nobody has yet, being filled by another: the entry once it is there,
        or None after WAIT_SECONDS (or with the cache down): then it is computed here."""
        try:
            waited = 0.0
            while waited < WAIT_SECONDS:
                time.sleep(WAIT_STEP)
                waited += WAIT_STEP
                hit = _entry(_cache().get(name))
                if hit is not None:
                    return hit
        except Exception as exc:
            _failed(exc)
        return None


def _entry(found: Any) -> tuple | None:
    """An entry as every process keeps it: (version made at, time made, value); anything
    else under its name (written by an older release during an upgrade) is missing."""
    if isinstance(found, tuple) and len(found) == 3:
        return found
    return None


def _forget(fill: str) -> None:
    try:
        _cache().delete(fill)
    except Exception as exc:
        _failed(exc)


def scope(event_id: int | None) -> Scope:
    """The entries of this event (None: the room's), at its version now."""
    name = ROOM if event_id is None else str(event_id)
    if not _usable():
        return Scope(name, None)
    cache = _cache()
    key = _version_key(name)
    try:
        version = cache.get(key)
        if version is None:
            cache.add(key, _fresh_version(), VERSION_SECONDS)
            version = cache.get(key)
    except Exception as exc:
        _failed(exc)
        return Scope(name, None)
    return Scope(name, version)


def scope_counted(event_id: int, changes: int) -> Scope:
    """The entries of this event at its count of changes (`core.models.ScreenVersion`),
    read from the database by the poll itself, in the statement that read its clock: not
    at the cache's version, which a change bumps only once it has committed."""
    name = f"{event_id}:counted"
    return Scope(name, changes if _usable() else None)


def screen_cached(
    key: tuple,
    compute: Callable[[], T],
    *,
    event: int | None,
    seconds: float,
    trail: float = 0.0,
) -> T:
    """`compute()`'s answer for `key`, shared by every process, at most `seconds` old and
    never from before a change to `event` (None: to any event) committed, or, with a
    `trail`, made at most `trail` seconds before such a change."""
    if seconds <= 0:
        return compute()
    return scope(event).get(key, compute, seconds, trail)


def clear() -> None:
    """Forget every entry and version, and that the cache failed (the tests start each
    from the database)."""
    global _down_until
    _down_until = 0.0
    with _unsent_lock:
        _unsent.clear()
    _copies.clear()
    _cache().clear()
