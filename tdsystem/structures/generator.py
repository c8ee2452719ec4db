"""The structure generator's services: propose (engine), check as an import is checked, save.

The engine (``tdsystem.engine.structure_gen``) computes the levels; here they become the rows
``check_levels`` reads, so a generated structure passes the very validation and warnings an
imported one does before it can be saved.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext, gettext_noop, ngettext

from tdsystem.core.actors import Actor
from tdsystem.core.log import Text, log_record
from tdsystem.core.numbers import grouped
from tdsystem.engine.structure_gen import GeneratorInputs, Proposal, Row, structure_generate

from .models import AnteType, Structure
from .services import Checked, StructureError, check_levels, structure_create

# The engine's "none" is a structure whose antes are all 0; its ante type does not matter.
MODEL_ANTE_TYPE = {
    "none": AnteType.EACH,
    "each": AnteType.EACH,
    "big-blind": AnteType.BIG_BLIND,
    "button": AnteType.BUTTON,
}


def structure_propose(inputs: GeneratorInputs) -> tuple[Proposal, Checked]:
    """The engine's proposal and the import validation's verdict on it."""
    proposal = structure_generate(inputs)
    return proposal, check_levels(level_rows(proposal))


def colour_up_note(row: Row) -> str:
    if not row.colour_up:
        return ""
    names = ", ".join(grouped(chip) for chip in row.colour_up)
    return ngettext(
        "Colour up the %(chips)s chips (smallest chip now %(smallest)s)",
        "Colour up the %(chips)s chips (smallest chip now %(smallest)s)",
        len(row.colour_up),
    ) % {"chips": names, "smallest": grouped(row.smallest_chip)}


def hours_minutes(minutes: int) -> str:
    """A length for people: "7 h 45 min"."""
    return gettext("%(hours)s h %(minutes)02d min") % {
        "hours": minutes // 60,
        "minutes": minutes % 60,
    }


def level_rows(proposal: Proposal) -> list[dict]:
    """The rows as an import gives them to ``check_levels`` (and ``structure_create``)."""
    rows: list[dict] = []
    for row in proposal.rows:
        if row.kind == "break":
            rows.append(
                {"kind": "break", "duration_minutes": row.minutes, "note": colour_up_note(row)}
            )
        else:
            rows.append(
                {
                    "kind": "level",
                    "small_blind": row.small_blind,
                    "big_blind": row.big_blind,
                    "ante": row.ante,
                    "duration_minutes": row.minutes,
                    "note": "",
                }
            )
    return rows


def _notes(proposal: Proposal, inputs: GeneratorInputs) -> str:
    return gettext(
        "Generated for %(entries)s entries of %(stack)s (chips %(chips)s): blinds grow about "
        "x%(ratio)s a level. Projected finish: the end of level %(level)s, %(hours)s h "
        "%(minutes)02d min after the start (the average stack of the last two players falls "
        "under %(bbs)s big blinds there)."
    ) % {
        "entries": grouped(inputs.entries),
        "stack": grouped(inputs.starting_stack),
        "chips": " ".join(grouped(c) for c in sorted(inputs.chips)),
        "ratio": grouped(proposal.ratio, 2),
        "level": proposal.final_level,
        "hours": proposal.projected_minutes // 60,
        "minutes": proposal.projected_minutes % 60,
        "bbs": proposal.finish_big_blinds,
    }


def structure_generated_save(*, name: str, inputs: GeneratorInputs, actor: Actor) -> Structure:
    """Generate and save a structure template. Raises StructureError (nothing saved) when
    the validation finds an error or a warning: a proposal is saved only when clean."""
    proposal, checked = structure_propose(inputs)
    entries, starting_stack = inputs.entries, inputs.starting_stack
    if checked.errors or checked.warnings:
        raise StructureError(checked.errors + checked.warnings)
    name = name.strip() or gettext("Generated: %(entries)s entries, %(stack)s stack") % {
        "entries": grouped(entries),
        "stack": grouped(starting_stack),
    }
    with transaction.atomic():
        structure, _warnings = structure_create(
            name=name,
            levels=level_rows(proposal),
            ante_type=MODEL_ANTE_TYPE[inputs.ante_type],
            starting_stack=starting_stack,
            notes=_notes(proposal, inputs),
        )
        log_record(
            event=None,
            actor=actor,
            action="structure.generate",
            summary=Text(
                gettext_noop("Structure %(name)s generated (%(levels)s levels)"),
                name=structure.name,
                levels=len(proposal.levels),
            ),
            data={
                "structure_id": structure.pk,
                "entries": entries,
                "starting_stack": starting_stack,
                "target_minutes": inputs.target_minutes,
                "projected_minutes": proposal.projected_minutes,
            },
        )
    return structure
