"""The rules' bounded stores of kept answers are shared by the threads that run rules steps
(a heavy game's in a worker thread, a light one's on the event loop): a store filling up in
two threads at once must never fail a step."""

from __future__ import annotations

import sys
import threading

from rules.tora.kept import keep


def test_two_threads_filling_one_full_store_never_fail() -> None:
    store: dict[int, int] = {}
    failures: list[BaseException] = []
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch between any two bytecodes, as under load

    def fill(start: int) -> None:
        try:
            for key in range(start, start + 40_000):
                assert keep(store, key, key, limit=8) == key
        except BaseException as exc:  # any failure is the finding
            failures.append(exc)

    try:
        threads = [threading.Thread(target=fill, args=(n * 1_000_000,)) for n in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []
    assert len(store) <= 8 + len(threads)
