"""The static files' storage (core/staticstorage.py): each address worked out once a
process, the manifest's own answer; a name the manifest lacks refused every time."""

from __future__ import annotations

import json

import pytest

from tdsystem.core.staticstorage import ManifestStorage


@pytest.fixture
def storage(tmp_path, settings):
    settings.STATIC_URL = "/static/"
    manifest = {"paths": {"css/td.css": "css/td.0123abcd.css"}, "version": "1.1", "hash": "x"}
    (tmp_path / "staticfiles.json").write_text(json.dumps(manifest))
    (tmp_path / "css").mkdir()
    (tmp_path / "css" / "td.0123abcd.css").write_text("body{}")
    return ManifestStorage(location=tmp_path, base_url="/static/")


def test_an_address_is_the_manifests_and_worked_out_once(storage, monkeypatch):
    assert storage.url("css/td.css") == "/static/css/td.0123abcd.css"
    asked = []
    monkeypatch.setattr(storage, "stored_name", lambda name: asked.append(name) or "other")
    assert storage.url("css/td.css") == "/static/css/td.0123abcd.css"
    assert asked == []


def test_a_name_the_manifest_lacks_is_refused_every_time(storage):
    for _ in range(2):
        with pytest.raises(ValueError, match="Missing staticfiles manifest entry"):
            storage.url("css/none.css")
