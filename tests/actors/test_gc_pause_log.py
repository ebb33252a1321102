"""A long-running process (replica, host, DispatcherActor) logs garbage-collection pauses
long enough for callers to notice (actors.heap)."""
from __future__ import annotations


def test_a_long_garbage_collection_pause_is_logged_and_a_short_one_is_not(caplog):
    import time

    from actors.heap import GcPauseLog

    for threshold_s, logged in ((0.005, True), (10.0, False)):
        caplog.clear()
        pause_log = GcPauseLog(threshold_s)
        pause_log("start", {"generation": 2, "collected": 0})
        time.sleep(0.01)
        pause_log("stop", {"generation": 2, "collected": 1234})
        assert ("generation 2, 1234 objects collected" in caplog.text) is logged
