"""A one-time code from `manage.py login_code` gets a locked-out director in: once, within
15 minutes, and the audit log says so."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
import time_machine
from axes.models import AccessAttempt
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import timezone

from tdsystem.core.models import LogEntry, LoginCode
from tests.personas import PASSWORD, make_user

pytestmark = pytest.mark.django_db

ROUTER = "192.168.1.1"


def new_code(username: str = "dora") -> str:
    out = StringIO()
    call_command("login_code", username, stdout=out)
    first_line = out.getvalue().splitlines()[0]
    assert username in first_line
    return first_line.split()[-1]


def use(client, code: str, username: str = "dora"):
    return client.post("/login/code/", {"username": username, "code": code}, REMOTE_ADDR=ROUTER)


def lock_out(username: str = "dora") -> None:
    stranger = Client()
    for _ in range(5):
        stranger.post("/login/", {"username": username, "password": "wrong"}, REMOTE_ADDR=ROUTER)
    refused = Client().post(
        "/login/", {"username": username, "password": PASSWORD}, REMOTE_ADDR=ROUTER
    )
    assert refused.status_code == 429


def test_the_code_logs_a_locked_out_director_in_and_lifts_the_lockout(client, director):
    lock_out()
    code = new_code()
    response = use(client, code)
    assert response.status_code == 302 and response["Location"] == "/console/"
    assert client.session["_auth_user_id"] == str(director.pk)
    assert not AccessAttempt.objects.filter(username__startswith="dora").exists()
    # Lifted: the password works again from any device.
    again = Client().post("/login/", {"username": "dora", "password": PASSWORD}, REMOTE_ADDR=ROUTER)
    assert again.status_code == 302


def test_the_code_makes_the_browser_a_known_device(client, director):
    use(client, new_code())
    client.post("/logout/")
    lock_out()
    response = client.post(
        "/login/", {"username": "dora", "password": PASSWORD}, REMOTE_ADDR=ROUTER
    )
    assert response.status_code == 302


def test_the_code_works_once(director):
    code = new_code()
    assert use(Client(), code).status_code == 302
    second = Client()
    response = use(second, code)
    assert response.status_code == 400
    assert "used already" in response.content.decode()
    assert "_auth_user_id" not in second.session


def test_the_code_lasts_15_minutes(client, director):
    code = new_code()
    with time_machine.travel(timezone.now() + timedelta(minutes=15, seconds=1)):
        response = use(client, code)
    assert response.status_code == 400
    assert "_auth_user_id" not in client.session


def test_the_code_is_the_named_users_only(client, director, floor_person):
    code = new_code("fred")
    assert use(client, code, username="dora").status_code == 400
    assert "_auth_user_id" not in client.session
    assert use(client, code, username="fred").status_code == 302


def test_a_new_code_ends_the_older_one(director):
    older = new_code()
    newer = new_code()
    assert use(Client(), older).status_code == 400
    assert use(Client(), newer).status_code == 302


def test_the_code_may_be_typed_in_small_letters_and_without_dashes(client, director):
    code = new_code()
    assert use(client, code.replace("-", " ").lower()).status_code == 302


def test_only_the_codes_hash_is_stored(director):
    code = new_code()
    stored = LoginCode.objects.get()
    assert code.replace("-", "") not in stored.code_hash and code not in stored.code_hash


def test_making_and_using_a_code_go_to_the_audit_log(client, director):
    use(client, new_code())
    made = LogEntry.objects.get(action="login.code")
    assert made.event is None and made.actor_label == "manage.py login_code"
    assert made.summary == "One-time login code made for dora"
    used = LogEntry.objects.get(action="login.code_used")
    assert used.event is None and used.actor == director
    assert used.summary == "dora logged in with a one-time code (lockout lifted)"


def test_a_wrong_code_changes_nothing(client, director):
    new_code()
    before = LogEntry.objects.count()
    response = use(client, "AAAA-BBBB-CCCC-DDDD")
    assert response.status_code == 400
    assert LogEntry.objects.count() == before
    assert LoginCode.objects.get().used_at is None


def test_an_inactive_account_gets_no_code():
    user = make_user("gone", "floor")
    user.is_active = False
    user.save()
    with pytest.raises(CommandError, match="not active"):
        new_code("gone")
    with pytest.raises(CommandError, match="no user"):
        new_code("nobody")


def test_the_login_and_lockout_pages_point_to_the_code_page(client, director):
    assert 'href="/login/code/"' in client.get("/login/").content.decode()
    lock_out()
    locked = client.post("/login/", {"username": "dora", "password": PASSWORD}, REMOTE_ADDR=ROUTER)
    assert 'href="/login/code/"' in locked.content.decode()
