from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "tdsystem.core"
    label = "core"

    def ready(self) -> None:
        # Load the Celery app with Django so @shared_task binds to it in every process.
        from tdsystem import celery  # noqa: F401

        # A staff user's saved language is put in the session at login (a signal).
        from . import languages  # noqa: F401
