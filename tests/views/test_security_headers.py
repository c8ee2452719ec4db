"""Every answer carries the Content-Security-Policy (public pages, staff pages, the API's
JSON, the error pages); HSTS goes out over HTTPS only."""

from __future__ import annotations

import re

import pytest
from django.db import OperationalError
from django.urls import path

from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

DIRECTIVES = {
    "default-src": "'self'",
    "style-src": "'self' 'unsafe-inline'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "frame-ancestors": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "object-src": "'none'",
}


def policy(response) -> dict[str, str]:
    header = response.headers.get("Content-Security-Policy")
    assert header, f"{response.status_code} answer without a Content-Security-Policy"
    parts = (part.strip().split(None, 1) for part in header.split(";") if part.strip())
    return {p[0]: p[1] if len(p) > 1 else "" for p in parts}


def assert_the_policy(response) -> dict[str, str]:
    found = policy(response)
    for name, value in DIRECTIVES.items():
        assert found.get(name) == value, name
    assert re.fullmatch(r"'self'( 'nonce-[\w+/=-]+')?", found["script-src"])
    assert "unsafe-eval" not in response.headers["Content-Security-Policy"]
    return found


def test_it_sends_the_policy_on_a_public_page_that_runs_scripts_from_files_only(client):
    event = make_event(600)
    response = client.get(f"/events/{event.pk}/clock/?layout=draw")
    assert response.status_code == 200
    assert_the_policy(response)
    html = response.content.decode()
    # The words come from the JavaScript catalog's file; the seats are data, not code.
    scripts = re.findall(r"<script([^>]*)>", html)
    assert scripts and all("src=" in a or 'type="application/json"' in a for a in scripts)
    assert '<script src="/jsi18n/en.js"></script>' in html


def test_it_sends_the_policy_on_a_staff_page(client, director):
    event = make_event(600)
    client.force_login(director)
    response = client.get(f"/console/events/{event.pk}/")
    assert response.status_code == 200
    nonce = re.search(r"'nonce-([^']+)'", assert_the_policy(response)["script-src"]).group(1)
    html = response.content.decode()
    # Every inline script carries the nonce; nothing runs from an attribute.
    assert html.count("<script") == html.count(f'nonce="{nonce}"') + html.count("<script src=")
    assert not re.search(r"\son[a-z]+=", html)


def test_it_sends_the_policy_on_an_api_json_read(client):
    event = make_event(600)
    response = client.get(f"/api/events/{event.pk}/clock")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert_the_policy(response)


def test_it_sends_the_policy_on_the_error_pages(client):
    assert client.get("/no/such/page/").status_code == 404
    assert_the_policy(client.get("/no/such/page/"))
    assert_the_policy(client.get("/api/no-such-thing"))
    bad = client.get("/login/?next=%00")
    assert bad.status_code == 400
    assert_the_policy(bad)


def _unreachable(request):
    raise OperationalError("connection refused")


urlpatterns = [path("page", _unreachable)]


@pytest.mark.urls(__name__)
def test_it_sends_the_policy_on_the_database_unreachable_page(client):
    response = client.get("/page")
    assert response.status_code == 503
    assert_the_policy(response)


def test_it_sends_hsts_over_https_only(client, settings):
    settings.SECURE_HSTS_SECONDS = 31536000
    assert "Strict-Transport-Security" not in client.get("/login/").headers
    secure = client.get("/login/", secure=True)
    assert secure.headers["Strict-Transport-Security"] == "max-age=31536000"


def test_it_trusts_the_proxys_https_only_with_a_proxy_configured(client, settings):
    settings.SECURE_HSTS_SECONDS = 31536000
    claimed = client.get("/login/", headers={"x-forwarded-proto": "https"})
    assert "Strict-Transport-Security" not in claimed.headers
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    proxied = client.get("/login/", headers={"x-forwarded-proto": "https"})
    assert proxied.headers["Strict-Transport-Security"] == "max-age=31536000"
