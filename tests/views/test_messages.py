"""Messages after a redirect ("Created ...", "Archived ...") render styled, whatever their level."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.messages import constants

from tests.services.test_event_life import finished_event

CSS = Path(settings.BASE_DIR) / "static" / "css" / "td.css"


@pytest.mark.parametrize("tag", sorted(constants.DEFAULT_TAGS.values()))
def test_it_styles_every_message_level(tag):
    css = re.sub(r"/\*.*?\*/", "", CSS.read_text(), flags=re.S)
    rules = re.findall(r"([^{}]+)\{([^}]*)\}", css)
    styled = [
        body
        for selectors, body in rules
        if any(s.strip() == f".flash.{tag}" for s in selectors.split(","))
    ]
    assert styled and all("border-color" in body for body in styled), tag


@pytest.mark.django_db
def test_a_success_message_renders_with_its_tag_and_as_a_status(client, director):
    event = finished_event()
    client.force_login(director)
    page = client.post(f"/console/events/{event.pk}/archive", follow=True).content.decode()
    assert f'<div class="flash success" role="status">Archived {event.name}</div>' in page


@pytest.mark.django_db
def test_an_error_message_renders_as_an_alert(client, director, event):
    client.force_login(director)
    page = client.post(f"/console/events/{event.pk}/archive", follow=True).content.decode()
    assert '<div class="flash error" role="alert">' in page
