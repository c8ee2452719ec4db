"""tdsystem: a poker tournament director system."""

from .celery import app as celery_app

__all__ = ("celery_app",)
