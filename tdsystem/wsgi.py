"""WSGI entry point (gunicorn tdsystem.wsgi)."""

import os

from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdsystem.settings")
application = get_wsgi_application()

# A web server whose pages would all answer 500 for want of static files does not start
# (core/static_check.py): gunicorn stops with this message instead.
from tdsystem.core.static_check import static_files_problem  # noqa: E402

_problem = static_files_problem()
if _problem:
    raise ImproperlyConfigured(_problem)
