"""Compare the counters the database's triggers keep with the rows they count."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tdsystem.results.counters import counters_check


class Command(BaseCommand):
    help = (
        "Count the seated players of each table, each event's tables by head count and "
        "each event's entries again, and compare them with the counters the database's "
        "triggers keep (seating.TableCount, seating.SpreadCount, results.FieldCount). "
        "Exits 1 when any differs; with --fix, writes the counted values in their place "
        "and exits 0."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--fix", action="store_true", help="write the counted values where they differ"
        )

    def handle(self, *args, fix: bool, **options) -> None:
        differences = counters_check(fix=fix)
        for difference in differences:
            self.stdout.write(str(difference))
        if not differences:
            self.stdout.write("Every counter agrees with the rows it counts.")
        elif fix:
            self.stdout.write(f"Fixed {len(differences)} counter row(s).")
        else:
            raise CommandError(
                f"{len(differences)} counter row(s) differ from the rows they count: "
                "run check_counters --fix to write the counted values"
            )
