"""The screens' per-process cache: an expired entry is computed once, whoever asks."""

from __future__ import annotations

import threading
import time

import pytest

from tdsystem.events.selectors import _ShortCache


def test_threads_asking_at_once_compute_it_once():
    cache, computed = _ShortCache(), []

    def compute():
        computed.append(1)
        time.sleep(0.05)
        return "figures"

    barrier = threading.Barrier(6)
    answers = []

    def ask():
        barrier.wait()
        answers.append(cache.get("key", 60, compute))

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == ["figures"] * 6
    assert len(computed) == 1


def test_it_computes_again_once_expired():
    cache, computed = _ShortCache(), []
    assert cache.get("key", 0.01, lambda: computed.append(1) or len(computed)) == 1
    time.sleep(0.02)
    assert cache.get("key", 0.01, lambda: computed.append(1) or len(computed)) == 2


def test_a_failed_computation_is_not_kept():
    cache = _ShortCache()

    def fail():
        raise LookupError("no event")

    with pytest.raises(LookupError):
        cache.get("key", 60, fail)
    assert cache.get("key", 60, lambda: "found") == "found"


def test_while_one_thread_computes_an_expired_entry_the_others_get_the_old_one():
    """The seats of the last second, not a wait, while the new ones are computed (an entry
    nobody has yet is waited for: the first test)."""
    cache = _ShortCache()
    assert cache.get("seats", 0.01, lambda: "old seats") == "old seats"
    time.sleep(0.02)
    computing, release = threading.Event(), threading.Event()

    def slow():
        computing.set()
        release.wait(5)
        return "new seats"

    refresher = threading.Thread(target=lambda: answers.append(cache.get("seats", 0.01, slow)))
    answers: list[str] = []
    refresher.start()
    assert computing.wait(5)
    started = time.monotonic()
    assert cache.get("seats", 0.01, lambda: "computed twice") == "old seats"
    assert time.monotonic() - started < 1  # answered at once, not after the computation
    release.set()
    refresher.join(5)
    assert answers == ["new seats"]
    assert cache.get("seats", 60, lambda: "computed twice") == "new seats"
