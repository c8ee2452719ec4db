"""Names sort as people read them, not by their bytes."""

from __future__ import annotations

from tdsystem.core.collation import name_order


def test_accents_case_and_width_sort_beside_the_plain_letters():
    names = ["Zed", "ánh", "Émile", "ＡＢＣ", "abc", "Anh", "emile"]
    assert sorted(names, key=name_order) == ["abc", "ＡＢＣ", "Anh", "ánh", "emile", "Émile", "Zed"]


def test_scripts_keep_their_own_order_after_the_latin_names():
    names = ["نور", "Nguyễn", "鈴木", "すずき", "أحمد"]
    assert sorted(names, key=name_order) == ["Nguyễn", "أحمد", "نور", "すずき", "鈴木"]


def test_the_public_seat_list_reads_by_name_as_people_read_it(event):
    from tdsystem.seating.selectors import seat_list
    from tdsystem.seating.testing import arrange

    people = arrange(event, {1: [1, 2, 3, 4]})
    names = {"T1S1": "Zoë", "T1S2": "ánh", "T1S3": "Anh", "T1S4": "Émile"}
    for key, name in names.items():
        player = people[key].player
        player.name = name
        player.save()
    assert [row["player"] for row in seat_list(event.pk)] == ["Anh", "ánh", "Émile", "Zoë"]
