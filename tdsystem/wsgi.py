"""WSGI entry point (gunicorn tdsystem.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdsystem.settings")
application = get_wsgi_application()
