"""An opening's bookkeeping (the call's trace, context-build events) is written just after the
answer, the writes of calls ringing together at once, after the phones still ringing on the replica
(up to a cap): one refused write loses nothing else."""
from __future__ import annotations

import asyncio
import logging
import time

from actors.dispatcher.dispatcher import Dispatcher
from spine.repo import Spine
from spine.store.base import StoreUnavailable
from tests.support.voice_helpers import MARCUS, UNKNOWN, YALE_LINE, in_process_calls


class RefusingStore:
    """A store that refuses to write one item (a backend that rejects it) and serves the rest."""

    def __init__(self, inner, refused_pk: str) -> None:
        self.inner, self.refused_pk = inner, refused_pk

    async def put(self, item, **kwargs):
        if item.pk == self.refused_pk:
            raise StoreUnavailable(f"refused {item.pk}")
        return await self.inner.put(item, **kwargs)

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


async def test_one_refused_trace_write_loses_nothing_else(spine, caplog):
    refusing = Spine(RefusingStore(spine.store, "TRACE#voice-CA_wb_bad"))
    calls = in_process_calls(refusing, write_retry_s=0.3)
    with caplog.at_level(logging.WARNING, logger="clara.voice"):
        await asyncio.gather(*(calls.start(caller_number=MARCUS, called_number=YALE_LINE, call_sid=sid)
                               for sid in ("CA_wb_bad", "CA_wb_ok")))
        await calls.drain()
    assert (await spine.get_trace("voice-CA_wb_ok")).participant_id == "p_marcus"
    assert await spine.get_trace("voice-CA_wb_bad") is None
    assert await calls.failed("voice-CA_wb_bad") and not await calls.failed("voice-CA_wb_ok")
    assert "refused TRACE#voice-CA_wb_bad" in caplog.text


class StoreDown:
    """A store that refuses every write until `up()` (locked, unreachable), counting the refusals."""

    def __init__(self, inner) -> None:
        self.inner, self.is_up, self.refused = inner, False, 0

    def up(self) -> None:
        self.is_up = True

    async def put(self, item, **kwargs):
        if not self.is_up:
            self.refused += 1
            raise StoreUnavailable("the store refuses writes")
        return await self.inner.put(item, **kwargs)

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


async def test_a_tool_on_another_replica_waits_for_a_trace_the_store_refused_a_moment_ago(spine):
    # Replica A answers the call while the store refuses writes, and its bookkeeping backs off; the
    # call's first tool reaches replica B, and the store comes back before A's next try.
    down = StoreDown(spine.store)
    replica_a, replica_b = in_process_calls(Spine(down), write_retry_s=10.0), in_process_calls(spine)
    await replica_a.start(caller_number=MARCUS, called_number=YALE_LINE, call_sid="CA_wb_down")
    while not down.refused:
        await asyncio.sleep(0.02)
    tool = asyncio.create_task(replica_b.run_webhook_tool("voice-CA_wb_down", "get_unit_appliances", {}))
    await asyncio.sleep(0.1)  # B has found no call on record
    down.up()
    appliances = await tool
    assert appliances is not None and not appliances.is_error, appliances  # Marcus's own unit, not "no call"
    await replica_a.drain()


class HeldClaimStore:
    """A store that holds the phone-claim read of one number until released: that caller's
    phone keeps ringing on this replica for as long as the test wants."""

    def __init__(self, inner, held_number: str) -> None:
        self.inner, self.held_pk = inner, f"CLAIM#phone#{held_number}"
        self.release = asyncio.Event()

    async def get(self, pk, *args, **kwargs):
        if pk == self.held_pk:
            await self.release.wait()
        return await self.inner.get(pk, *args, **kwargs)

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


async def test_bookkeeping_waits_while_other_phones_ring_but_not_past_the_cap(spine):
    from actors.client.calls import WRITE_BEHIND_MAX_S, WRITE_BEHIND_S

    held = HeldClaimStore(spine.store, UNKNOWN)
    calls = in_process_calls(Spine(held), Dispatcher(spine), open_budget_s=10.0)
    async def recorded_within(iid: str, seconds: float) -> float | None:
        """How long until the call's trace is in the store (None: not within `seconds`)."""
        started = time.monotonic()
        while time.monotonic() - started < seconds:
            if await spine.get_trace(iid) is not None:
                return time.monotonic() - started
            await asyncio.sleep(0.01)
        return None

    await calls.start(caller_number=MARCUS, called_number=YALE_LINE, call_sid="CA_wb_alone")
    assert await recorded_within("voice-CA_wb_alone", 2.0) is not None  # nothing else ringing: written soon

    await calls.start(caller_number=MARCUS, called_number=YALE_LINE, call_sid="CA_wb_first")
    ringing = asyncio.create_task(calls.start(caller_number=UNKNOWN, called_number=YALE_LINE, call_sid="CA_wb_held"))
    waited = await recorded_within("voice-CA_wb_first", 5.0)
    assert waited is not None and waited >= WRITE_BEHIND_MAX_S - WRITE_BEHIND_S  # waited for the ringing phone...
    assert not ringing.done()  # ...but not for as long as it rang: the cap

    held.release.set()
    assert (await ringing).interaction_id == "voice-CA_wb_held"
    await calls.drain()
    assert await spine.get_trace("voice-CA_wb_held") is not None


async def test_a_trace_refused_while_the_store_is_locked_lands_once_it_answers(tmp_path):
    """Another process holds SQLite's write lock as the phone is answered (bench/chaos.py's store
    fault): the call's trace is written once the lock is gone, so its tools know the call."""
    import sqlite3

    from desk.portfolio.demo import seed
    from spine.store.sqlite import SqliteStore

    spine = Spine(SqliteStore(tmp_path / "clara.db", timeout_s=0.5))  # gives up on a lock after 0.4 s
    await seed(spine)
    holder = sqlite3.connect(tmp_path / "clara.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    asyncio.get_running_loop().call_later(1.0, lambda: (holder.execute("ROLLBACK"), holder.close()))
    calls = in_process_calls(spine)
    try:
        await calls.start(caller_number=MARCUS, called_number=YALE_LINE, call_sid="CA_wb_locked")
        await calls.drain()
        caller = await calls.caller_of("voice-CA_wb_locked")
        assert caller is not None and caller.person_id == "p_marcus"
    finally:
        await spine.store.close()
