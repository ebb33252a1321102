"""A token bucket: at most `rate` requests a second, started one at a time (a burst of `burst`).

Buildium allows 10 requests a second per account and answers 429 past it; a burst of one keeps
every one-second window at 10 or fewer however the requests' latencies fall."""
from __future__ import annotations

import asyncio
import time


class TokenBucket:
    def __init__(self, rate: float, burst: float = 1.0) -> None:
        self.rate, self.burst = rate, burst
        self._tokens, self._at = burst, time.monotonic()
        self._lock = asyncio.Lock()

    async def take(self) -> None:
        async with self._lock:  # callers wait in turn, so none starves
            while True:
                now = time.monotonic()
                self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
                self._at = now
                if self._tokens >= 1:
                    self._tokens -= 1
                    return
                await asyncio.sleep((1 - self._tokens) / self.rate)
