"""Choosing the language: ?lang=, the switcher (per browser and per staff user), the
browser's Accept-Language; <html lang dir> follows."""

from __future__ import annotations

import pytest
from django.test import Client

from tdsystem.core.models import StaffLanguage
from tests.personas import PASSWORD

pytestmark = pytest.mark.django_db


def html_tag(response) -> str:
    page = response.content.decode()
    return page[page.index("<html") : page.index(">", page.index("<html")) + 1]


def test_english_by_default(client):
    assert html_tag(client.get("/login/")) == '<html lang="en" dir="ltr">'


def test_the_browsers_language_is_followed(client):
    answer = client.get("/login/", HTTP_ACCEPT_LANGUAGE="ar,en;q=0.5")
    assert html_tag(answer) == '<html lang="ar" dir="rtl">'
    assert answer["Content-Language"] == "ar"


def test_lang_in_the_url_wins_and_is_kept_for_the_pages_own_refreshes(client):
    answer = client.get("/login/?lang=ja", HTTP_ACCEPT_LANGUAGE="vi")
    assert html_tag(answer) == '<html lang="ja" dir="ltr">'
    assert answer.cookies["django_language"].value == "ja"
    # The next request without ?lang= (an htmx refresh) keeps Japanese.
    assert (
        html_tag(client.get("/login/", HTTP_ACCEPT_LANGUAGE="vi")) == '<html lang="ja" dir="ltr">'
    )


def test_an_unknown_lang_is_ignored(client):
    assert html_tag(client.get("/login/?lang=xx")) == '<html lang="en" dir="ltr">'


def test_the_switcher_remembers_the_choice_on_this_browser(client):
    answer = client.post("/language", {"language": "vi", "next": "/login/?lang=ja&x=1"})
    assert answer.status_code == 302 and answer["Location"] == "/login/?x=1"
    assert html_tag(client.get("/login/")) == '<html lang="vi" dir="ltr">'


def test_the_switcher_refuses_a_language_it_does_not_offer_and_an_outside_next(client):
    assert client.post("/language", {"language": "xx", "next": "/"}).status_code == 400
    answer = client.post("/language", {"language": "ja", "next": "https://example.com/"})
    assert answer["Location"] == "/"


def test_a_staff_users_choice_follows_them_to_another_browser(director):
    first = Client()
    first.force_login(director)
    first.post("/language", {"language": "ar", "next": "/console/"})
    assert StaffLanguage.objects.get(user=director).language == "ar"
    other = Client()
    other.post("/login/", {"username": director.username, "password": PASSWORD})
    answer = other.get("/console/", HTTP_ACCEPT_LANGUAGE="en")
    assert html_tag(answer) == '<html lang="ar" dir="rtl">'
