"""Run jobs at the same moment, each in its own thread and database connection."""

from __future__ import annotations

import threading

from django.db import connection


def run_together(*jobs, timeout: float = 30):
    """Start every job at one moment; return each job's result or the exception it raised."""
    barrier = threading.Barrier(len(jobs))
    results: list = [None] * len(jobs)

    def wrap(index, job):
        try:
            barrier.wait(10)
            results[index] = job()
        except BaseException as exc:  # handed back to the test, which compares them
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=wrap, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    return results


def errors_of(results: list) -> list[BaseException]:
    return [r for r in results if isinstance(r, BaseException)]
