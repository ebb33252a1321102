"""`GET /admin/api/stream` on a real loopback server: the signed-in scope's escalation,
conversation and work-order changes as Server-Sent Events (Nora hears Beacon's only), and a
stream resumed with Last-Event-ID gets what changed while it was away."""
from __future__ import annotations

import asyncio
import json

import httpx
import pytest

import spine.keys as keys
from desk.console.takeover import take_over
from gateway.cli.sms import send_sms
from spine.context import Channel
from spine.conversation import Author, ConversationMessage
from spine.identity import utcnow
from spine.work import Priority
from tests.support.console_helpers import escalation, staff
from tests.support.console_server import serve_console
from tests.support.gateway_helpers import ACCOUNT_SID, AUTH_TOKEN, MARCUS, YALE


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


async def sms(base: str, body: str) -> list[str]:
    async with httpx.AsyncClient(timeout=10) as client:
        exchange = await send_sms(client, base_url=base, auth_token=AUTH_TOKEN, from_=MARCUS, to=YALE, body=body,
                                  account_sid=ACCOUNT_SID)
    assert exchange.status_code == 200, exchange.error
    return exchange.messages


async def turn_changes(spine, since) -> dict[str, list]:
    """The conversation changes since then in Yale's feed and in its org's."""
    scopes = {"property": keys.property_scope("pf_yale"), "org": keys.org_scope("org_propflow")}
    return {name: [c for c in await spine.changes_between([scope], since, utcnow()) if c.kind == "conversation"]
            for name, scope in scopes.items()}


async def test_a_turn_is_one_change_told_after_its_messages(served, spine):
    """An SMS turn writes the head and both messages, then one change (in the property's feed and the
    org's): a page refreshing on it shows what the person said and Clara's answer, and a held text
    (its unread mark on the head) is one change too, after the text."""
    people = await staff(spine, "p_priya")
    reader = asyncio.create_task(read_events(served, people["p_priya"], 1))
    await asyncio.sleep(0.6)
    since = utcnow()
    assert await sms(served, "what are the office hours?")
    [event] = await asyncio.wait_for(reader, 10)
    assert (event["event"], event["data"]["id"], event["data"]["what"]) == ("conversation", "p_marcus", "message")
    said, answer = await spine.messages_of("p_marcus", "pf_yale")
    assert (said.author, answer.author) == ("person", "clara")
    changes = await turn_changes(spine, since)
    assert [len(found) for found in changes.values()] == [1, 1]  # one feed write per turn, not one per record
    assert changes["property"][0].at >= answer.at and event["id"] == changes["org"][0].position

    await take_over(spine, "p_marcus", "pf_yale", "p_priya", release_after_s=600)
    since = utcnow()
    assert await sms(served, "the sink again") == []  # held for Priya
    [change] = (await turn_changes(spine, since))["property"]
    held = (await spine.messages_of("p_marcus", "pf_yale"))[-1]
    head = await spine.get_conversation("p_marcus", "pf_yale")
    assert (held.text, held.unread, head.unread) == ("the sink again", True, 1) and change.at >= held.at
