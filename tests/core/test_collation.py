"""Names sort as people read them, not by their bytes, and in the reader's language."""

from __future__ import annotations

from django.utils import translation

from tdsystem.core import collation
from tdsystem.core.collation import name_order


def _sorted(names: list[str], language: str) -> list[str]:
    return sorted(names, key=lambda name: name_order(name, language))


def test_accents_case_and_width_sort_beside_the_plain_letters():
    names = ["Zed", "ánh", "Émile", "ＡＢＣ", "abc", "Anh", "emile"]
    assert sorted(names, key=name_order) == ["abc", "ＡＢＣ", "Anh", "ánh", "emile", "Émile", "Zed"]


def test_scripts_keep_their_own_order_after_the_latin_names():
    names = ["نور", "Nguyễn", "鈴木", "すずき", "أحمد"]
    assert sorted(names, key=name_order) == ["Nguyễn", "أحمد", "نور", "すずき", "鈴木"]


def test_it_sorts_vietnamese_letters_with_marks_after_their_base_letter():
    names = ["Đặng", "Dương", "Ân", "Ăn", "Anh", "Ông", "Ơn", "Oanh", "Ưng", "Uyên", "Ê", "Em"]
    assert _sorted(names, "vi") == [
        "Anh",
        "Ăn",
        "Ân",
        "Dương",
        "Đặng",
        "Em",
        "Ê",
        "Oanh",
        "Ông",
        "Ơn",
        "Uyên",
        "Ưng",
    ]
    # The default table reads the marks as accents: "Ăn" before "Anh", "Đặng" before "Dương".
    assert _sorted(["Anh", "Ăn", "Dương", "Đặng"], "en") == ["Ăn", "Anh", "Đặng", "Dương"]


def test_it_orders_the_vietnamese_tones_as_the_alphabet_teaches_them():
    tones = ["Mạ", "Má", "Mã", "Mả", "Mà", "Ma"]
    assert _sorted(tones, "vi") == ["Ma", "Mà", "Mả", "Mã", "Má", "Mạ"]
    # A tone under a marked letter ("ặ": the dot comes first in NFD) keeps the letter.
    assert _sorted(["Ặt", "Ăn", "Ắt", "Ât", "Az"], "vi") == ["Az", "Ăn", "Ắt", "Ặt", "Ât"]


def test_it_sorts_kana_names_in_gojuon_order_with_the_long_vowel_as_its_vowel():
    names = [
        "わたなべ",
        "やまだ",
        "たなか",
        "すずき",
        "さとう",
        "かとう",
        "がとう",
        "いとう",
        "あおき",
    ]
    assert _sorted(names, "ja") == [
        "あおき",
        "いとう",
        "かとう",
        "がとう",
        "さとう",
        "すずき",
        "たなか",
        "やまだ",
        "わたなべ",
    ]
    # "コーヘイ" reads "コオヘイ": after "コウ", before "コカ" (the default table puts "ー" first).
    long = ["コカ", "コーヘイ", "コウ", "コア", "ゴトウ"]
    assert _sorted(long, "ja") == ["コア", "コウ", "コーヘイ", "コカ", "ゴトウ"]
    assert _sorted(long, "en")[0] == "コーヘイ"


def test_it_sorts_arabic_names_in_the_alphabet_order():
    names = ["يوسف", "وليد", "نور", "محمد", "كريم", "فاطمة", "عمر", "سارة", "خالد", "حسن", "بلال"]
    assert _sorted(names, "ar") == list(reversed(names))
    # ة is a form of ت, after it: not a letter of its own before it.
    assert _sorted(["حمزه", "حمزة", "حمزت"], "ar") == ["حمزت", "حمزة", "حمزه"]
    assert _sorted(["حمزه", "حمزة", "حمزت"], "en") == ["حمزة", "حمزت", "حمزه"]


def test_it_follows_the_active_language():
    names = ["Đặng", "Dương"]
    with translation.override("vi"):
        assert sorted(names, key=name_order) == ["Dương", "Đặng"]
    with translation.override("en"):
        assert sorted(names, key=name_order) == ["Đặng", "Dương"]


def test_the_public_seat_list_reads_by_name_as_people_read_it(event):
    from tdsystem.seating.selectors import seat_list
    from tdsystem.simulation.seatings import arrange

    people = arrange(event, {1: [1, 2, 3, 4]})
    names = {"T1S1": "Zoë", "T1S2": "ánh", "T1S3": "Anh", "T1S4": "Émile"}
    for key, name in names.items():
        player = people[key].player
        player.name = name
        player.save()
    assert [row["player"] for row in seat_list(event.pk)] == ["Anh", "ánh", "Émile", "Zoë"]


def test_the_seat_list_and_search_sort_in_the_readers_language(event):
    from tdsystem.seating.selectors import seat_list, seat_search
    from tdsystem.simulation.seatings import arrange

    people = arrange(event, {1: [1, 2, 3]})
    for key, name in {"T1S1": "Đặng Minh", "T1S2": "Dương Minh", "T1S3": "Ăn Minh"}.items():
        people[key].player.name = name
        people[key].player.save()
    with translation.override("vi"):
        assert [row["player"] for row in seat_list(event.pk)] == [
            "Ăn Minh",
            "Dương Minh",
            "Đặng Minh",
        ]
        found = [e.player.name for e in seat_search(event.pk, "minh")]
        assert found == ["Ăn Minh", "Dương Minh", "Đặng Minh"]
    with translation.override("en"):
        assert [row["player"] for row in seat_list(event.pk)] == [
            "Ăn Minh",
            "Đặng Minh",
            "Dương Minh",
        ]


def test_the_names_of_the_largest_field_keep_their_keys_between_two_seat_lists():
    # 10,112 entries (the largest Main Event), read in two languages: the second seat list
    # works no key out again.

    names = [f"Player {i:05d}" for i in range(10_112)]
    collation._key.cache_clear()
    for language in ("en", "vi"):
        sorted(names, key=lambda n: name_order(n, language))
    misses = collation._key.cache_info().misses
    for language in ("en", "vi"):
        sorted(names, key=lambda n: name_order(n, language))
    assert collation._key.cache_info().misses == misses
