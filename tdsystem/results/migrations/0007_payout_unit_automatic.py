"""Prizes rounded automatically by default (a tenth of the buy-in in a usual unit): the
unit may be empty. Every event made before keeps the unit of 1 it was paid with, so no
prize already shown or paid changes: an event without a plan of its own gets one."""

from decimal import Decimal

from django.db import migrations, models


def keep_the_unit_of_one(apps, schema_editor):
    Event = apps.get_model("events", "Event")
    PayoutPlan = apps.get_model("results", "PayoutPlan")
    planless = Event.objects.filter(payout_plan__isnull=True).values_list("pk", flat=True)
    PayoutPlan.objects.bulk_create(
        [PayoutPlan(event_id=pk, unit=Decimal(1)) for pk in planless.iterator()],
        batch_size=500,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0011_festivals"),
        ("results", "0006_finish_paid"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="payoutplan",
            name="payout_unit_positive",
        ),
        migrations.AlterField(
            model_name="payoutplan",
            name="unit",
            field=models.DecimalField(
                blank=True, decimal_places=2, default=None, max_digits=10, null=True
            ),
        ),
        migrations.AddConstraint(
            model_name="payoutplan",
            constraint=models.CheckConstraint(
                condition=models.Q(("unit__isnull", True), ("unit__gt", 0), _connector="OR"),
                name="payout_unit_positive",
            ),
        ),
        migrations.RunPython(keep_the_unit_of_one, migrations.RunPython.noop),
    ]
