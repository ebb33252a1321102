"""A paging call a voicemail box answers (issue 38): placed with answering-machine detection, it
leaves the page as a short voicemail (no <Gather>), counts as unanswered (the ladder goes on to
the next level at its timeout) and logs oncall/voicemail; a person who answers still gets the prompt."""
from __future__ import annotations

from datetime import timedelta

from desk.oncall.paging import advance_page
from spine.identity import utcnow
from spine.oncall import PageStatus
from tests.support.gateway_helpers import OfflinePool, text

MIKE, PRIYA = "+13035551500", "+12065550150"


def _asgi_post(client):
    async def post(url: str, form: dict, headers: dict) -> str:
        return (await client.post(url, data=form, headers=headers)).text
    return post


async def _paged(make_gateway, spine):
    client, context = await make_gateway(OfflinePool(spine))
    await text(client, "I smell gas in my kitchen")
    [page_id] = {r.page_id for r in await spine.outbox(limit=500) if r.page_id}
    await context.pool.drain()  # the replica sends the page's text and call at once
    return client, await spine.get_page(page_id)


async def test_a_machine_gets_a_voicemail_and_the_ladder_goes_on(make_gateway, spine, twilio):
    client, page = await _paged(make_gateway, spine)
    [call] = twilio.calls
    assert call.form["MachineDetection"] == "Enable"
    twiml, _ = await twilio.answer(call, post=_asgi_post(client), answered_by="machine_end_beep")
    assert "<Gather" not in twiml and "reply ACK to the text" in twiml and "JP Yale Station" in twiml
    assert "unit 2 0 4" in twiml and "gas" in twiml.lower()
    assert [e.detail["person_id"] for e in await spine.events("oncall/voicemail")] == ["p_mike"]
    found = await spine.read_page(page.id)
    assert found is not None and found[0].status == PageStatus.PAGING and found[0].acknowledged_by is None
    await advance_page(spine, *found, now=utcnow() + timedelta(seconds=found[0].plan.ack_timeout_s + 1))
    assert (await spine.get_page(page.id)).paged_person_ids == ["p_mike", "p_priya"]  # the next level


async def test_a_person_still_gets_the_prompt(make_gateway, spine, twilio):
    client, _ = await _paged(make_gateway, spine)
    [call] = twilio.calls
    twiml, _ = await twilio.answer(call, post=_asgi_post(client), answered_by="human")
    assert "<Gather" in twiml and 'numDigits="1"' in twiml
    assert await spine.events("oncall/voicemail") == []
