"""Play a whole tournament through the real services and check it after every step.

    python manage.py simulate_event --players 1000 --seed 1 [--seats-per-table 9]

It runs on the configured database and creates its own event, "Simulation <seed>",
with venue tables of its own. It prints a JSON summary; a broken invariant stops it
with an error naming the step.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tdsystem.results.simulation import InvariantBroken, Simulation


class Command(BaseCommand):
    help = "Simulate a tournament from registration to the winner, checking the invariants."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--seed", type=int, required=True)
        parser.add_argument("--seats-per-table", type=int, default=9)
        parser.add_argument(
            "--full-check-every",
            type=int,
            default=None,
            help="steps between full checks (default: every step up to 200 players, else "
            "every players/20 steps, at least 100); the step checks run after every step",
        )

    def handle(self, *args, **options) -> None:
        try:
            simulation = Simulation(
                players=options["players"],
                seed=options["seed"],
                seats_per_table=options["seats_per_table"],
                full_every=options["full_check_every"],
                progress=lambda text: self.stderr.write(text) if options["verbosity"] > 1 else None,
            )
            summary = simulation.run()
        except (ValueError, InvariantBroken) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(json.dumps(summary, indent=2))
