"""PostgreSQL as Django's own backend, with a pool check that costs no round trip (base.py)."""
