"""Players' pages pushed: each open page keeps one Server-Sent Events stream,
`GET /api/me/<token>/stream`, and is sent its figures when they change instead of asking
for them every second.

An asyncio process of its own serves it, beside the web server
(`uvicorn tdsystem.asgi_push:application`: `runsystem` starts it on the web port plus one,
a proxy routes `/api/me/<token>/stream` to it, docs/deployment.md). An open page costs it a
few kilobytes and nothing while nothing changes; a polling page costs the web server a
request a second (docs/players.md has the figures).

- **What wakes it.** Every change to an event adds one to the event's count of changes
  (`core.models.ScreenVersion`) in the change's own transaction. The hub reads the counts
  of the events with open pages every `PUSH_CHECK_SECONDS`, in one statement; when one
  moved, it reads every entry's part of that event once (`selectors.me_states`, the read
  the polls share) and sends each page whose part changed. A change that takes no lock
  (the floor acknowledging a slip) is seen at the next full read, every
  `PUSH_REFRESH_SECONDS`. Every process on every machine reads the same database, so any
  of them may serve any page.
- **Two messages.** `me`: the entry's part (the poll's JSON without `clock`), sent to that
  page alone when it changes. `clock`: the clock's part, one text for every page of the
  event in one language. A change of level, blinds or the clock's state is sent at once
  (the clock is read every `CLOCK_READ_SECONDS`); a change of the field's figures alone
  (players left, average stack, payouts) at most once every `PUSH_CLOCK_SECONDS`: a hundred
  bust-outs a minute would otherwise send every open page a message every 0.6 s, the most
  of what the process does. The page counts the time left down between messages, as it
  does between polls. `alive`
  every `PUSH_KEEPALIVE_SECONDS` with the server's time: the page knows its stream lives
  (it reconnects after a silence) and a proxy keeps the connection open.
- **Resume.** A `me` message's id is the event's count of changes it was read at. A page
  that reconnects sends the last one (Last-Event-ID): when nothing changed since, its part
  is not sent again until the next change. The clock's part is sent on every connection
  (one message: the figures may have waited for their interval).
- **Slow phones.** A page holds only the newest message of each kind, never a queue: a
  phone that reads slowly gets the latest part.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import partial
from typing import Any, TypeVar
from urllib.parse import parse_qs

from django.conf import settings
from django.db import close_old_connections, connections
from django.utils import translation
from django.utils.translation import gettext as _

from tdsystem.core.languages import CODES
from tdsystem.core.models import ScreenVersion
from tdsystem.core.servertime import server_now

from .links import TOKEN_MAX
from .models import PlayerLink
from .selectors import (
    LinkRead,
    MeAnswer,
    MeState,
    clock_part,
    link_read,
    me_reentry_price,
    me_states,
)

logger = logging.getLogger(__name__)

T = TypeVar("T")
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

STREAM = re.compile(rf"^/api/me/(?P<token>[^/]{{1,{TOKEN_MAX}}})/stream/?$")
# How long the page's browser waits before it reconnects a stream that ended (SSE's retry).
RETRY_MS = 3000
HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-store"),
    # nginx passes each message on as it comes instead of filling its buffer first.
    (b"x-accel-buffering", b"no"),
    # The embedded run serves the stream on a port of its own: another origin to the page.
    (b"access-control-allow-origin", b"*"),
]


def event_text(kind: str, data: dict, changes: int | None = None) -> bytes:
    """One Server-Sent Event: its kind, its id (the event's count of changes) and its JSON."""
    head = f"event: {kind}\n" + (f"id: {changes}\n" if changes is not None else "")
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"{head}data: {body}\n\n".encode()


@dataclass(eq=False)
class Page:
    """One open stream: whose page, in which language, and what it has been sent."""

    link: LinkRead
    language: str
    resume: str | None = None  # the Last-Event-ID it came back with
    state: MeState | None = None  # the part it was last sent
    clock: tuple[str, str] | None = None  # the keys of the clock's part it was last sent
    due: dict[str, bytes] = field(default_factory=dict)  # the newest message of each kind
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False  # the phone went
    ended: bool = False  # the process ends it

    def put(self, kind: str, text: bytes) -> None:
        self.due[kind] = text
        self.wake.set()

    def end(self) -> None:
        """The stream ended from this side (its link revoked)."""
        self.ended = True
        self.wake.set()


@dataclass(eq=False)
class Feed:
    """One event's open pages and what was last read for them."""

    event_id: int
    pages: set[Page] = field(default_factory=set)
    changes: int | None = None  # the count of changes `states` was read at
    states: dict[int, MeState] = field(default_factory=dict)
    read_at: float = 0.0
    clock: dict[str, tuple[dict, tuple[str, str]]] = field(default_factory=dict)  # by language
    clock_read_at: float = 0.0
    clock_sent_at: float = 0.0
    # entry id: the re-entry price, the part it was read for, when (time.monotonic())
    prices: dict[int, tuple[Any, MeState, float]] = field(default_factory=dict)


def _counts(event_ids: list[int]) -> tuple[dict[int, int], float]:
    """The events' counts of changes, and how far the installation's time
    (`core.servertime`) is ahead of this process's clock, in seconds."""
    counts = ScreenVersion.objects.filter(event_id__in=event_ids).values_list("event_id", "changes")
    return dict(counts), server_now().timestamp() - time.time()


def _event_states(event_id: int, links: list[int]) -> tuple[dict[int, MeState], set[int]]:
    """Every entry's part of the event, and which of `links` the floor has revoked."""
    revoked = PlayerLink.objects.filter(event_id=event_id, revoked_at__isnull=False)
    gone = set(revoked.values_list("pk", flat=True)) & set(links)
    return me_states(event_id, reentry=False), gone


# The clock's members that say the level and its state (sent at once when they change);
# the others are the field's figures.
LEVEL_KEYS = frozenset(
    ("status", "level", "on_break", "break_note", "small_blind", "big_blind", "ante",
     "small_bet", "big_bet", "duration_ms", "remaining_ms", "level_ends_at", "last_hands")
)  # fmt: skip
# How often the clock's part is read while the counts of changes stay (a level's end).
CLOCK_READ_SECONDS = 1.0
# How old a player out's re-entry offer may be (late registration closes on the clock).
PRICE_SECONDS = 30.0


def _clock_read(event_id: int, language: str) -> tuple[dict, tuple[str, str]]:
    """The clock's part in a language, and its keys: the level's, and the whole part's.
    Neither holds the time left of a running clock, which the page counts down."""
    with translation.override(language):
        clock, _server_time = clock_part(event_id)
    moment = "remaining_ms" if clock["status"] == "running" else ""
    level = repr(sorted((k, repr(v)) for k, v in clock.items() if k in LEVEL_KEYS - {moment}))
    figures = repr(sorted((k, repr(v)) for k, v in clock.items() if k not in LEVEL_KEYS))
    return clock, (level, figures)


def _me_message(state: MeState, language: str, changes: int | None) -> bytes:
    with translation.override(language):
        data = MeAnswer(state, {}, "", "").as_json()
    del data["clock"], data["server_time"]
    return event_text("me", data, changes)


class Hub:
    """The process's open pages by event, and the one task that reads and sends."""

    def __init__(self) -> None:
        self.feeds: dict[int, Feed] = {}
        self.task: asyncio.Task | None = None
        # The database's reads, off the event loop, one at a time on one connection.
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="push-db")
        self.pages = 0
        self.ahead = 0.0  # the installation's time minus this process's, in seconds

    def now_text(self) -> str:
        """The installation's time now, as the clock JSON's `server_time` says it."""
        return datetime.fromtimestamp(time.time() + self.ahead, UTC).isoformat()

    def clock_text(self, clock: dict) -> bytes:
        return event_text("clock", {"clock": clock, "server_time": self.now_text()})

    def shutdown(self) -> None:
        """The hub's database connection closed, its thread ended (a test's end)."""
        self.pool.submit(connections.close_all).result()
        self.pool.shutdown()

    async def db(self, read: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(
            self.pool, partial(_fresh_connection, read, *args)
        )

    def open(self, page: Page) -> Feed:
        feed = self.feeds.setdefault(page.link.event_id, Feed(page.link.event_id))
        feed.pages.add(page)
        self.pages += 1
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())
        return feed

    def close(self, page: Page) -> None:
        feed = self.feeds.get(page.link.event_id)
        if feed is not None and page in feed.pages:
            feed.pages.discard(page)
            self.pages -= 1

    async def run(self) -> None:
        failing = 0
        while any(feed.pages for feed in self.feeds.values()):
            started = time.monotonic()
            try:
                await self.check()
            except Exception:  # the database down, or a bug: said once, tried again
                if failing == 0:
                    logger.exception("players' pages: the check failed; trying again")
                failing += 1
            else:
                if failing:
                    logger.warning("players' pages: the check works again (%d failed)", failing)
                failing = 0
            pause = settings.PUSH_CHECK_SECONDS - (time.monotonic() - started)
            await asyncio.sleep(max(pause, 0.01) if not failing else 1.0)
        self.feeds.clear()

    async def check(self) -> None:
        for event_id in [e for e, feed in self.feeds.items() if not feed.pages]:
            del self.feeds[event_id]
        counts, self.ahead = await self.db(_counts, list(self.feeds))
        for feed in list(self.feeds.values()):
            now = time.monotonic()
            changes = counts.get(feed.event_id, 0)
            if changes != feed.changes or now - feed.read_at >= settings.PUSH_REFRESH_SECONDS:
                await self.read(feed, changes)
            elif now - feed.clock_read_at >= CLOCK_READ_SECONDS:
                await self.read_clock(feed)
            self.send_clock(feed)

    async def read(self, feed: Feed, changes: int) -> None:
        """Every entry's part of the event, read once, and each page sent its own if it
        changed."""
        links = [page.link.pk for page in feed.pages]
        feed.states, revoked = await self.db(_event_states, feed.event_id, links)
        feed.changes, feed.read_at = changes, time.monotonic()
        for page in [page for page in feed.pages if page.link.pk in revoked]:
            page.end()  # a lost phone's link: its page is told nothing more
        await self.price(feed)
        for page in list(feed.pages):
            self.send_state(feed, page)
        await self.read_clock(feed)

    async def price(self, feed: Feed) -> None:
        """The re-entry offered to each player out with an open page, while the rules
        allow one: read again when the player's part changed, or once it is
        `PRICE_SECONDS` old (late registration closes on the clock)."""
        now = time.monotonic()
        due = set()
        for page in feed.pages:
            state = feed.states.get(page.link.entry_id or 0)
            if state is None or state.place is None:
                continue
            known = feed.prices.get(state.entry_id)
            if known is None or known[1] != state or now - known[2] >= PRICE_SECONDS:
                due.add(state.entry_id)
        if due:
            prices = await self.db(_reentry_prices, sorted(due))
            for pk, price in prices.items():
                feed.prices[pk] = (price, feed.states[pk], now)
        for pk, (price, _state, _at) in feed.prices.items():
            if pk in feed.states and feed.states[pk].place is not None:
                feed.states[pk] = replace(feed.states[pk], reentry_price=price)

    def send_state(self, feed: Feed, page: Page) -> None:
        state = feed.states.get(page.link.entry_id or 0)
        if state is None or state == page.state:
            return
        resumed = page.state is None and page.resume == str(feed.changes)
        page.state = state
        if not resumed:
            page.put("me", _me_message(state, page.language, feed.changes))

    async def read_clock(self, feed: Feed) -> None:
        languages = {page.language for page in feed.pages}
        for language in languages:
            feed.clock[language] = await self.db(_clock_read, feed.event_id, language)
        feed.clock_read_at = time.monotonic()

    def send_clock(self, feed: Feed, page: Page | None = None) -> None:
        """The clock's part to every page (or `page`) whose last one differs: at once for
        a new level or state, every PUSH_CLOCK_SECONDS at most for new figures alone."""
        now = time.monotonic()
        waits = page is None and now - feed.clock_sent_at < settings.PUSH_CLOCK_SECONDS
        sent = False
        texts: dict[str, bytes] = {}  # one text a language, the same bytes to every page
        for each in [page] if page else list(feed.pages):
            clock, key = feed.clock.get(each.language, (None, None))
            if clock is None or key is None or key == each.clock:
                continue
            if waits and each.clock is not None and key[0] == each.clock[0]:
                continue  # the figures alone changed: they wait for the interval
            each.clock = key
            if each.language not in texts:
                texts[each.language] = self.clock_text(clock)
            each.put("clock", texts[each.language])
            sent = True
        if sent and page is None:
            feed.clock_sent_at = now


def _fresh_connection(read: Callable[..., T], *args: Any) -> T:
    """A read on the hub's thread, its connection given up first if it broke (the
    database restarted) or grew too old, as a request's would be."""
    close_old_connections()
    return read(*args)


def _reentry_prices(entry_ids: list[int]) -> dict[int, Any]:
    return {pk: me_reentry_price(pk) for pk in entry_ids}


hub = Hub()


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return None


def _language(scope: Scope, link: LinkRead) -> str:
    """The page's language as the page says it (?lang=), else the event's screens'."""
    asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", [""])[0]
    if asked in CODES:
        return asked
    return link.screen_language if link.screen_language in CODES else settings.LANGUAGE_CODE


async def _refuse(send: Send, status: int, text: str, retry: int | None = None) -> None:
    headers = [(b"content-type", b"application/json"), (b"access-control-allow-origin", b"*")]
    if retry is not None:
        headers.append((b"retry-after", str(retry).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": json.dumps({"detail": text}).encode()})


async def _until_gone(receive: Receive, page: Page) -> None:
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            page.closed = True
            page.wake.set()
            return


async def stream(scope: Scope, receive: Receive, send: Send, token: str) -> None:
    """One page's stream, until the phone goes."""
    link = await hub.db(link_read, token)
    if link is None or link.entry_id is None:
        with translation.override(settings.LANGUAGE_CODE):
            await _refuse(send, 404, _("no such player's page"))
        return
    if hub.pages >= settings.PUSH_MAX_PAGES:  # the page polls the web server instead
        with translation.override(_language(scope, link)):
            await _refuse(send, 503, _("too many open pages"), retry=60)
        return
    page = Page(link, _language(scope, link), resume=_header(scope, b"last-event-id"))
    await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
    await send(
        {"type": "http.response.body", "body": f"retry: {RETRY_MS}\n\n".encode(), "more_body": True}
    )
    feed = hub.open(page)
    watcher = asyncio.get_running_loop().create_task(_until_gone(receive, page))
    try:
        if feed.changes is not None:  # the event's pages are read already: this one's now
            hub.send_state(feed, page)
            if page.language not in feed.clock:
                await hub.read_clock(feed)
            hub.send_clock(feed, page)
        while not page.closed:
            try:
                async with asyncio.timeout(settings.PUSH_KEEPALIVE_SECONDS):
                    await page.wake.wait()
            except TimeoutError:
                page.put("alive", event_text("alive", {"server_time": hub.now_text()}))
            page.wake.clear()
            if page.closed:
                break
            if page.ended:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                break
            body = b"".join(page.due.values())
            page.due.clear()
            await send({"type": "http.response.body", "body": body, "more_body": True})
    except OSError:  # the phone went mid-message
        pass
    finally:
        hub.close(page)
        watcher.cancel()


async def application(scope: Scope, receive: Receive, send: Send) -> None:
    """The push process's ASGI application: the players' streams, and 404 for the rest."""
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            kind = message["type"].replace("lifespan.", "")
            await send({"type": f"lifespan.{kind}.complete"})
            if kind == "shutdown":
                return
    if scope["type"] != "http":
        return
    match = STREAM.match(scope["path"])
    if match is None or scope["method"] not in ("GET", "HEAD"):
        with translation.override(settings.LANGUAGE_CODE):
            await _refuse(send, 404, _("not found"))
        return
    await stream(scope, receive, send, match["token"])
