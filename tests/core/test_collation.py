"""Names sort as people read them, not by their bytes."""

from __future__ import annotations

from tdsystem.core.collation import name_order


def test_accents_case_and_width_sort_beside_the_plain_letters():
    names = ["Zed", "ánh", "Émile", "ＡＢＣ", "abc", "Anh", "emile"]
    assert sorted(names, key=name_order) == ["abc", "ＡＢＣ", "Anh", "ánh", "emile", "Émile", "Zed"]


def test_scripts_keep_their_own_order_after_the_latin_names():
    names = ["نور", "Nguyễn", "鈴木", "すずき", "أحمد"]
    assert sorted(names, key=name_order) == ["Nguyễn", "أحمد", "نور", "すずき", "鈴木"]
