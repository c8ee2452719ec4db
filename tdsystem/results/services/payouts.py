"""The director's payout plan: a standard table or custom percentages, and a rounding unit."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Grouped, Text, log_record, ngettext_noop
from tdsystem.engine import payouts as rules
from tdsystem.events.models import Event

from ..errors import ResultsError
from ..models import CUSTOM, PayoutPlan
from . import standings

TABLE_NAMES = (*rules.STANDARD_TABLES, *rules.FIXED_TABLES, CUSTOM)
CENT = Decimal("0.01")


def unit_check(unit: Decimal | str | int | None) -> Decimal | None:
    """The rounding unit as stored; None is automatic (PayoutPlan.rounding)."""
    if unit is None or unit == "":
        return None
    try:
        value = Decimal(str(unit))
    except (InvalidOperation, ValueError):
        raise ResultsError(gettext("the rounding unit must be a number"), field="unit") from None
    if not value.is_finite() or value <= 0:
        raise ResultsError(
            gettext("the rounding unit must be above 0 (e.g. 1, 5 or 0.01)"), field="unit"
        )
    if value % CENT:
        raise ResultsError(gettext("the rounding unit is a whole number of cents"), field="unit")
    if value > Decimal(100_000):
        raise ResultsError(gettext("the rounding unit is at most 100,000"), field="unit")
    return value


def payout_plan_update(
    *,
    event_id: int,
    table: str,
    actor: Actor,
    unit: Decimal | str | int | None = None,
    percentages: Sequence[Decimal | str | int] = (),
) -> PayoutPlan:
    """Change the payout plan; every prize already awarded is worked out again. `unit`
    None rounds automatically (a tenth of the buy-in, in a usual unit)."""
    if table not in TABLE_NAMES:
        raise ResultsError(
            gettext("choose one of: %(names)s") % {"names": ", ".join(TABLE_NAMES)}, field="table"
        )
    unit = unit_check(unit)
    custom: list[str] = []
    if table == CUSTOM:
        try:
            custom = [str(p) for p in rules.check_custom(percentages)]
        except rules.PayoutError as exc:
            raise ResultsError(str(exc), field="percentages") from None
        if len(custom) > 1000:
            raise ResultsError(gettext("at most 1,000 paid places"), field="percentages")
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=ResultsError)
        plan = standings.plan_for(event)
        plan.table, plan.percentages, plan.unit = table, custom, unit
        fld = standings.field_read(event)
        refusal = standings.unpaid_message(plan, fld.entries, fld.pool)
        if refusal:
            raise ResultsError(refusal, field="unit")
        plan.save(update_fields=["table", "percentages", "unit", "updated_at"])
        changed = standings.standings_refresh(
            event=event, plan=plan, field=standings.field_read(event)
        )
        shown = (
            Text(gettext_noop("custom: %(percentages)s %%"), percentages=" / ".join(custom))
            if custom
            else table
        )
        log_record(
            event=event,
            actor=actor,
            action="payouts.plan",
            summary=Text(
                ngettext_noop(
                    "Payouts: %(plan)s, rounded to %(unit)s; %(count)s prize worked out again",
                    "Payouts: %(plan)s, rounded to %(unit)s; %(count)s prizes worked out again",
                ),
                plan=shown,
                unit=Grouped(plan.rounding),
                count=changed,
            ),
            data={
                "table": table,
                "percentages": custom,
                "unit": str(plan.rounding),
                "automatic": unit is None,
            },
        )
    return plan


def standings_update(*, event_id: int, actor: Actor) -> int:
    """Work the places and prizes out again now (after late entries, rebuys or add-ons)."""
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=ResultsError)
        plan = standings.plan_for(event)
        fld = standings.field_read(event)
        if standings.is_current(plan, fld):
            return 0
        changed = standings.standings_refresh(event=event, plan=plan, field=fld)
        log_record(
            event=event,
            actor=actor,
            action="payouts.refresh",
            summary=Text(
                ngettext_noop(
                    "Field %(entries)s entries, pool %(pool)s: %(count)s finish updated",
                    "Field %(entries)s entries, pool %(pool)s: %(count)s finishes updated",
                ),
                entries=fld.entries,
                pool=Grouped(fld.pool),
                count=changed,
            ),
            data={"entries": fld.entries, "pool": str(fld.pool), "changed": changed},
        )
    return changed
