"""Every HTML page, opened in Chromium at TV and phone sizes by the person who uses it.

The pages are found by walking the URL patterns and asking each one for a GET, as its
user (a public view anonymously, a table view as a table device, any other as a
director), with its parameters filled from one populated event:

- 405: an action (POST only), not a page;
- not text/html: data (JSON, CSV, an export), not a page;
- 200 HTML that does not start with <!doctype html>: a fragment HTMX swaps into a page;
- 200 HTML document: a page. It must be listed in PAGES (or SKIP, with a reason);
- anything else (an error, a redirect, a refusal): a failure, unless listed in SKIP.

Each page, at each size, must answer 200 with no JavaScript error and nothing the
Content-Security-Policy blocks (no violation, no inline onclick="..."), fit a phone's width
(no sideways scrolling) unless PHONE_WIDE says why not, and leaves a full-page screenshot
in var/screenshots/pages/<url-name>-tv.png and -phone.png. All failures are reported
together at the end.

The same walk runs again in Arabic, Japanese and Vietnamese, chosen as a venue chooses
it (the language cookie on the browser), and checks besides that each page says its
language and direction (`<html lang="ar" dir="rtl">`); its screenshots go to
var/screenshots/pages-<lang>/. The three share one populated event.
"""

from __future__ import annotations

import os
import re
import tempfile
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tdsystem.players.models import Webhook, WebhookDelivery
from tdsystem.venue.management.commands.loaddemo import PLAYERS as DEMO_PLAYERS
from tests.browser.conftest import PHONE, TV, Quiet, login, screenshot
from tests.browser.test_api_docs_offline import CSP_WATCH, csp_problems
from tests.personas import PASSWORD, make_token, make_user
from tests.views.test_access_walk import rights, walk

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"tv": TV, "phone": PHONE}

# The languages walked besides English, and the right-to-left ones among them.
LANGUAGES = ["ar", "ja", "vi"]
RTL = {"ar"}

# The HTML pages, with the query string each opens with ("" for none); {names} come from
# the populated event (see populate()).
PAGES = {
    "home": "",
    "login": "",
    "login_code": "",
    "tokens": "",
    "console:home": "",
    "console:event_new": "",
    "console:event_copy": "",
    "console:event_import": "",
    "console:event_delete": "",
    "console:event": "",
    "console:event_rules": "",
    "console:event_entry_rules": "",
    "console:house_sets": "",
    "console:house_set": "",
    "console:structures": "",
    "console:structure": "",
    "console:structure_generator": "",
    "console:structure_edit": "",
    "console:event_levels": "",
    "shotclock:log": "",
    "chips_screen": "",
    "clock_screen": "",
    "schedule": "",
    "api:openapi-view": "",
    "seating:lookup": "?entry={moved_entry}",
    "seating:poster": "",
    "seating:draw_screen": "",
    "seating:console": "",
    "seating:moves": "",
    "seating:day_report": "",
    "seating:flights": "",
    "results:table": "",
    "rulings:page": "?event={event}",
    "rulings:shared": "",
    "results:page": "",
    "results:console": "",
    "results:payouts": "",
    "results:chip_history": "",
    "results:deal": "",
    "screen_poster": "",
    "console:floor": "",
    "screen_clocks": "",
    "printing:printers": "",
    "printing:event": "",
    "printing:job": "",
    "dealers:console": "",
    "dealers:board": "",
    "dealers:phone": "",
    "players:alternates": "",
    "players:entry_page": "",
    "players:webhooks": "",
    "players:join": "",
}

# URL patterns left out, by name (a trailing ":" leaves out a whole namespace).
SKIP = {
    "admin:": "Django's own admin, for superusers only, styled and tested by Django",
    "seating:device_home": "a table device's landing: a redirect to its table page (covered "
    "here); its waiting page is shot in test_device_landing.py",
    "screen_clock": "a redirect to the current event's clock screen (covered here); "
    "test_screen_follow.py shoots the no-event page",
    "screen_schedule": "a redirect to the current event's schedule (covered here)",
    "js_catalog": "the scripts' translation catalogue (JavaScript), not a page",
    "screen_chips": "a redirect to the current event's chip counts (covered here)",
    "screen_seats": "a redirect to the current event's seat lookup (covered here)",
    "screen_draw": "a redirect to the current event's draw screen (covered here)",
    "players:me": "a player's page, opened by its entry's own secret link (the walk's one "
    "`token` is a shared ruling's): walked on a phone in every language (a tablet in "
    "English and Arabic) by test_me_move.py",
    "players:me_alternate": "a place on the alternates list's JSON, polled by its page "
    "(shot in test_alternates_journey.py)",
}

# Pages left to right in every language, and why (their <html dir> may be left out).
LTR_ALWAYS = {
    "api:openapi-view": "Swagger UI lays out the API reference, written in English, left to right",
}

# Pages in a language of their own whatever the reader's, and why: their <html lang dir>
# must name that language (the populated event's, English).
OWN_LANGUAGE = {
    "printing:job": "a document printed from the browser, in the event's or the printer's "
    "language as on the receipt printer's paper",
}

# Pages allowed to be wider than a phone, and why.
PHONE_WIDE: dict[str, str] = {}

# A shared ruling (D8's reference case, with chips put out) for the ruling's public page.
SHARED_HAND = {
    "structure": "no-limit",
    "blinds": [4, 8],
    "ante": 1,
    "rule_set": "tda-2024",
    "players": [
        {"name": n, "stack": 8 if n == "Alice" else 500}
        for n in ("Ellen", "Bob", "Alice", "Dianne", "Maximiliana Oberhauser-Wittgenstein")
    ],
    "actions": [{"player": "Dianne", "chips": [25, 5]}],
}

# The demo's players, with one long name: it must wrap, not widen the page.
NAMES = [*DEMO_PLAYERS[:22], "Maximiliana Oberhauser-Wittgenstein", "Zoe Martin"]


def populate() -> dict:
    """An event from a published template: three tables of eight, seats drawn, the clock
    running, two players out at table 1 and the move slip that balanced it. Returns the
    values the URL parameters and query strings are filled from."""
    from tdsystem.core.actors import Actor
    from tdsystem.core.models import ApiToken
    from tdsystem.dealers.services import dealer_add, dealer_clock_in
    from tdsystem.events.services import clock_action, event_create, house_rule_set_create
    from tdsystem.players.alternates import alternate_join
    from tdsystem.printing import services as printing
    from tdsystem.results import services as results
    from tdsystem.results.models import BustOut
    from tdsystem.rulings.shares import ruling_share
    from tdsystem.seating import services as seating
    from tdsystem.seating.models import Entry, Move, TableDevice, VenueTable
    from tdsystem.seating.services.tickets import ticket_issue
    from tdsystem.structures.models import Structure
    from tdsystem.structures.services import templates_install

    templates_install()
    director = make_user("dora", "director")
    device = make_user("table1", "table")
    make_token(director)
    actor = Actor.of(director)
    template = Structure.objects.get(name="EPT Barcelona 2006, Day 1", is_template=True)
    event = event_create(
        name="Sunday Main Event",
        template=template,
        actor=actor,
        buy_in=Decimal("200"),
        fee=Decimal("20"),
        seats_per_table=9,
    )
    seating.tables_setup(event=event, numbers=[1, 2, 3], seats=9, actor=actor)
    seating.players_import(event_id=event.pk, names=NAMES, actor=actor)
    seating.seats_draw(event=event, actor=actor, seed=2024)
    clock_action(event_id=event.pk, action="start", actor=actor)
    at_one = Entry.objects.filter(event=event, table__number=1).order_by("seat")
    for entry in list(at_one[:2]):
        results.bustout_record(event_id=event.pk, entry_ids=[entry.pk], actor=actor)
    move = Move.objects.filter(event=event).select_related("entry").first()
    assert move is not None, "two out at table 1 of three tables of eight makes a move"
    TableDevice.objects.create(user=device, venue_table=VenueTable.objects.get(number=1))
    house = house_rule_set_create(name="Casino Lyon house rules", base="tda-2024", actor=actor)
    ticket = ticket_issue(event_id=event.pk, name="Tess Qualifier", note="Lyon", actor=actor)
    shared = ruling_share(hand=SHARED_HAND, event_id=event.pk, actor=actor)
    # A room's webhook (paused: nothing is sent) and one delivery on its page.
    hook = Webhook.objects.create(url="http://127.0.0.1:9/hook", is_active=False)
    delivery = WebhookDelivery.objects.create(
        webhook=hook, kind=Webhook.Kind.MOVED, payload={"event": event.pk}
    )
    # A printer of the room (a file), and a seat card kept for the print page.
    paper = Path(tempfile.gettempdir()) / f"tdsystem-every-page-{os.getpid()}.bin"
    printer = printing.printer_add(name="Cage", url=paper.as_uri(), documents=["entry-receipt"])
    seated = Entry.objects.filter(event=event, status="active").order_by("number").first()
    (job,) = printing.documents_print(
        event=event, document="seat-card", entry=seated.number, actor=actor
    )
    waiting = alternate_join(event=event, name="Walt Waiting", actor=actor).alternate
    dealers = [dealer_add(name=n, games="NLH", actor=actor) for n in NAMES[:4]]
    for dealer in dealers:
        dealer_clock_in(event_id=event.pk, dealer_id=dealer.pk, actor=actor)
    return {
        "users": {"director": director, "table": device},
        "params": {
            "event_id": event.pk,
            "structure_id": template.pk,
            "entry_id": Entry.objects.filter(event=event, status="active").first().pk,
            "entry_action": "rebuy",
            "number": 1,
            "move_id": move.pk,
            "bustout_id": BustOut.objects.filter(event=event).first().pk,
            "token_id": ApiToken.objects.first().pk,
            "fmt": "csv",
            "house_id": house.pk,
            "ticket_id": ticket.pk,
            "user_id": director.pk,
            "token": shared.token,
            "printer_id": printer.pk,
            "job_id": job.pk,
            "dealer_id": dealers[0].pk,
            "dealer_token": dealers[0].token,
            "webhook_id": hook.pk,
            "delivery_id": delivery.pk,
            "alternate_id": waiting.pk,
        },
        "query": {"event": event.pk, "moved_entry": move.entry.number},
    }


def user_of(callback) -> str | None:
    """Who opens a view: None (anonymous) for a public one."""
    right = rights(callback)
    if right is None:
        return None
    return "table" if right == "table" else "director"


def skipped(name: str) -> bool:
    return any(name == s or (s.endswith(":") and name.startswith(s)) for s in SKIP)


def classify(data: dict) -> tuple[dict[str, tuple[str, str | None]], list[str]]:
    """{name: (url, user)} of the pages, and the problems met on the way."""
    clients = {None: Client()}
    for who, user in data["users"].items():
        clients[who] = Client()
        clients[who].force_login(user)
    pages, problems = {}, []
    for name, route, callback in walk():
        if skipped(name):
            continue
        wanted = re.findall(r"<(?:\w+:)?(\w+)>", route)
        values = {**data["params"], "action": data["params"]["entry_action"]}
        missing = [p for p in wanted if p not in values]
        if missing:
            problems.append(f"{name}: no value for {missing}; add one in populate() or SKIP it")
            continue
        url = reverse(name, kwargs={p: values[p] for p in wanted})
        who = user_of(callback)
        response = clients[who].get(url)
        kind = response.get("Content-Type", "")
        if response.status_code == 405:
            continue  # an action
        if not kind.startswith("text/html"):
            continue  # data (/healthz answers JSON with 503 while a part is down)
        if response.status_code == 200:
            if not response.content.lstrip()[:15].lower().startswith(b"<!doctype html"):
                continue  # a fragment
            if name not in PAGES:
                problems.append(f"{name}: a new page; list it in PAGES (or SKIP, with a reason)")
            pages[name] = (url + PAGES.get(name, "").format(**data["query"]), who)
            continue
        problems.append(f"{name}: GET {url} as {who or 'anonymous'} -> {response.status_code}")
    for name in sorted(set(PAGES) - set(pages)):
        problems.append(f"{name}: listed in PAGES but no longer answers as a page")
    return pages, problems


# The page's width: what scrolls sideways, and what an overflow: hidden body cuts off at the
# right (the screens hide their overflow). With the outermost elements that stick out.
WIDTH = """() => {
  const inner = window.innerWidth;
  const width = Math.max(document.scrollingElement.scrollWidth, document.body.scrollWidth);
  const out = [...document.body.querySelectorAll("*")].filter(
    (el) => el.getBoundingClientRect().right > inner + 1 && el.getClientRects().length);
  const outer = out.filter((el) => !out.includes(el.parentElement)).slice(0, 5);
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    [...el.classList].map((c) => "." + c).join("");
  return [width, inner, outer.map(name).join(", ")];
}"""


# What the page says of itself: <html lang> and dir.
HTML_LANG = "() => [document.documentElement.lang, document.documentElement.dir]"


class Tab:
    """One person's browser tab at one size, walked from page to page: it keeps what each
    page said on the console and its script errors, and waits for each page's first loads."""

    def __init__(self, context) -> None:
        self.page = context.new_page()
        self.page.add_init_script(CSP_WATCH)
        self.errors: list[str] = []
        self.page.on(
            "console",
            lambda msg: self.errors.append(f"console: {msg.text}") if msg.type == "error" else None,
        )
        self.page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))
        self.network = Quiet(self.page)

    def open(self, url: str):
        """The page at url, once its first loads are in, with nothing left of the one before:
        the tab leaves it for a blank page first, so its last polls are not this one's."""
        self.page.goto("about:blank")
        self.errors.clear()
        response = self.page.goto(url)
        self.network.wait()
        return response


def check_page(tab: Tab, base: str, name: str, url: str, size: str, lang: str = "en") -> list[str]:
    response = tab.open(base + url)
    page = tab.page
    problems = []
    if response is None or response.status != 200:
        problems.append(f"answered {response.status if response else 'nothing'}")
    problems += tab.errors
    problems += csp_problems(page, [])  # the console's messages are in errors already
    said = page.evaluate(HTML_LANG)
    speaks = "en" if name in OWN_LANGUAGE else lang  # "en": the populated event's language
    wanted = [speaks, "rtl" if speaks in RTL and name not in LTR_ALWAYS else "ltr"]
    if name in LTR_ALWAYS and said == [speaks, ""]:
        said = wanted  # no dir: left to right
    if said != wanted:
        problems.append(f"<html lang dir> says {said}, not {wanted}")
    if size == "phone" and name not in PHONE_WIDE:
        width, inner, culprits = page.evaluate(WIDTH)
        if width > inner + 1:
            problems.append(f"wider than a phone: {width}px in {inner}px; sticking out: {culprits}")
    folder = "pages" if lang == "en" else f"pages-{lang}"
    screenshot(page, f"{folder}/{name.replace(':', '-')}-{size}", full_page=True)
    return [f"{name} ({lang}, {size}, {url}): {p}" for p in problems]


# The room's screens, walked at TV size in every language; the other pages are walked at
# TV size in English (their layout does not change with the language) and at phone size in
# every language, which keeps the four walks within CI's time.
TV_SCREENS = {
    "clock_screen",
    "schedule",
    "chips_screen",
    "screen_clocks",
    "screen_poster",
    "seating:poster",
    "seating:draw_screen",
    "dealers:board",
}


def walk_pages(chromium, live_server, data: dict, pages: dict, lang: str = "en") -> list[str]:
    """Every page at every size (in another language than English: the screens at TV
    size, every page at phone size), each person in a browser of their own (signed in
    once) and one tab, the language chosen by the language cookie (none for English: the
    browser's own)."""
    failures: list[str] = []
    contexts, tabs = {}, {}
    try:
        for size, viewport in SIZES.items():
            for name, (url, who) in sorted(pages.items()):
                if lang != "en" and size == "tv" and name not in TV_SCREENS:
                    continue
                tab = tabs.get((who, size))
                if tab is None:
                    context = contexts[who, size] = chromium.new_context(viewport=viewport)
                    if lang != "en":
                        context.add_cookies([language_cookie(live_server.url, lang)])
                    tab = tabs[who, size] = Tab(context)
                    if who is not None:
                        login(tab.page, live_server, data["users"][who].username, PASSWORD)
                failures += check_page(tab, live_server.url, name, url, size, lang)
    finally:
        for context in contexts.values():
            context.close()
    return failures


def language_cookie(base: str, lang: str) -> dict:
    return {"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": base + "/"}


def test_every_page_opens_cleanly_at_tv_and_phone_sizes(live_server, chromium):
    data = populate()
    pages, failures = classify(data)
    assert pages, "no HTML page found: the walk or the classification is broken"
    failures += walk_pages(chromium, live_server, data, pages)
    assert not failures, f"{len(failures)} problems:\n" + "\n".join(failures)


# Arabic (right to left, its own layout) walks in every run; Japanese and Vietnamese, whose
# pages lay out as the English ones with other glyphs, with `make test SLOW=1`.
WALKED_ALWAYS = {"ar"}


@pytest.mark.parametrize(
    "lang",
    [
        pytest.param(lang, marks=() if lang in WALKED_ALWAYS else pytest.mark.slow)
        for lang in LANGUAGES
    ],
)
def test_every_page_opens_cleanly_in_every_language(live_server, chromium, lang):
    data = populate()
    pages, failures = classify(data)
    assert pages, "no HTML page found: the walk or the classification is broken"
    failures += walk_pages(chromium, live_server, data, pages, lang)
    assert not failures, f"{len(failures)} problems:\n" + "\n".join(failures)


def test_the_skip_lists_say_why():
    for name, reason in {**SKIP, **PHONE_WIDE, **LTR_ALWAYS, **OWN_LANGUAGE}.items():
        assert len(reason.split()) >= 4, f"{name}: give a reason"
    assert not set(PHONE_WIDE) - set(PAGES), "PHONE_WIDE names a page that is not in PAGES"
    assert not set(LTR_ALWAYS) - set(PAGES), "LTR_ALWAYS names a page that is not in PAGES"
    assert not set(OWN_LANGUAGE) - set(PAGES), "OWN_LANGUAGE names a page not in PAGES"
    assert not TV_SCREENS - set(PAGES), "TV_SCREENS names a page that is not in PAGES"
