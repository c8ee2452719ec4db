"""Structure validation, import and export, and the published templates."""

from __future__ import annotations

import pytest

from tdsystem.structures import services
from tdsystem.structures.models import Structure
from tdsystem.structures.published import TEMPLATES

pytestmark = pytest.mark.django_db

CSV = """kind,small_blind,big_blind,ante,small_bet,big_bet,duration_minutes,note
level,100,200,25,,,20,
level,150,300,25,,,20,
break,,,,,,10,Colour up the 25s
level,200,400,50,,,20,
"""


def test_it_imports_csv_and_exports_the_same_levels():
    data = services.parse_csv(CSV)
    structure, warnings = services.structure_create(name="Deepstack", levels=data["levels"])
    assert warnings == []
    levels = list(structure.levels.order_by("position"))
    assert [lv.kind for lv in levels] == ["level", "level", "break", "level"]
    assert levels[2].note == "Colour up the 25s" and levels[2].duration_seconds == 600
    assert services.to_csv(structure) == CSV
    again = services.parse_json(services.to_json(structure))
    assert again["levels"] == services.to_dict(structure)["levels"]


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ({"small_blind": 200, "big_blind": 200, "duration_minutes": 20}, "must be less than"),
        ({"small_blind": -5, "big_blind": 200, "duration_minutes": 20}, "is negative"),
        ({"small_blind": 100, "big_blind": 200, "duration_minutes": 0}, "more than 0"),
        ({"small_blind": "ten", "big_blind": 200, "duration_minutes": 20}, "not a whole number"),
        ({"small_blind": 100, "duration_minutes": 20}, "big blind: missing"),
        ({"kind": "pause", "duration_minutes": 20}, "must be 'level' or 'break'"),
    ],
)
def test_it_refuses_bad_levels_naming_the_level(row, message):
    levels = [{"small_blind": 50, "big_blind": 100, "duration_minutes": 20}, row]
    with pytest.raises(services.StructureError, match=message):
        services.structure_create(name="Bad", levels=levels)
    assert not Structure.objects.filter(name="Bad").exists()


def test_blinds_never_decrease():
    levels = [
        {"small_blind": 100, "big_blind": 200, "duration_minutes": 20},
        {"small_blind": 75, "big_blind": 150, "duration_minutes": 20},
    ]
    with pytest.raises(services.StructureError, match="level 2: the small blind 75 is lower"):
        services.structure_create(name="Down", levels=levels)


def test_the_published_typo_is_flagged_and_can_be_confirmed():
    wpt = TEMPLATES[0]()
    rows = [dict(r) for r in wpt["levels"]]
    level_25 = [r for r in rows if r["kind"] == "level"][24]
    level_25["big_blind"] = 30_000  # as printed on the published sheet
    checked = services.check_levels(rows)
    assert any("level 25: the big blind 30,000 breaks the pattern" in w for w in checked.warnings)
    assert any("level 25: the big blind 30,000 is lower" in e for e in checked.errors)
    level_25["big_blind"] = 60_000  # an odd step that is not a decrease: a warning only
    with pytest.raises(services.StructureError, match="confirm to save anyway"):
        services.structure_create(name="WPT odd", levels=rows)
    structure, warnings = services.structure_create(
        name="WPT odd", levels=rows, confirm_warnings=True
    )
    assert warnings and structure.levels.count() == len(rows)


def test_the_published_templates_install_once():
    services.templates_install()
    services.templates_install()
    assert Structure.objects.filter(is_template=True).count() == 4
    wsop = Structure.objects.get(name__startswith="WSOP")
    assert wsop.ante_type == "big-blind" and wsop.starting_stack == 60_000
    assert list(wsop.levels.values_list("ante", flat=True)) == [0, 200, 300, 400, 500, 600]


def test_bad_json_gets_a_clear_message():
    with pytest.raises(services.StructureError, match="not valid JSON"):
        services.parse_json("{levels: [")


def test_a_csv_without_header_is_refused():
    with pytest.raises(services.StructureError, match="header row"):
        services.parse_csv("100,200,25\n")
