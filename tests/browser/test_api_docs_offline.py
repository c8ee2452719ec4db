"""The pages ask nothing of another host, and break none of the Content-Security-Policy.

The venue's network may have no Internet: the API reference must render from this machine
alone. And a page whose script the policy blocks fails silently on a TV, so each page the
room and the director use is opened with the browser reporting every violation.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.urls import reverse

from tdsystem.simulation.seatings import field
from tests.browser.conftest import TV, login
from tests.fixtures import make_event
from tests.personas import PASSWORD, make_token, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Collects the page's securitypolicyviolation events into window.__csp, from before the
# first script runs.
CSP_WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline") +
    (e.sourceFile ? " at " + e.sourceFile + ":" + e.lineNumber : ""));
});
"""

# Inline event handlers (onclick="...") the policy refuses to run, found in the DOM: they
# are reported only when clicked, so look for them instead of waiting for a click.
INLINE_HANDLERS = """() => [...document.querySelectorAll("*")].flatMap((el) =>
  [...el.attributes].filter((a) => /^on/i.test(a.name) || /^\\s*javascript:/i.test(a.value))
    .map((a) => el.tagName.toLowerCase() + "[" + a.name + "]"))"""


def watch_csp(page) -> list[str]:
    """Starts collecting the console's policy messages; returns the list they go into."""
    messages: list[str] = []
    page.add_init_script(CSP_WATCH)
    page.on(
        "console",
        lambda msg: messages.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    return messages


def csp_problems(page, messages: list[str]) -> list[str]:
    """Every violation the page met so far, and the inline handlers it would meet."""
    return (
        [f"console: {m}" for m in messages]
        + [f"violation: {v}" for v in page.evaluate("window.__csp || []")]
        + [f"inline handler: {h}" for h in page.evaluate(INLINE_HANDLERS)]
    )


def test_it_renders_the_api_docs_without_asking_another_host(live_server, new_page):
    page = new_page()
    messages = watch_csp(page)
    own = urlsplit(live_server.url).netloc
    outside: list[str] = []

    def route(r):
        if urlsplit(r.request.url).netloc == own:
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    response = page.goto(f"{live_server.url}/api/docs")
    page.wait_for_load_state("networkidle")
    assert response.status == 200
    page.locator(".opblock").first.wait_for()  # Swagger UI has read /api/openapi.json
    assert outside == []
    assert page.locator(".info .title").inner_text().startswith("tdsystem API")
    assert page.locator(".opblock").count() >= 12  # every operation
    assert csp_problems(page, messages) == []


def test_it_sends_a_policy_with_a_fresh_nonce_on_every_page(live_server, new_page):
    page = new_page()
    first = page.goto(f"{live_server.url}/api/docs").headers["content-security-policy"]
    second = page.goto(f"{live_server.url}/api/docs").headers["content-security-policy"]
    assert "default-src 'self'" in first
    assert "'unsafe-eval'" not in first
    assert first == second  # no inline script on this page: no nonce to vary
    # The event console runs an inline script with the request's nonce: a new one each time.
    event = make_event(600, name="Nonce")
    make_user("nonce", "director")
    login(page, live_server, "nonce", PASSWORD)
    headers = [
        page.goto(f"{live_server.url}/console/events/{event.pk}/").headers[
            "content-security-policy"
        ]
        for _ in range(2)
    ]
    nonces = [re.search(r"'nonce-([^']+)'", h).group(1) for h in headers]
    assert nonces[0] != nonces[1]


def test_the_screens_and_consoles_run_their_scripts_within_the_policy(live_server, new_page):
    event = make_event(600, 600, "B300", 600, name="Policy")
    field(event, players=40, tables=5)
    make_user("dora", "director")
    problems: list[str] = []

    def visit(page, messages, url, wait_ms, ready: str):
        page.goto(live_server.url + url)
        page.wait_for_function(ready, timeout=5000)
        page.wait_for_timeout(wait_ms)  # the polls, the countdown and the paging run
        problems.extend(f"{url}: {p}" for p in csp_problems(page, messages))
        messages.clear()

    screen = new_page(TV)
    messages = watch_csp(screen)
    visit(screen, messages, f"/events/{event.pk}/clock/", 1500, "!!document.body.className")
    visit(
        screen,
        messages,
        reverse("seating:draw_screen", kwargs={"event_id": event.pk}) + "?seconds=3",
        3500,
        "!!document.getElementById('page')",
    )

    console = new_page()
    login(console, live_server, "dora", PASSWORD)
    messages = watch_csp(console)
    # Past the clock panel's 5-second poll, whose trigger runs a filter.
    visit(console, messages, f"/console/events/{event.pk}/", 6000, "!!window.consoleEditing")
    visit(
        console,
        messages,
        reverse("seating:console", kwargs={"event_id": event.pk}),
        1500,
        "!!window.htmx",
    )
    assert problems == []


def test_it_asks_before_revoking_a_token_and_prints_without_inline_handlers(live_server, new_page):
    from tdsystem.core.models import ApiToken

    dora = make_user("dora", "director")
    make_token(dora)
    page = new_page()
    messages = watch_csp(page)
    page.add_init_script("window.__printed = 0; window.print = () => { window.__printed++; };")
    login(page, live_server, "dora", PASSWORD)
    page.goto(f"{live_server.url}/console/tokens/")
    asked: list[str] = []

    def dismiss(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    page.get_by_role("button", name="Revoke").click()
    page.wait_for_timeout(300)
    assert asked == ["Revoke this token? Programs using it stop working at once."]
    assert ApiToken.objects.get().revoked_at is None
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Revoke").click()
    page.wait_for_load_state()
    assert ApiToken.objects.get().revoked_at is not None
    assert csp_problems(page, messages) == []

    event = make_event(600, name="Print")
    for url in (f"/events/{event.pk}/schedule/", f"/events/{event.pk}/seats/poster/"):
        page.goto(live_server.url + url)
        page.get_by_role("button", name=re.compile("Print")).click()
        assert page.evaluate("window.__printed") == 1, url
        assert csp_problems(page, messages) == []


def test_the_admin_runs_within_the_policy(live_server, new_page):
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_superuser("root", "", PASSWORD)
    page = new_page()
    messages = watch_csp(page)
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", "root")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)
    problems = []
    for url in (
        "/admin/",
        "/admin/auth/user/",
        "/admin/auth/user/add/",
        "/admin/auth/user/1/change/",
    ):
        page.goto(live_server.url + url)
        page.wait_for_load_state("networkidle")
        problems += [f"{url}: {p}" for p in csp_problems(page, messages)]
        messages.clear()
    # The admin's own scripts ran: the change list's select-all box and the theme toggle.
    page.goto(f"{live_server.url}/admin/auth/user/")
    page.click("#action-toggle")
    assert page.locator("input.action-select").first.is_checked()
    assert problems == []
