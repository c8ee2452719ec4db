"""gunicorn's threaded worker (gthread) with one change, named in gunicorn.conf.py.

gunicorn 27 closes a connection that is not kept alive "gracefully" (RFC 9112 section
9.6): it half-closes, then reads until the client closes its side too, for up to 2 s, so
that unread request bytes do not turn the close into a reset. It does that on the worker's
main thread, the one that accepts connections and hands requests to the threads: while it
waits for one phone to close, the worker answers nobody. At the festival's busy minute
(benchmarks/bench_load.py: 3,000 phones each on a fresh connection while 300 screens poll)
each worker's main thread spent about 30% of the run waiting there, up to 0.43 s at a
time. Here the same close runs on a small pool of its own, and the main thread goes on.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from gunicorn.workers.gthread import ThreadWorker

# Closes waiting for their client at once, per worker; more wait their turn in the queue
# (each gives up after gunicorn's 2 s), holding only their socket.
CLOSERS = 4


class Worker(ThreadWorker):
    def init_process(self) -> None:
        self.closers = ThreadPoolExecutor(CLOSERS, thread_name_prefix="close")
        super().init_process()  # runs the worker until it stops

    def finish_request(self, conn, fs) -> None:
        if "close" not in vars(conn):
            close = conn.close

            def close_elsewhere(graceful: bool = False) -> None:
                if graceful:
                    self.closers.submit(close, True)
                else:
                    close()

            conn.close = close_elsewhere
        super().finish_request(conn, fs)
