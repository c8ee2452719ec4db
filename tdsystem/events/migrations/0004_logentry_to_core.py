# The log moved to core (tdsystem.core.models.LogEntry); its table stays where it is.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0003_event_starting_stack_gt_0"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="LogEntry")],
            database_operations=[],
        ),
    ]
