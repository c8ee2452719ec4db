"""Staff login is rate-limited (see test_login_throttle.py); API tokens are listed and revoked."""

from __future__ import annotations

import pytest

from tdsystem.core.models import ApiToken, LogEntry
from tests.personas import PASSWORD, make_token, make_user

pytestmark = pytest.mark.django_db


def test_repeated_failures_lock_the_login_for_that_user(client, director):
    for _ in range(4):
        response = client.post("/login/", {"username": "dora", "password": "wrong"})
        assert response.status_code == 200
    assert client.post("/login/", {"username": "dora", "password": "wrong"}).status_code == 429
    response = client.post("/login/", {"username": "dora", "password": PASSWORD})
    assert response.status_code == 429
    assert b"Too many failed logins for this name from this device" in response.content
    assert "_auth_user_id" not in client.session


def test_a_good_password_logs_in(client, director):
    response = client.post("/login/", {"username": "dora", "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(director.pk)


def test_login_needs_the_csrf_token(director):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    response = strict.post("/login/", {"username": "dora", "password": PASSWORD})
    assert response.status_code == 403


def test_a_superuser_creates_lists_and_revokes_tokens(client, event, floor_person):
    root = make_user("root", None)
    root.is_superuser = True
    root.save()
    floor_token = make_token(floor_person)
    client.force_login(root)
    page = client.post("/console/tokens/", {"label": "overlay"}).content.decode()
    assert "copy it now" in page and "overlay" in page
    assert floor_token[:8] in page  # a superuser sees every token
    token = ApiToken.objects.get(user=floor_person)
    client.post(f"/console/tokens/{token.pk}/revoke")
    token.refresh_from_db()
    assert token.revoked_at is not None
    response = client.post(
        "/api/events/1/clock",
        {"action": "pause"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {floor_token}",
    )
    assert response.status_code in (401, 404)


@pytest.mark.parametrize("persona", ["director", "floor_person"])
def test_staff_not_superusers_see_and_revoke_only_their_own_tokens(client, request, persona):
    """A director who is not a superuser neither lists nor revokes anyone else's token (a
    superuser's least of all); the refusal is a 403, written to the audit log."""
    me = request.getfixturevalue(persona)
    root = make_user("root", None)
    root.is_superuser = True
    root.save()
    colleague = make_user("cleo", "director")
    mine = make_token(me)
    others = [make_token(root), make_token(colleague)]
    client.force_login(me)
    page = client.get("/console/tokens/").content.decode()
    assert mine[:8] in page
    assert all(raw[:8] not in page for raw in others)
    assert "root" not in page and "cleo" not in page
    for token in ApiToken.objects.exclude(user=me):
        assert client.post(f"/console/tokens/{token.pk}/revoke").status_code == 403
        token.refresh_from_db()
        assert token.revoked_at is None
    refused = LogEntry.objects.filter(action="access.refused", actor=me)
    assert refused.count() == 2
    assert "needs the right superuser" in refused.first().summary
    own = ApiToken.objects.get(user=me)
    client.post(f"/console/tokens/{own.pk}/revoke")
    own.refresh_from_db()
    assert own.revoked_at is not None
    assert LogEntry.objects.filter(action="token.revoke", actor=me).count() == 1


def test_a_revoked_token_is_refused(client, event, director):
    raw = make_token(director)
    ApiToken.objects.update(revoked_at="2026-01-01T00:00:00Z")
    response = client.post(
        f"/api/events/{event.pk}/clock",
        {"action": "start"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {raw}",
    )
    assert response.status_code == 401


def test_a_token_records_its_last_use_to_the_minute(client, event, director):
    from datetime import timedelta

    raw = make_token(director)

    def call() -> None:
        response = client.post(
            f"/api/events/{event.pk}/clock",
            {"action": "pause"},
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {raw}",
        )
        assert response.status_code < 500

    call()
    first = ApiToken.objects.get().last_used_at
    assert first is not None
    call()  # within the minute: no write
    assert ApiToken.objects.get().last_used_at == first
    ApiToken.objects.update(last_used_at=first - timedelta(minutes=2))
    call()
    assert ApiToken.objects.get().last_used_at > first
