"""The reports: counters kept where each fact happens (a message, its first answer, an escalation,
a page acknowledged, a lead, a tour, an application, a work order opened, completed, reopened and
rated), read back per property over N days as the keys ARCHITECTURE.md lists, as CSV, and as a
page with server-drawn charts; scoped (Nora reads Beacon's only); spam is no lead."""
from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from spine.context import Channel
from spine.conversation import Author, Conversation, ConversationMessage
from spine.escalation import ApplicationLink
from spine.identity import Person, PersonCategory
from spine.oncall import OnCallPlan, Page, PageStatus
from spine.work import Prospect, Tour, TourStatus, WorkOrder, WorkOrderStatus
from tests.support.console_helpers import console_app, escalation, staff
from tests.support.gateway_helpers import text

URL = "/admin/api/reports"
KEYS = {"first_response_s", "inbound", "handoffs", "emergencies", "leads", "work_orders"}


@pytest.fixture
async def app(spine):
    client, context = console_app(spine)
    yield client
    await client.aclose()
    await context.http.aclose()


async def said(spine, n: int, author: Author, at: datetime, property_id: str = "pf_yale",
               channel: Channel = Channel.SMS) -> None:
    """A message as its writers record it: the head first (a person's message starts a wait, an
    answer ends it), then the message, an answer with what the person waited since."""
    waited = None

    def head(current: Conversation | None) -> Conversation:
        nonlocal waited
        current = current or Conversation(person_id="p_marcus", property_id=property_id)
        if author == Author.PERSON:
            current.heard(at)
        else:
            waited = current.answered()
        return current

    await spine.change_conversation("p_marcus", property_id, head, note=False)
    await spine.put_message(ConversationMessage(id=f"m{n}", person_id="p_marcus", property_id=property_id, at=at,
                                                channel=channel, author=author, text=f"message {n}"),
                            waited_since=waited)


async def facts(spine) -> None:
    t = datetime.now(UTC) - timedelta(minutes=30)
    await said(spine, 1, Author.PERSON, t)
    await said(spine, 2, Author.PERSON, t + timedelta(seconds=1))
    await said(spine, 3, Author.CLARA, t + timedelta(seconds=4))  # answered 4 s after the first
    await said(spine, 3, Author.CLARA, t + timedelta(seconds=4))  # a retried turn counts once
    await said(spine, 4, Author.PERSON, t + timedelta(seconds=60), channel=Channel.EMAIL)
    await said(spine, 5, Author.STAFF, t + timedelta(seconds=660), channel=Channel.EMAIL)  # 600 s
    await said(spine, 6, Author.PERSON, t, property_id="pf_beacon")
    await escalation(spine, "e1", "pf_yale")
    page = Page(id="pg1", property_id="pf_yale", plan=OnCallPlan(property_id="pf_yale", levels=[["p_mike"]]),
                code="1234", reason="gas", created_at=t)
    assert await spine.create_page(page)
    _, version = await spine.read_page("pg1")
    await spine.replace_page(page.model_copy(update={"status": PageStatus.ACKNOWLEDGED, "acknowledged_by": "p_mike",
                                                     "acknowledged_at": t + timedelta(seconds=90)}), version,
                             before=page)
    await spine.put_person(Person(id="p_spammer", display_name="Spam", category=PersonCategory.SPAM))
    for person in ("p_spammer", "p_tess_2"):
        await spine.create_prospect(Prospect(person_id=person, property_id="pf_yale"))
    tour = Tour(id="tour_r1", prospect_person_id="p_tess", property_id="pf_yale", scheduled_at=t)
    await spine.put_tour(tour)
    await spine.put_tour(tour.model_copy(update={"status": TourStatus.COMPLETED}))
    await spine.put_application_link(ApplicationLink(id="al1", person_id="p_tess", property_id="pf_yale", url="u"))
    wo = WorkOrder(id="wo_700", display_id="WO-700", property_id="pf_yale", brief="sink")
    await spine.put_work_order(wo)
    for update in ({"status": WorkOrderStatus.COMPLETED}, {"rating": 4}, {"status": WorkOrderStatus.OPEN}):
        wo = wo.model_copy(update=update)
        await spine.put_work_order(wo)


def minus(after: dict, before: dict) -> dict:
    """The counts that moved (the demo seed's own facts, counted today, are the baseline)."""
    return {k: minus(v, before[k]) if isinstance(v, dict) else v - before[k] for k, v in after.items()}


async def test_the_report_adds_up_what_happened(app, spine):
    people = await staff(spine, "p_priya", "p_nora")
    seeded = (await app.get(URL, params={"property_id": "pf_yale"}, headers=people["p_priya"])).json()
    assert seeded["first_response_s"] == {"p50": None, "p90": None} and seeded["inbound"]["sms"] == 0
    await facts(spine)
    answer = await app.get(URL, params={"property_id": "pf_yale", "days": 30}, headers=people["p_priya"])
    assert answer.status_code == 200, answer.text
    r = answer.json()
    assert set(r) == KEYS
    assert r["inbound"] == {"sms": 2, "voice": 0, "email": 1, "telegram": 0}
    assert r["first_response_s"] == {"p50": 5.0, "p90": 600.0}  # 4 s and 600 s, as their histogram bounds
    assert r["handoffs"] == 1
    assert r["emergencies"] == {"count": 1, "acknowledged": 1, "exhausted": 0,
                                "time_to_ack_s": {"p50": 120.0, "p90": 120.0}}
    assert minus(r["leads"], seeded["leads"]) == {"new": 1, "tours_booked": 1, "tours_completed": 1,
                                                  "applications": 1}  # the spammer is no lead
    assert r["work_orders"]["rating_avg"] == 4.0
    del r["work_orders"]["rating_avg"], seeded["work_orders"]["rating_avg"]
    assert minus(r["work_orders"], seeded["work_orders"]) == {"opened": 1, "completed": 1, "reopened": 1, "ratings": 1}
    everything = (await app.get(URL, headers=people["p_priya"])).json()
    assert everything["inbound"]["sms"] == 3  # Yale and Beacon
    nora = (await app.get(URL, headers=people["p_nora"])).json()
    assert nora["inbound"]["sms"] == 1 and nora["handoffs"] == 0 and nora["leads"]["tours_booked"] == 0  # Beacon
    assert (await app.get(URL, params={"property_id": "pf_yale"}, headers=people["p_nora"])).status_code == 403


async def test_csv_and_the_page_with_its_charts(app, spine):
    await facts(spine)
    people = await staff(spine, "p_priya")
    as_csv = await app.get(URL, params={"property_id": "pf_yale", "format": "csv"}, headers=people["p_priya"])
    assert as_csv.headers["content-type"].startswith("text/csv")
    lines = as_csv.text.splitlines()
    assert lines[0] == "key,value" and "inbound.sms,2" in lines and "work_orders.rating_avg,4.0" in lines
    page = await app.get("/admin/reports", params={"property_id": "pf_yale"}, headers=people["p_priya"])
    assert page.status_code == 200
    assert page.text.count("<svg") == 3 and "Leasing funnel" in page.text
    assert 'href="/admin/work-orders?status=completed&amp;property_id=pf_yale"' in page.text
    assert "<script src" not in page.text and "@font-face" not in page.text


async def first_responses(spine) -> dict[str, int]:
    """Today's first response observations at Yale, by histogram bucket, and its inbound SMS."""
    today = datetime.now(UTC).date()
    days = await spine.rollup_days("pf_yale", today - timedelta(days=1), today + timedelta(days=1))
    return {k: n for counts in days.values() for k, n in counts.items() if k.startswith(("first_response_s", "inbound"))}


async def test_real_turns_count_each_message_and_each_first_answer(spine):
    """Through the SMS webhook and real PersonActors: each text counted once, each answered turn one
    first response; texts held while staff answer wait until the staff message, which is timed from
    the earliest of them (the wait is kept on the conversation head, not read from the messages)."""
    client, context = console_app(spine)
    people = await staff(spine, "p_priya")
    try:
        for body in ("what are the office hours?", "and on saturday?"):
            assert (await text(client, body)).messages
        assert await first_responses(spine) == {"inbound.sms": 2, "first_response_s.le1": 2}
        sent = await client.post("/admin/api/conversations/p_marcus/messages", json={"text": "Priya here."},
                                 headers=people["p_priya"])
        assert sent.status_code == 200, sent.text  # takes over; Marcus was answered: no first response
        assert (await text(client, "the sink again")).messages == []  # held
        await asyncio.sleep(1.1)
        assert (await text(client, "hello?")).messages == []
        assert await first_responses(spine) == {"inbound.sms": 4, "first_response_s.le1": 2}
        sent = await client.post("/admin/api/conversations/p_marcus/messages", json={"text": "Coming at 3."},
                                 headers=people["p_priya"])
        assert sent.status_code == 200, sent.text
        # From "the sink again", over a second before: not from "hello?" (le1).
        assert await first_responses(spine) == {"inbound.sms": 4, "first_response_s.le1": 2,
                                                "first_response_s.le2": 1}
    finally:
        await client.aclose()
        await context.sms.drain()
        await context.http.aclose()
