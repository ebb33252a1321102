"""When the caller's actor cannot be reached (the pool found no host within its submit budget), a
call still gets Clara: the minimal opening and a STORE_DEGRADED event; its tools are refused as no
call on record, or, for a call on record, run with the authority the store gives its caller."""
from __future__ import annotations

import asyncio

from actors.client.pool import TurnFailed
from actors.turn.call_opening import interaction_id_for
from spine.records import EventKind, TranscriptEntry
from tests.support.voice_helpers import MARCUS, YALE_LINE, in_process_calls


class Unreachable:
    """Sessions whose hosts never answer, as the pool reports it."""

    def __init__(self) -> None:
        self.ops: list[str] = []

    async def session(self, op):
        self.ops.append(op.kind)
        raise TurnFailed(f"no host answered for {op.key} within 30s")


async def test_a_call_whose_actor_is_unreachable_gets_the_minimal_opening_and_no_tools(spine):
    calls = in_process_calls(spine, write_retry_s=0.3, open_budget_s=5.0, record_wait_s=0.3)
    calls.sessions = unreachable = Unreachable()
    start = await calls.start(caller_number=MARCUS, called_number=YALE_LINE, call_sid="CA_gone")
    await calls.drain()
    assert start.degraded and start.person_id is None and "could not be loaded" in start.prompt
    events = await spine.events(EventKind.STORE_DEGRADED)
    assert [(e.reason, e.interaction_id) for e in events] == [("voice_context_failed", "voice-CA_gone")]
    assert len(unreachable.ops) > 1  # asked again while the retry window lasted
    assert await calls.run_webhook_tool("voice-CA_gone", "create_work_order", {"description": "leak"}) is None
    assert await calls.failed("voice-CA_gone")  # the voice webhook apologizes


async def test_a_recorded_calls_tool_runs_with_the_authority_the_store_gives_its_caller(spine):
    calls = in_process_calls(spine, write_retry_s=0.3)
    await calls.start(caller_number=MARCUS, called_number=YALE_LINE, call_sid="CA_later")
    await calls.drain()
    calls.sessions = unreachable = Unreachable()  # the host goes away during the call
    iid = interaction_id_for("CA_later")
    appliances = await calls.run_webhook_tool(iid, "get_unit_appliances", {})
    assert appliances is not None and not appliances.is_error, appliances  # Marcus's own unit
    staff = await calls.run_webhook_tool(iid, "pm_list_open_work_orders", {}, tool_call_id="t2")
    assert staff is not None and staff.decision == "refused"  # whatever the model asks: not his to run
    assert await calls.end(iid, [TranscriptEntry(role="user", text="what appliances do I have?")])
    assert unreachable.ops == ["tool", "tool", "end"]
    said = [m.text for m in await spine.messages_of("p_marcus", "pf_yale") if m.interaction_id == iid]
    assert said == ["what appliances do I have?"]  # the call is still in his conversation


class Held:
    """Sessions whose host holds each call's opening until released (a host being replaced)."""

    def __init__(self, inner) -> None:
        self.inner, self.release = inner, asyncio.Event()

    async def session(self, op):
        if op.kind == "open":
            await self.release.wait()
        return await self.inner.session(op)


async def test_a_tool_call_during_an_opening_past_the_budget_waits_for_it_and_runs_in_the_actor(spine):
    calls = in_process_calls(spine, open_budget_s=0.05)
    calls.sessions = held = Held(calls.sessions)
    start = await calls.start(caller_number=MARCUS, called_number=YALE_LINE, call_sid="CA_held")
    assert start.degraded  # answered with the minimal opening meanwhile
    asyncio.get_running_loop().call_later(0.3, held.release.set)
    appliances = await calls.run_webhook_tool(interaction_id_for("CA_held"), "get_unit_appliances", {})
    assert appliances is not None and not appliances.is_error, appliances  # the call is on record: Marcus's
    await calls.drain()
