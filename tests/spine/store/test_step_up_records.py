"""The step-up's records on both backends (SQLite, DynamoDB on moto): the sliding-window send log
and a Person's valid codes, each kept by compare-and-set."""
from __future__ import annotations

import asyncio
from datetime import timedelta

from spine.identity import utcnow
from spine.repo import Spine
from spine.verification import IssuedCode

LIMITS = ((timedelta(minutes=15), 3), (timedelta(days=1), 10))


def _code(n: int, *, expires_in: timedelta = timedelta(minutes=5), by: str = "voice-CA1") -> IssuedCode:
    return IssuedCode(salt=f"s{n}", code_hash=f"h{n}", expires_at=utcnow() + expires_in, sent_to_last4="1001",
                      requested_by=by)


async def test_the_send_log_counts_sliding_windows(store):
    spine, now = Spine(store), utcnow()
    assert await spine.take_step_up_send("p_a", now - timedelta(minutes=20), LIMITS) is None
    results = await asyncio.gather(*(spine.take_step_up_send("p_a", now, LIMITS) for _ in range(5)))
    assert results.count(None) == 3  # concurrent requests never pass the limit
    wait = next(r for r in results if r is not None)
    assert timedelta(minutes=14) < wait <= timedelta(minutes=15)
    assert await spine.take_step_up_send("p_a", now + timedelta(minutes=15, seconds=1), LIMITS) is None
    assert await spine.take_step_up_send("p_b", now, LIMITS) is None  # per Person


async def test_codes_are_kept_while_valid_and_tries_are_per_call(store):
    spine, now = Spine(store), utcnow()
    await spine.add_step_up_code("p_a", _code(0, expires_in=timedelta(seconds=-1)), now, 3)
    for n in range(1, 5):
        await spine.add_step_up_code("p_a", _code(n), now, 3)
    challenge, version = await spine.get_step_up("p_a")
    assert [c.salt for c in challenge.valid(now)] == ["s2", "s3", "s4"]  # expired dropped, three newest kept
    assert await spine.spend_step_up_try(challenge, version, "voice-CA2")
    assert not await spine.spend_step_up_try(challenge, version, "voice-CA2")  # a stale version loses
    challenge, _ = await spine.get_step_up("p_a")
    assert (challenge.tries_on("voice-CA2"), challenge.tries_on("voice-CA1"), challenge.total_tries) == (1, 0, 1)
    await spine.delete_step_up("p_a")
    assert await spine.get_step_up("p_a") is None
