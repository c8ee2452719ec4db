"""Headless Chromium (Debian's) driven by Playwright, against pytest-django's live server."""

from __future__ import annotations

import base64
import os
import time
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
# A shared machine can hold a request up for a while (the SQLite database's and broker's
# write locks wait up to 20 s; a run's fault tests start and kill whole installations
# beside the browser's): every page waits longer than Playwright's 30 s.
PATIENCE_MS = int(os.environ.get("TD_PATIENCE", 90_000))
TV = {"width": 1920, "height": 1080}
TV_SMALL = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}


def _wait_for_function(page, expression, *, arg=None, timeout=None, polling=None):
    """Page.wait_for_function, polled from here: Playwright's own polls the predicate with
    eval() inside the page, which the Content-Security-Policy refuses (no 'unsafe-eval');
    page.evaluate goes through the DevTools protocol, which the policy does not govern."""

    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    wait = 30_000 if timeout is None else timeout or float("inf")  # 0: no timeout
    deadline = time.monotonic() + wait / 1000
    while True:
        result = page.evaluate(expression, arg)
        if result:
            return result
        if time.monotonic() > deadline:
            raise PlaywrightTimeout(f"Timeout {timeout}ms exceeded waiting for {expression!r}")
        page.wait_for_timeout(polling if isinstance(polling, (int, float)) else 50)


@pytest.fixture(scope="session")
def chromium():
    from playwright.sync_api import Page, sync_playwright

    Page.wait_for_function = _wait_for_function
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


CALL_FAILED = pytest.StashKey[bool]()  # the test's own call failed (not its set-up)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.stash[CALL_FAILED] = report.failed
    return report


@pytest.fixture
def new_page(chromium, request):
    """new_page(viewport) -> a page in a fresh context; closed after the test.

    When the test fails, each of its pages is shot (var/screenshots/failed/) and what it
    showed, where it was and what went wrong in it (script errors, failed requests, server
    errors) goes into the test's output: a failure in a run on another machine tells its
    own story."""
    contexts = []
    pages: list = []
    trouble: list[str] = []

    def make(viewport: dict | None = None, **kwargs):
        context = chromium.new_context(viewport=viewport or TABLET, **kwargs)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(PATIENCE_MS)
        pages.append(page)
        label = f"page {len(pages)}"
        page.on("pageerror", lambda exc: trouble.append(f"{label} script error: {exc}"))
        page.on(
            "requestfailed",
            lambda r: trouble.append(f"{label} request failed: {r.method} {r.url} {r.failure}"),
        )

        def answered(response) -> None:
            if response.status >= 400:
                trouble.append(f"{label} answer {response.status}: {response.request.method} "
                               f"{response.url}")  # fmt: skip

        page.on("response", answered)
        return page

    yield make
    if request.node.stash.get(CALL_FAILED, False):
        _tell_the_failure(request.node.name, pages, trouble)
    for context in contexts:
        context.close()


def _tell_the_failure(test: str, pages: list, trouble: list[str]) -> None:
    for line in trouble:
        print(line)
    for number, page in enumerate(pages, start=1):
        try:
            name = f"failed/{test}-{number}"
            screenshot(page, name, full_page=True)
            text = page.evaluate("document.body ? document.body.innerText : ''")
            print(f"page {number} at {page.url} (var/screenshots/{name}.png) shows:")
            print("  " + " | ".join(line for line in text.split("\n") if line.strip())[:1500])
        except Exception as exc:  # a page the failure took down tells what it can
            print(f"page {number}: {exc}")


def screenshot(page, name: str, *, full_page: bool = False) -> Path:
    """var/screenshots/<name>.png (a name may hold a folder: "pages/home-tv").

    The run's artifacts are hundreds of pictures, full pages many of them: they are
    encoded for speed (the DevTools protocol's `optimizeForSpeed`, the same pixels in a
    PNG a fifth larger, in half the browser's time), not for size as page.screenshot
    does. The docs' pictures (`docs_shot`) keep Playwright's."""
    path = SCREENSHOTS / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.evaluate("document.fonts.ready.then(() => true)")
    shot: dict = {"format": "png", "optimizeForSpeed": True}
    if full_page:
        width, height = page.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
        )
        shot |= {
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1},
        }
    session = page.context.new_cdp_session(page)
    try:
        path.write_bytes(base64.b64decode(session.send("Page.captureScreenshot", shot)["data"]))
    finally:
        session.detach()
    return path


def login(page, live_server, username: str, password: str) -> None:
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)


def open_page(new_page, viewport, *, session=None, accept_dialogs: bool = False):
    """A journey's page (patient, and told on a failure, as every page is: `new_page`).
    `session` lends a logged-in page's cookies; `accept_dialogs` says yes to every
    question a console asks before it acts."""
    page = new_page(viewport)
    if accept_dialogs:
        page.on("dialog", lambda dialog: dialog.accept())
    if session is not None:
        page.context.add_cookies(session.context.cookies())
    return page


def settled(page) -> None:
    """htmx binds swapped-in content when it settles (20 ms later): until then a change or
    a click there does nothing. Wait until nothing on the page is still settling or being
    asked for."""
    page.wait_for_function(
        "!document.querySelector('.htmx-added, .htmx-settling, .htmx-request')",
        timeout=PATIENCE_MS,
    )


class Quiet:
    """Waits until a page's network has been quiet a moment: nothing asked for and not
    answered, and nothing asked for in the last `quiet_ms`. Playwright's "networkidle" asks
    for 500 ms of quiet, which a walk through every page pays on each; the pages' own
    first loads (htmx's hx-trigger="load", the clock's first poll) follow one another
    within a few milliseconds, so 150 ms of quiet is past them. A page that never goes
    quiet (a stream) is waited for `cap_ms` at most."""

    def __init__(self, page, *, quiet_ms: int = 150, cap_ms: int = 2500) -> None:
        self.page, self.quiet, self.cap = page, quiet_ms / 1000, cap_ms / 1000
        self.open: set = set()
        self.last = time.monotonic()
        page.on("request", self._asked)
        page.on("requestfinished", self._answered)
        page.on("requestfailed", self._answered)

    def _asked(self, request) -> None:
        self.open.add(request)
        self.last = time.monotonic()

    def _answered(self, request) -> None:
        self.open.discard(request)
        self.last = time.monotonic()

    def wait(self) -> None:
        deadline = time.monotonic() + self.cap
        while time.monotonic() < deadline:
            if not self.open and time.monotonic() - self.last >= self.quiet:
                return
            self.page.wait_for_timeout(25)  # lets Playwright deliver the page's events


def docs_shots_on() -> bool:
    """TD_SHOTS=1: the journeys shoot the pictures the docs show (docs/img/<folder>/);
    without it a test run leaves the docs be."""
    return os.environ.get("TD_SHOTS") == "1"


def docs_shot(page, folder: str, name: str, *, full_page: bool = False) -> None:
    """docs/img/<folder>/<name>.png, only when TD_SHOTS=1."""
    if docs_shots_on():
        path = DOCS_IMG / folder / f"{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), full_page=full_page)
