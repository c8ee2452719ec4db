"""simulate_event --dealers: the rotation beside a simulated evening, and its figures."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tdsystem.seating.signals import moves_applied

pytestmark = pytest.mark.django_db


# The winner's follow-ups (the clock's finish) run on commit: the test commits.
@pytest.mark.django_db(transaction=True)
def test_it_runs_the_rotation_beside_the_event_and_prints_the_fairness_figures():
    receivers = len(moves_applied.receivers)
    out = StringIO()
    call_command("simulate_event", "--players", "60", "--seed", "2", "--dealers", "9", stdout=out)
    dealers = json.loads(out.getvalue())["dealers"]
    assert dealers["dealers"] == 9 and dealers["pushes"] >= 5
    assert dealers["breaks_per_dealer"]["max"] - dealers["breaks_per_dealer"]["min"] <= 1
    assert dealers["max_table_wait_minutes"] == 0
    assert dealers["final_table_kept_from_minute"] is not None
    # The receivers held off during the run are back.
    assert len(moves_applied.receivers) == receivers


def test_it_refuses_dealers_beside_a_festival():
    with pytest.raises(CommandError, match="festival"):
        call_command(
            "simulate_event", "--players", "60", "--seed", "1", "--flights", "2", "--dealers", "9"
        )
