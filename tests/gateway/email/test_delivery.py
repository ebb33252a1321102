"""Email replies through Mailgun's messages API: outbox first, one email per reply, retried only
when Mailgun surely queued nothing."""
from __future__ import annotations

import httpx

from gateway.email.delivery import EmailDelivery
from gateway.email.mailgun import MailgunMessages
from spine.context import Channel
from spine.records import OptOut, OutboxStatus


def _delivery(spine, mailgun, http, api_key=None) -> EmailDelivery:
    return EmailDelivery(spine, MailgunMessages(http, api_base=mailgun.url, domain=mailgun.domain,
                                                api_key=api_key or mailgun.api_key, backoff_s=0.0))


async def _send(delivery, key="k1"):
    return await delivery.send(key=key, to="marcus@example.com", from_="yale@clara.example", body="Hello",
                               subject="Re: hi", headers={"In-Reply-To": "<a@b>"})


async def test_a_reply_is_sent_once_however_often_it_is_retried(spine, mailgun):
    mailgun.requests.clear()
    async with httpx.AsyncClient() as http:
        delivery = _delivery(spine, mailgun, http)
        first, again = await _send(delivery), await _send(delivery)
    assert first.status == OutboxStatus.SENT and first.provider_id.endswith("@clara.example>")
    assert again == first and len(mailgun.sent) == 1
    assert mailgun.sent[0].header("In-Reply-To") == "<a@b>"


async def test_a_rate_limit_is_retried_and_a_server_error_is_not(spine, mailgun):
    mailgun.requests.clear()
    async with httpx.AsyncClient() as http:
        delivery = _delivery(spine, mailgun, http)
        mailgun.fail_next(429)
        assert (await _send(delivery, "k2")).status == OutboxStatus.SENT
        mailgun.fail_next(500)
        failed = await _send(delivery, "k3")
    assert [s.status for s in mailgun.sent] == [429, 200, 500]
    assert failed.status == OutboxStatus.FAILED and "500" in failed.error


async def test_a_wrong_api_key_fails_the_row_with_mailguns_answer(spine, mailgun):
    async with httpx.AsyncClient() as http:
        failed = await _send(_delivery(spine, mailgun, http, api_key="wrong"), "k4")
    assert failed.status == OutboxStatus.FAILED and "401" in failed.error
    assert (await spine.get_outbox("k4")).status == OutboxStatus.FAILED


async def test_a_reply_to_an_unsubscribed_address_is_kept_blocked_with_the_reason(spine, mailgun):
    await spine.set_opt_out(OptOut(address="marcus@example.com", opted_out=True, keyword="unsubscribe",
                                   channel=Channel.EMAIL))
    mailgun.requests.clear()
    async with httpx.AsyncClient() as http:
        row = await _send(_delivery(spine, mailgun, http), "k5")
    assert (row.status, row.error) == (OutboxStatus.BLOCKED, "opted out of email") and mailgun.sent == []
