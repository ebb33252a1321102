"""`GET /admin/api/stream` on a real loopback server: the signed-in scope's escalation,
conversation and work-order changes as Server-Sent Events (Nora hears Beacon's only), and a
stream resumed with Last-Event-ID gets what changed while it was away."""
from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from spine.context import Channel
from spine.conversation import Author, ConversationMessage
from spine.work import Priority
from tests.support.console_helpers import escalation, staff
from tests.support.console_server import serve_console


@pytest.fixture
async def served(spine):
    async with serve_console(spine) as base:
        yield base


async def read_events(base: str, headers: dict[str, str], count: int, *, timeout: float = 8.0,
                      newer_than: str = "") -> list[dict]:
    """The first `count` events of a stream (each {id, event, data}) newer than an event id, then
    the stream is dropped. (Delivery is at least once: a resumed stream may repeat the overlap.)"""
    events: list[dict] = []
    frame: dict = {}
    async with httpx.AsyncClient(base_url=base, timeout=timeout) as client:
        async with client.stream("GET", "/admin/api/stream", headers=headers) as answer:
            assert answer.status_code == 200
            assert answer.headers["content-type"].startswith("text/event-stream")
            async for line in answer.aiter_lines():
                if line.startswith(("id:", "event:", "data:")):
                    name, _, value = line.partition(": ")
                    frame[name] = json.loads(value) if name == "data" else value
                elif not line and "event" in frame:
                    if frame["id"] > newer_than:
                        events.append(frame)
                    frame = {}
                    if len(events) == count:
                        return events
    return events


async def after(delay: float, *writes) -> None:
    await asyncio.sleep(delay)
    for write in writes:
        await write


def message(person_id: str, property_id: str, text: str) -> ConversationMessage:
    return ConversationMessage(id=f"m_{text}", person_id=person_id, property_id=property_id, channel=Channel.SMS,
                               author=Author.PERSON, text=text)


async def test_nora_hears_beacons_changes_only(served, spine):
    people = await staff(spine, "p_nora")
    reader = asyncio.create_task(read_events(served, people["p_nora"], 3))
    wo = await spine.get_work_order("wo_90")
    await after(0.6, escalation(spine, "e_yale", "pf_yale"), spine.put_message(message("p_marcus", "pf_yale", "yale")),
                escalation(spine, "e_beacon", "pf_beacon"), spine.put_message(message("p_marcus", "pf_beacon", "hi")),
                spine.put_work_order(wo.model_copy(update={"priority": Priority.URGENT})))
    events = await asyncio.wait_for(reader, 10)
    assert [(e["event"], e["data"]["id"]) for e in events] == [
        ("escalation", "e_beacon"), ("conversation", "p_marcus"), ("work_order", "WO-90")]
    assert all(e["data"]["property_id"] == "pf_beacon" for e in events)


async def test_a_resumed_stream_gets_what_changed_while_it_was_away(served, spine):
    people = await staff(spine, "p_priya")
    reader = asyncio.create_task(read_events(served, people["p_priya"], 1))
    await after(0.6, escalation(spine, "e_first", "pf_yale"))
    [first] = await asyncio.wait_for(reader, 10)
    await escalation(spine, "e_while_away", "pf_beacon")  # nobody is listening now
    await spine.put_message(message("p_marcus", "pf_yale", "away"))
    resumed = await read_events(served, {**people["p_priya"], "Last-Event-ID": first["id"]}, 2,
                                newer_than=first["id"])
    assert [(e["event"], e["data"]["id"]) for e in resumed] == [("escalation", "e_while_away"),
                                                               ("conversation", "p_marcus")]
