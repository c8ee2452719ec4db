"""The Celery app: tasks are autodiscovered from each app's tasks.py."""

from __future__ import annotations

import gc
import os

from celery import Celery
from celery.signals import beat_init, worker_init, worker_process_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdsystem.settings")

app = Celery("tdsystem")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _poll_the_sqlite_broker_often(**_kwargs) -> None:
    """The SQLite broker is polled, once a second by kombu's default: a task due less than
    that after it was sent (the first level's end after a start, the beat tick) could reach
    the worker after its time. kombu's `polling_interval` transport option would say it,
    but its SQLAlchemy transport hands every option to create_engine, which refuses that
    one; so it is said on the transport, in the worker only (the one that polls): every
    other process (the web's, each command's) starts without importing SQLAlchemy. Five
    polls a second are five reads of an idle table."""
    if str(app.conf.broker_url).startswith("sqla+"):
        from kombu.transport import sqlalchemy

        sqlalchemy.Transport.polling_interval = 0.2


@worker_ready.connect
@worker_process_init.connect
@beat_init.connect
def _freeze_startup_objects(**_kwargs) -> None:
    """Keep what start-up loaded (Django, the apps, Celery: some 140,000 objects) out of
    the garbage collector's full passes, which otherwise walk them all (30 ms, measured on
    a loaded machine) at whatever moment they fall, a level change's included."""
    gc.collect()
    gc.freeze()
