"""The offline policy's sentences against the real tool layer's result shapes: one interaction per
case through run_interaction with the in-process Dispatcher and the seeded demo store."""
from __future__ import annotations

import itertools
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

from actors.dispatcher.dispatcher import Dispatcher
from actors.model.offline import OfflineModel
from actors.protocol.turn import TurnDeps
from actors.turn.interaction import run_interaction
from spine.context import Channel
from spine.envelope import MessageEnvelope
from spine.records import OptOut

MARCUS, MIKE, PROSPECT, PRIYA, CARLOS = "+12065551001", "+13035551500", "+14155559876", "+12065550150", "+13035552020"
_ids = itertools.count(1)


def seattle(hour: int) -> datetime:
    """JP Yale Station's wall clock on a Monday (the contact window is 09:00-19:00 there)."""
    return datetime(2026, 11, 30, hour, tzinfo=ZoneInfo("America/Los_Angeles")).astimezone(UTC)


def envelope(sender: str, body: str) -> MessageEnvelope:
    n = next(_ids)
    return MessageEnvelope(message_id=f"SMmodel{n:026d}", interaction_id=f"ix_model_{n}", channel=Channel.SMS,
                           from_address=sender, to_address="+12065550100", body=body, property_id="pf_yale")


@pytest.mark.parametrize("sender, message, tool, expected", [
    (MARCUS, "my toilet is overflowing!", "create_work_order",  # WO-7, the running toilet, is open: no duplicate
     "WO-7 (running toilet, unit 204) is already open, so I've added your report to it"),
    (MARCUS, "the dishwasher is broken", "create_work_order", "for the broken dishwasher in unit 204."),
    (MIKE, "I'm 10 min out from WO-7", "add_eta_note", "see you in about 10 minutes. Tenant has been notified."),
    (PROSPECT, "do you have 2BR units next month?", "get_available_units",
     "unit 401 (2 bd / 2 ba, $2,695/mo, available Dec 15)"),
    (CARLOS, "check on WO-42", "get_dispatch_details", "WO-42 — leak under kitchen sink, unit 312 (in progress)."),
    (MARCUS, "is the pool open?", "get_pool_status", "The pool is closed right now — Closed for the season"),
    (MARCUS, "can I have a dog?", "get_pet_policy", "$400 deposit and $45/mo pet rent"),
    (MARCUS, "where do guests park?", "get_parking_rules", "Guests: Six visitor spots"),
    (MARCUS, "what are the office hours?", "get_property_hours", "Office: Mon-Fri 9am-6pm"),
    (MARCUS, "what's my balance?", "get_balance", "Your current balance is $125.50."),
    (MARCUS, "when does my lease end?", "get_lease_details", "runs Jan 1, 2024 to Jan 31, 2027 at $2,450/mo"),
    (PRIYA, "list open work orders", "pm_list_open_work_orders", "WO-7 (running toilet, unit 204, in progress)"),
    (PRIYA, "which work orders are open?", "pm_list_open_work_orders", "WO-42 (leak under kitchen sink, unit 312"),
    (PRIYA, "look up 206-555-1001", "pm_lookup_person", "Found: Marcus Johnson"),
])
async def test_offline_sentences_read_the_real_results(spine, sender, message, tool, expected):
    spine.clock = lambda: seattle(15)
    deps = TurnDeps(spine=spine, model=OfflineModel(today=lambda: date(2026, 11, 30)), tools=Dispatcher(spine))
    result = await run_interaction(deps, envelope(sender, message))
    calls = {c.name: c for c in result.trace.tool_calls}
    assert tool in calls and calls[tool].decision == "allowed" and not calls[tool].is_error
    assert expected in result.reply
    assert result.trace.model == "offline-rules" and result.trace.cost_usd == 0.0


@pytest.mark.parametrize(("hour", "opted_out", "said", "status"), [
    (15, False, "Got it Mike, see you in about 10 minutes. Tenant has been notified.", "queued"),
    (22, False, "I've noted your ETA on WO-7. The tenant will be told at 9:00 am", "deferred"),
    (15, True, "I've noted your ETA on WO-7. The tenant has opted out of messages, so they weren't told.", "blocked"),
])
async def test_k2_reply_and_trace_say_what_became_of_marcus_notice(spine, hour, opted_out, said, status):
    spine.clock = lambda: seattle(hour)
    if opted_out:
        await spine.set_opt_out(OptOut(address=MARCUS, opted_out=True, keyword="STOP", channel=Channel.SMS))
    deps = TurnDeps(spine=spine, model=OfflineModel(today=lambda: date(2026, 11, 30)), tools=Dispatcher(spine))
    result = await run_interaction(deps, envelope(MIKE, "I'm 10 min out from WO-7"))
    assert said in result.reply
    assert [(n.kind, n.recipient_person_id, n.channel, n.status) for n in result.trace.notifications] == [
        ("notify", "p_marcus", "sms", status)]
