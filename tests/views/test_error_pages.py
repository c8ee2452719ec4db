"""The 404, 403 and 500 pages: the house look, where to go next, no debug detail; the API
keeps its JSON errors."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory

from tdsystem.core import errors

pytestmark = pytest.mark.django_db


def test_it_answers_an_unknown_page_with_the_house_404(client):
    response = client.get("/no/such/page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert "This page is not here" in html and "css/td" in html
    assert 'href="/seats/"' in html  # the room's current seat lookup
    assert 'href="/"' in html and 'href="/console/"' in html
    assert "Traceback" not in html and "urlpatterns" not in html


def test_it_answers_an_unknown_api_url_in_json(client):
    response = client.get("/api/no-such-thing")
    assert response.status_code == 404
    assert response.json() == {"error": "no such URL: /api/no-such-thing"}


def test_it_tells_a_visitor_a_staff_page_needs_a_staff_login():
    request = RequestFactory().get("/console/secret")
    request.user = AnonymousUser()
    response = errors.permission_denied(request, PermissionDenied())
    html = response.content.decode()
    assert response.status_code == 403
    assert "You may not open this page" in html and 'href="/login/"' in html


def test_the_500_page_needs_no_database_and_no_static_files(django_assert_num_queries):
    request = RequestFactory().get("/console/")
    with django_assert_num_queries(0):
        response = errors.server_error(request)
    html = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong" in html and "/static/" not in html


def test_the_api_500_is_json():
    response = errors.server_error(RequestFactory().get("/api/events"))
    assert response.status_code == 500 and "error" in json.loads(response.content)
