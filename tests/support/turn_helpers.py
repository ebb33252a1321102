"""Turns for tests: envelopes for one-interaction tests, and turn functions for Ray tests, named in
RuntimeConfig.turn_function so the hosts import them.

`recorded_turn` stands in for run_interaction where a test checks the runtime, not the agent:
it writes when it ran, where (host process), and a trace, as the real turn does. A body with
`sleep=S` holds the turn S seconds, so a test can catch turns in flight.
"""
from __future__ import annotations

import asyncio
import itertools
import os
import re
import time

from actors.protocol.turn import TurnDeps, TurnResult
from spine.context import Channel
from spine.envelope import MessageEnvelope
from spine.records import AgentTrace
from spine.store.base import Item

_ids = itertools.count(1)

YALE = "+12065550100"


def envelope(from_address: str, body: str, *, to: str = YALE, property_id: str = "pf_yale",
             channel: Channel = Channel.SMS) -> MessageEnvelope:
    """An inbound for run_interaction, as the gateway would build it before routing."""
    n = next(_ids)
    return MessageEnvelope(message_id=f"SM{n:032d}", interaction_id=f"ix_test_{n}", channel=channel,
                           from_address=from_address, to_address=to, body=body, property_id=property_id)


def run_key(envelope: MessageEnvelope) -> str:
    return f"TESTRUN#{envelope.participant_id or envelope.from_address}"


async def recorded_turn(deps: TurnDeps, env: MessageEnvelope, history: list[dict], opening=None) -> TurnResult:
    start = time.time()
    hold = re.search(r"sleep=([\d.]+)", env.body)
    if hold:
        await asyncio.sleep(float(hold.group(1)))
    await deps.spine.store.put(Item(pk=run_key(env), sk=env.message_id, data={
        "start": start, "end": time.time(), "pid": os.getpid(), "history": len(history)}))
    trace = AgentTrace(interaction_id=env.interaction_id, channel=env.channel, participant_id=env.participant_id,
                       inbound=env.body, reply=f"re: {env.body}")
    await deps.spine.put_trace(trace)
    return TurnResult(interaction_id=env.interaction_id, person_id=env.participant_id, reply=f"re: {env.body}",
                      trace=trace)


async def counted_turn(deps: TurnDeps, env: MessageEnvelope, history: list[dict], opening=None) -> TurnResult:
    """Like recorded_turn, but one store item per run of a message (`TURNRUN#{message_id}`),
    so a message whose turn ran twice shows up as two items: the resize run counts them."""
    hold = re.search(r"sleep=([\d.]+)", env.body)
    if hold:
        await asyncio.sleep(float(hold.group(1)))
    await deps.spine.store.put(Item(pk=f"TURNRUN#{env.message_id}", sk=f"{os.getpid()}-{time.time_ns()}",
                                    data={"pid": os.getpid(), "key": env.participant_id or env.from_address}))
    trace = AgentTrace(interaction_id=env.interaction_id, channel=env.channel, participant_id=env.participant_id,
                       inbound=env.body, reply=f"re: {env.body}")
    await deps.spine.put_trace(trace)
    return TurnResult(interaction_id=env.interaction_id, person_id=env.participant_id, reply=f"re: {env.body}",
                      trace=trace)
