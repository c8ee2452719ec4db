"""The players' pages' push process: `uvicorn tdsystem.asgi_push:application`
(tdsystem/players/push.py; `runsystem` starts it beside the web server)."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdsystem.settings")
django.setup()

from tdsystem.players.push import application  # noqa: E402

__all__ = ["application"]
