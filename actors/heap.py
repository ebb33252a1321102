"""The garbage collector in a long-running process (a GatewayIngress replica, a PersonActor
host, the DispatcherActor): start-up's objects frozen, a youngest-generation threshold sized for
request traffic, and a log line for any collection long enough for callers to notice."""
from __future__ import annotations

import gc
import logging
import sys
import time

log = logging.getLogger("clara.heap")


class GcPauseLog:
    """A `gc.callbacks` entry that logs collections pausing the process for `threshold_s` or
    more: every caller on the process waits them out."""

    def __init__(self, threshold_s: float = 0.02) -> None:
        self.threshold_s = threshold_s
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif (paused := time.perf_counter() - self._started) >= self.threshold_s:
            log.warning("garbage collection paused the process %.0f ms (generation %d, %d objects collected)",
                        paused * 1000, info["generation"], info["collected"])


GC_PAUSE_LOG = GcPauseLog()


# Python collects its youngest generation whenever allocations outrun deallocations by 700. One
# request's short-lived objects cross that, so an ingress replica collected every five SMS turns
# or so (188 times in 960, about 0.5 ms a turn, bench/sms.py); at 10,000 a request's objects die by
# reference count first and a run of 960 turns needed no collection. Only reference cycles wait
# longer to be freed.
GC_THRESHOLDS = (10_000, 10, 10)


def settle_heap() -> None:
    """Put what start-up built (modules, the app, caches) out of the garbage collector's reach.
    Otherwise every full collection walks all of it, a 40-80 ms pause in the middle of a burst of
    ringing phones; frozen, a full collection walks only what requests made (1-3 ms). Pauses
    that still run long are logged."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    if GC_PAUSE_LOG not in gc.callbacks:
        gc.callbacks.append(GC_PAUSE_LOG)


def heap_blocks() -> int:
    """The memory blocks Python's allocator holds for live objects: the process's Python heap as
    a soak watches it (bench/soak.py), read in a call, with no tracing left running."""
    return sys.getallocatedblocks()
