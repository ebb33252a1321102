"""Email and Telegram in a real (private) Ray: the gateway on Serve over real HTTP, PersonActor
hosts, the DispatcherActor, the offline model, and the Mailgun and Telegram Bot API stand-ins
(the session's shared gateway application). The ADR's K-1..K-5 by email and on Telegram, end to end."""
from __future__ import annotations

import httpx
import pytest

from gateway.cli.email import send_email
from gateway.cli.telegram import send_update
from gateway.telegram.updates import contact_update, text_update
from tests.support.mailgun_server import MailgunStandIn
from tests.support.serve_helpers import SHARED_ADMIN_TOKEN, SHARED_TELEGRAM_SECRET

pytestmark = pytest.mark.ray

ADMIN_TOKEN, SECRET = SHARED_ADMIN_TOKEN, SHARED_TELEGRAM_SECRET


@pytest.fixture
async def http(serve_gateway):
    async with httpx.AsyncClient(base_url=serve_gateway.url, timeout=60.0) as client:
        yield client


@pytest.fixture
def mailgun(serve_gateway):
    return serve_gateway.mailgun


@pytest.fixture
def telegram(serve_gateway):
    return serve_gateway.telegram


async def trace_of(http, interaction_id: str | None) -> dict:
    assert interaction_id, "the webhook named no interaction"
    response = await http.get(f"/admin/traces/{interaction_id}", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert response.status_code == 200, response.text
    return response.json()


async def email(http, mailgun: MailgunStandIn, from_: str, body: str, **options) -> dict:
    exchange = await send_email(http, base_url=str(http.base_url), signing_key=mailgun.signing_key,
                                from_=from_, body=body, **options)
    assert exchange.status_code == 200, exchange.error
    return await trace_of(http, exchange.interaction_id)


async def telegram_text(http, user_id: int, text: str, contact: str | None = None) -> dict:
    if contact:
        linked = await send_update(http, base_url=str(http.base_url), secret=SECRET,
                                   update=contact_update(user_id=user_id, phone=contact))
        assert linked.outcome == "linked", linked
    exchange = await send_update(http, base_url=str(http.base_url), secret=SECRET,
                                 update=text_update(user_id=user_id, text=text))
    assert exchange.status_code == 200, exchange.error
    return await trace_of(http, exchange.interaction_id)


K_FLOWS = [  # (label, email sender, Telegram user and contact, message, roles, participant)
    ("K-1", "marcus@example.com", (7100001, "+12065551001"), "my toilet is overflowing!", ["tenant"], "p_marcus"),
    ("K-2", "mike@inhouse.example", (7100002, "+13035551500"), "I'm 10 min out from WO-7", ["vendor"], "p_mike"),
    ("K-3", "dana@newmail.example", (7100003, None), "do you have 2BR units next month?", ["prospect"], "p_new_"),
    ("K-4", "carlos@carlosplumbing.example", (7100004, "+13035552020"), "check on WO-42", ["tenant", "vendor"],
     "p_carlos"),
    ("K-5", "trevor.friend@mail.example", (7100005, None), "yo what's up Trevor", ["other"], None),
]


@pytest.mark.parametrize("label,sender,tg,body,roles,participant", K_FLOWS, ids=[f[0] for f in K_FLOWS])
async def test_k_flows_by_email_and_on_telegram(http, mailgun, telegram, label, sender, tg, body, roles, participant):
    by_email = await email(http, mailgun, sender, body)
    on_telegram = await telegram_text(http, tg[0], body, contact=tg[1])
    for trace, channel in ((by_email, "email"), (on_telegram, "telegram")):
        assert trace["channel"] == channel and trace["routing"]["roles"] == roles, (label, channel, trace["routing"])
        who = trace["participant_id"]
        assert (who is None) if participant is None else (who or "").startswith(participant), (label, channel, who)
        assert trace["reply"]
    assert any(s.form["text"] == by_email["reply"] and s.form["to"] == sender for s in mailgun.wait_for_sends(1))
    assert any(c.payload["text"] == on_telegram["reply"] for c in telegram.wait_for_sends(1))
    if label == "K-4":  # both catalogs, on both channels
        assert {"create_work_order", "update_work_order"} <= set(by_email["tools_offered"]) & set(
            on_telegram["tools_offered"])


async def test_a_forged_email_from_a_known_address_is_not_that_person(http, mailgun):
    trace = await email(http, mailgun, "marcus@example.com", "my toilet is overflowing!", sender="x@evil.example", dkim="none")
    assert trace["participant_id"] is None and trace["routing"]["roles"] == ["other"]
    assert any(e["kind"] == "gateway/sender-unverified" for e in trace["events"])
