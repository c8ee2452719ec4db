"""tdsystem: a poker tournament director system.

The Celery app lives in tdsystem.celery and is loaded by the core app at start-up, not
here, so that the pure engine (python -m tdsystem.engine) never imports Django or Celery.
"""
