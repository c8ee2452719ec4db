# Each event's staff. Before this, every director and floor account acted on every event:
# on upgrade each keeps that, as staff of every event there is (a flight has the staff of
# the event it is a flight of, so only events that are no flight get rows).

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

# The groups, and the role each gives on the events (core.access's names, said here as
# they are today: a migration does not follow later changes of the code).
ROLES = ("director", "floor")


def staff_every_event(apps, schema_editor):
    Event = apps.get_model("events", "Event")
    EventStaff = apps.get_model("core", "EventStaff")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    events = list(Event.objects.filter(parent__isnull=True).values_list("pk", flat=True))
    places = []
    for user in User.objects.filter(groups__name__in=ROLES).distinct():
        names = set(user.groups.filter(name__in=ROLES).values_list("name", flat=True))
        role = "director" if "director" in names else "floor"
        places += [EventStaff(event_id=pk, user_id=user.pk, role=role) for pk in events]
    EventStaff.objects.bulk_create(places, batch_size=1000, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0008_login_code"),
        ("events", "0011_festivals"),
        ("auth", "0012_alter_user_first_name_max_length"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="EventStaff",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "role",
                    models.CharField(
                        choices=[("director", "Director"), ("floor", "Floor")], max_length=8
                    ),
                ),
                ("added_at", models.DateTimeField(auto_now_add=True)),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="staff",
                        to="events.event",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="event_staff",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("user", "event"), name="event_staff_once")
                ],
            },
        ),
        migrations.RunPython(staff_every_event, migrations.RunPython.noop),
    ]
