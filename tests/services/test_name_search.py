"""The seat search and the duplicate check read names as people do: case, width and
(for the search) accents do not count."""

from __future__ import annotations

import pytest

from tdsystem.seating import services
from tdsystem.seating.models import Player, name_key, search_key
from tdsystem.seating.selectors import seat_search
from tdsystem.simulation.seatings import ACTOR
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return make_event(600)


def register(event, name: str):
    return services.player_register(event=event, name=name, actor=ACTOR).entry


def found(event, query: str) -> list[str]:
    return [entry.player.name for entry in seat_search(event.pk, query)]


def test_it_folds_width_case_and_spacing_into_the_name_key():
    assert name_key("ＡＮＮ　ＬＥＥ") == name_key("ann lee")
    assert name_key("ｱﾝ ｶﾞﾙｼｱ") == name_key("アン ガルシア")
    assert name_key("José") != name_key("Jose")


def test_it_drops_accents_but_not_kana_voicing_from_the_search_key():
    assert search_key("Nguyễn Văn Đặng") == "nguyen van dang"
    assert search_key("José Łukasz Øster") == "jose lukasz oster"
    assert search_key("ガルシア") != search_key("カルシア")
    assert search_key("ｶﾞﾙｼｱ") == search_key("ガルシア")


def test_it_finds_a_vietnamese_name_typed_without_accents(event):
    register(event, "Nguyễn Thị Hoa")
    register(event, "Ann Lee")
    assert found(event, "Nguyen") == ["Nguyễn Thị Hoa"]
    assert found(event, "nguyễn") == ["Nguyễn Thị Hoa"]
    assert found(event, "THI HOA") == ["Nguyễn Thị Hoa"]


def test_it_finds_a_name_typed_in_full_width_letters(event):
    register(event, "ABC Poker")
    assert found(event, "ＡＢＣ") == ["ABC Poker"]
    assert found(event, "abc") == ["ABC Poker"]


def test_it_finds_katakana_typed_in_half_width(event):
    register(event, "ガルシア")
    register(event, "カルロス")
    assert found(event, "ｶﾞﾙｼｱ") == ["ガルシア"]
    assert found(event, "ｶﾞﾙ") == ["ガルシア"]


def test_it_finds_an_accented_name_from_its_accented_query(event):
    register(event, "José Ruiz")
    assert found(event, "josé") == ["José Ruiz"]
    assert found(event, "JOSE") == ["José Ruiz"]


def test_it_refuses_a_full_width_copy_of_a_name_as_a_duplicate(event):
    register(event, "Ann Lee")
    with pytest.raises(services.DuplicateName):
        register(event, "ＡＮＮ ＬＥＥ")


def test_it_keeps_the_name_as_entered_and_its_keys_on_import(event):
    services.players_import(event_id=event.pk, names=["Trần  Bảo", "ｶﾞﾙｼｱ"], actor=ACTOR)
    rows = dict(Player.objects.values_list("name", "search_key"))
    assert rows == {"Trần Bảo": "tran bao", "ｶﾞﾙｼｱ": "ガルシア"}
    assert found(event, "tran") == ["Trần Bảo"]


def test_it_updates_the_keys_when_a_name_changes(event):
    player = register(event, "Lê Văn").player
    player.name = "Phạm Văn"
    player.save(update_fields=["name"])
    assert found(event, "pham") == ["Phạm Văn"]
    assert found(event, "le van") == []
