"""Issue 40 item 12: a text held by a takeover (staff answer) is not spam: its inbound ends `held`
(SMS outcome `held`), with a `gateway/reply-held` event, never `gateway/spam-dropped`; a spam
sender's text still is."""
from __future__ import annotations

import pytest

from spine.records import EventKind, InboundStatus
from tests.support.admin_helpers import AUTH
from tests.support.console_helpers import console_app
from tests.support.gateway_helpers import text


@pytest.fixture
async def app(spine):
    client, context = console_app(spine)
    yield client
    await client.aclose()
    await context.sms.drain()
    await context.http.aclose()


async def test_a_held_text_ends_held_with_its_own_event(app, spine):
    assert (await text(app, "my sink is dripping")).status_code == 200
    taken = await app.post("/admin/api/conversations/p_marcus/takeover", headers=AUTH)
    assert taken.status_code == 200, taken.text
    held = await text(app, "ok thanks, when can you come?")
    assert held.status_code == 200 and held.messages == []
    [record] = await spine.inbound_with_status(InboundStatus.HELD)
    assert record.body == "ok thanks, when can you come?"
    [event] = await spine.events(EventKind.REPLY_HELD)
    assert (event.reason, event.detail["person_id"]) == ("takeover", "p_marcus")
    assert await spine.events(EventKind.SPAM_DROPPED) == []


async def test_a_spam_text_is_still_spam(app, spine):
    await text(app, "WIN A FREE CRUISE", from_="+18885550199")
    assert [e.reason for e in await spine.events(EventKind.SPAM_DROPPED)] == ["reply_suppressed"]
    assert await spine.inbound_with_status(InboundStatus.HELD) == []
