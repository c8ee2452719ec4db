"""SQLite as Django's own backend, every date and time it reads within the system's range
(base.py)."""
