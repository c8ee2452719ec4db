# The log of changes, moved here from the events app: only the model's home changes,
# its table (events_logentry) and its rows stay as they are.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0003_delete_loginfailure"),
        ("events", "0004_logentry_to_core"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="LogEntry",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "at",
                            models.DateTimeField(
                                db_index=True, help_text="When the change took effect."
                            ),
                        ),
                        ("recorded_at", models.DateTimeField(auto_now_add=True)),
                        ("actor_label", models.CharField(max_length=150)),
                        ("action", models.CharField(max_length=40)),
                        ("summary", models.CharField(max_length=300)),
                        ("data", models.JSONField(blank=True, default=dict)),
                        ("undone_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "actor",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="event_log_entries",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "event",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="log",
                                to="events.event",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "events_logentry",
                        "ordering": ["-at", "-id"],
                        "indexes": [models.Index(fields=["event", "-at"], name="log_event_at")],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
