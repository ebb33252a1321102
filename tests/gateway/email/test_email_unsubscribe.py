"""Started emails carry RFC 8058 one-click unsubscribe, and the link works without signing in:
POST (a mail client's one-click) opts the address out of email; GET shows a button and changes
nothing; a token that is not ours is 404."""
from __future__ import annotations

from desk.outbound.queue import NotificationKind, OutboundRequest, queue_outbound
from desk.outbound.unsubscribe import unsubscribe_token
from gateway.outbox_sender import OutboxSender
from spine.context import Channel
from tests.support.gateway_helpers import ScriptedPool


async def _started_email(ch, spine):
    note = await queue_outbound(spine, OutboundRequest(
        key="t-started-1", kind=NotificationKind.NOTIFY, recipient_person_id="p_marcus", property_id="pf_yale",
        body="Your repair is scheduled.", channel=Channel.EMAIL, urgent=True))
    sender = OutboxSender(spine, ch.context.settings, ch.context.http)
    await sender.send_queued([note.outbox_id])
    [sent] = ch.mailgun.wait_for_sends(1)
    return sent


async def test_a_started_email_carries_one_click_unsubscribe_that_works(make_channels, spine):
    ch = await make_channels(ScriptedPool())
    sent = await _started_email(ch, spine)
    link_header = sent.header("List-Unsubscribe")
    assert sent.header("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click"
    assert "mailto:yale@clara.example?subject=unsubscribe" in link_header
    link = link_header.split(">")[0].lstrip("<")
    assert link.startswith(ch.context.settings.public_url + "/email/unsubscribe/") and link in sent.form["text"]
    path = link.removeprefix(ch.context.settings.public_url)
    page = await ch.client.get(path)  # a scanner's or a person's GET changes nothing
    assert page.status_code == 200 and "<form" in page.text
    assert not await spine.is_opted_out("marcus@example.com", Channel.EMAIL)
    done = await ch.client.post(path, data={"List-Unsubscribe": "One-Click"})  # no session, no token
    assert done.status_code == 200 and "Unsubscribed" in done.text
    assert await spine.is_opted_out("marcus@example.com", Channel.EMAIL)
    assert not await spine.is_opted_out("+12065551001", Channel.SMS)


async def test_a_reply_has_no_unsubscribe_link_and_a_forged_token_is_refused(make_channels, spine):
    ch = await make_channels(ScriptedPool())
    await ch.email("marcus@example.com", "is the gym open?")
    [reply] = ch.mailgun.wait_for_sends(1)
    assert reply.header("List-Unsubscribe-Post") is None
    real = await unsubscribe_token(spine, "marcus@example.com")
    forged = real.split(".")[0] + ".0000000000000000000000000000000"
    assert (await ch.client.post(f"/email/unsubscribe/{forged}")).status_code == 404
    assert (await ch.client.post("/email/unsubscribe/bm90LWEtdG9rZW4")).status_code == 404
    assert not await spine.is_opted_out("marcus@example.com", Channel.EMAIL)
