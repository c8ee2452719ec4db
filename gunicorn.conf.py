"""gunicorn settings for tdsystem: `gunicorn tdsystem.wsgi`, run from the project directory,
reads this file. Options on the command line override it; so do these variables:
WEB_BIND (127.0.0.1:8000), WEB_WORKERS (4), WEB_THREADS (4), and WEB_RUNNING (2), the
requests of a process that run the application at once (tdsystem/serving.py).
"""

from __future__ import annotations

import os

bind = os.environ.get("WEB_BIND", "127.0.0.1:8000")
# gunicorn's gthread worker, but a connection not kept alive is closed off the thread that
# accepts and dispatches (tdsystem/serving.py: a phone's close stalled the whole worker),
# each worker serves the public pages once to itself before it accepts (the first
# request of each kind cost hundreds of milliseconds of CPU in a fresh process), then keeps
# what it loaded out of the garbage collector's full passes (they stalled it 92-198 ms),
# and a read whose client has gone is dropped.
worker_class = "tdsystem.serving.Worker"
# Four processes of four threads on two cores: at the festival's busy minute a bust-out
# waited less for its process's interpreter lock among 4 threads than among 8 (its
# slowest of 100 took 96-172 ms against 185-246 with 3 processes of 8, in turns;
# docs/load-and-faults.md), the screens' answers no slower.
workers = int(os.environ.get("WEB_WORKERS", "4"))
threads = int(os.environ.get("WEB_THREADS", "4"))
keepalive = 30  # clock screens poll every second on one connection
backlog = 2048
timeout = 30
