"""The Celery app: tasks are autodiscovered from each app's tasks.py."""

from __future__ import annotations

import gc
import os

from celery import Celery
from celery.signals import beat_init, worker_process_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdsystem.settings")

app = Celery("tdsystem")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_ready.connect
@worker_process_init.connect
@beat_init.connect
def _freeze_startup_objects(**_kwargs) -> None:
    """Keep what start-up loaded (Django, the apps, Celery: some 140,000 objects) out of
    the garbage collector's full passes, which otherwise walk them all (30 ms, measured on
    a loaded machine) at whatever moment they fall, a level change's included."""
    gc.collect()
    gc.freeze()
