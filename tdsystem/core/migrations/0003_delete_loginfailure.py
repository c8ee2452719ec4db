# Failed logins are counted by django-axes (its AccessAttempt table) since this migration.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0002_login_failures"),
    ]

    operations = [
        migrations.DeleteModel(
            name="LoginFailure",
        ),
    ]
