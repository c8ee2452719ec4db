"""The public screens in the reader's language (docs/languages.md): ?lang=, Accept-Language,
the event's screen language when the reader chose nothing; the scripts' catalog."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.utils import translation

from tdsystem.core import views_catalog
from tdsystem.events.models import Event

PAGES = [
    "/events/{id}/clock/",
    "/events/{id}/clock/?layout=draw",
    "/events/{id}/schedule/",
    "/events/{id}/seats/",
    "/events/{id}/seats/poster/",
    "/events/{id}/seats/draw/",
    "/events/{id}/chips/",
    "/events/{id}/results/",
]


def html_tag(response) -> str:
    assert response.status_code == 200
    return re.search(r"<html[^>]*>", response.content.decode()).group(0)


def address(page: str, event, lang: str | None = None) -> str:
    url = page.format(id=event.pk)
    return f"{url}{'&' if '?' in url else '?'}lang={lang}" if lang else url


@pytest.mark.parametrize("page", PAGES)
def test_it_answers_in_the_language_of_the_address(client, event, page):
    assert html_tag(client.get(address(page, event, "ja"))) == '<html lang="ja" dir="ltr">'


@pytest.mark.parametrize("page", PAGES)
def test_it_answers_arabic_right_to_left(client, event, page):
    assert html_tag(client.get(address(page, event, "ar"))) == '<html lang="ar" dir="rtl">'


@pytest.mark.parametrize("page", PAGES)
def test_it_answers_in_the_browsers_language(client, event, page):
    response = client.get(address(page, event), headers={"accept-language": "vi,en;q=0.5"})
    assert html_tag(response) == '<html lang="vi" dir="ltr">'
    assert response["Content-Language"] == "vi"


@pytest.mark.parametrize("page", PAGES)
def test_it_follows_the_events_screen_language_when_the_reader_chose_nothing(client, event, page):
    Event.objects.filter(pk=event.pk).update(screen_language="ar")
    response = client.get(address(page, event), headers={"accept-language": "ja"})
    assert html_tag(response) == '<html lang="ar" dir="rtl">'


@pytest.mark.parametrize("page", PAGES)
def test_the_readers_choice_outvotes_the_events_screen_language(client, event, page):
    Event.objects.filter(pk=event.pk).update(screen_language="ar")
    assert html_tag(client.get(address(page, event, "vi"))) == '<html lang="vi" dir="ltr">'
    # The cookie ?lang= left keeps the choice on the page's own refreshes.
    assert html_tag(client.get(address(page, event))) == '<html lang="vi" dir="ltr">'


def test_a_blank_screen_language_follows_the_browser(client, event):
    response = client.get(f"/events/{event.pk}/clock/", headers={"accept-language": "ja"})
    assert html_tag(response) == '<html lang="ja" dir="ltr">'


def test_the_screens_load_the_catalog_of_the_events_language(client, event):
    Event.objects.filter(pk=event.pk).update(screen_language="ja")
    for page in ("/events/{id}/clock/", "/events/{id}/seats/draw/"):
        html = client.get(page.format(id=event.pk)).content.decode()
        assert '<script src="/jsi18n/ja.js"></script>' in html


def test_the_clock_screen_offers_the_language_switcher(client, event):
    html = client.get(f"/events/{event.pk}/clock/?lang=ja").content.decode()
    assert 'class="lang-switch"' in html and '<option value="ja" lang="ja" selected>' in html


def test_names_keep_their_own_direction(client, event):
    Event.objects.filter(pk=event.pk).update(name="نور")
    for page in ("/events/{id}/clock/", "/events/{id}/seats/draw/", "/events/{id}/chips/"):
        html = client.get(address(page, event, "ar")).content.decode()
        assert "<bdi>نور</bdi>" in html


@pytest.mark.parametrize(
    ("code", "separator"), [("en", ","), ("ja", ","), ("vi", "."), ("ar", ".")]
)
def test_the_catalog_answers_per_language(client, db, code, separator):
    response = client.get(f"/jsi18n/{code}.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "max-age=3600" in response["Cache-Control"]
    body = response.content.decode()
    assert "django.gettext" in body or "gettext" in body
    assert f'"THOUSAND_SEPARATOR": "{separator}"' in body


def test_the_catalog_is_built_once_per_language(client, db, django_assert_num_queries):
    views_catalog._built.clear()
    first = client.get("/jsi18n/vi.js").content
    assert "vi" in views_catalog._built
    with django_assert_num_queries(0):
        assert client.get("/jsi18n/vi.js").content == first
    assert client.get("/jsi18n/en.js").content != first


def test_the_catalog_refuses_a_language_we_do_not_have(client, db):
    assert client.get("/jsi18n/xx.js").status_code == 404


@pytest.mark.parametrize(
    ("code", "shown"),
    [("en", "1,234,567"), ("ja", "1,234,567"), ("vi", "1.234.567"), ("ar", "1.234.567")],
)
def test_chip_counts_are_grouped_in_the_readers_locale_in_western_digits(code, shown):
    template = Template("{% load humanize_td %}{{ n|chips }}")
    with translation.override(code):
        assert template.render(Context({"n": 1234567})) == shown
