"""One owner per Person, over real HTTP in a private Ray (the session's shared gateway application:
Serve, two PersonActor hosts, the DispatcherActor, the offline model): a minted prospect's later
messages reach the actor that holds their conversation; a text during a phone call sees what the
call did; a role removed from the store is refused within the Opening's staleness bound, and
offered again within it once restored."""
from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from gateway.cli.sms import send_sms
from spine.identity import PersonRoleType
from tests.support.serve_helpers import (
    SHARED_ACCOUNT_SID,
    SHARED_ADMIN_TOKEN,
    SHARED_AUTH_TOKEN,
    SHARED_VOICE_TOKEN,
)
from tools.authority import STALE_AFTER_S

pytestmark = pytest.mark.ray

YALE, MARCUS, MIKE = "+12065550100", "+12065551001", "+13035551500"
ADMIN = {"Authorization": f"Bearer {SHARED_ADMIN_TOKEN}"}
VOICE = {"Authorization": f"Bearer {SHARED_VOICE_TOKEN}"}


@pytest.fixture
async def http(serve_gateway):
    async with httpx.AsyncClient(base_url=serve_gateway.url, timeout=30.0) as client:
        yield client


async def text(http, from_: str, body: str):
    exchange = await send_sms(http, base_url=str(http.base_url), auth_token=SHARED_AUTH_TOKEN, from_=from_, body=body,
                              account_sid=SHARED_ACCOUNT_SID)
    assert exchange.status_code == 200
    trace = (await http.get(f"/admin/traces/{exchange.interaction_id}", headers=ADMIN)).json()
    return exchange, trace


async def actors(http) -> list[dict]:
    return (await http.get("/admin/actors", headers=ADMIN)).json()["actors"]


async def test_a_minted_prospects_next_messages_reach_the_actor_holding_the_conversation(http):
    prospect = "+14155550123"
    _first, minted = await text(http, prospect, "do you have 2BR units next month?")
    person_id = minted["participant_id"]
    assert person_id.startswith("p_new_") and minted["routing"]["confidence"] == "inferred"
    for body in ("is parking included?", "can I tour on Tuesday?"):
        _, trace = await text(http, prospect, body)
        assert trace["participant_id"] == person_id
    [owner] = [a for a in await actors(http) if a["person_id"] == person_id]
    assert owner["key"].startswith("person:p_new_") and owner["turns"] == 2
    assert owner["exchanges"] == 3  # the first exchange came with the conversation
    assert not [a for a in await actors(http) if a["key"].startswith("addr:") and a["key"].endswith("0123")]


async def test_a_text_during_a_call_sees_the_work_order_the_call_filed(http):
    call = {"caller_id": MARCUS, "agent_id": "agent", "called_number": YALE, "call_sid": "CA_owner_1"}
    start = await http.post("/voice/personalization", headers=VOICE, json=call)
    assert start.status_code == 200 and "[CONTEXT]" in start.text
    filed = await http.post("/voice/tools/create_work_order", headers=VOICE, json={
        "call_sid": "CA_owner_1", "description": "the dishwasher is flooding the kitchen", "brief": "dishwasher"})
    assert filed.status_code == 200 and filed.json()["is_error"] is False, filed.text
    wo = json.loads(filed.json()["result"])["work_order_id"]
    exchange, _trace = await text(http, MARCUS, "what's the status of my work order?")
    assert wo in " ".join(exchange.messages)
    marcus = [a for a in await actors(http) if a["person_id"] == "p_marcus"]
    assert len(marcus) == 1  # the call and the text are one PersonActor's


async def test_a_role_removed_in_the_store_is_refused_within_the_bound_and_restored_so(http, serve_gateway):
    _, before = await text(http, MIKE, "I'm 10 min out from WO-7")
    assert "add_eta_note" in before["tools_offered"]
    spine = serve_gateway.spine()
    try:
        [role] = [r for r in await spine.roles_of("p_mike") if r.role_type == PersonRoleType.VENDOR_CONTACT]
        await spine.put_role(role.model_copy(update={"active": False}))
        await asyncio.sleep(STALE_AFTER_S + 0.5)
        _, after = await text(http, MIKE, "I'm 10 min out from WO-7")
    finally:
        await spine.put_role(role)
        await spine.store.close()
    assert after["routing"]["roles"] == ["other"] and "add_eta_note" not in after["tools_offered"]
    assert not [c for c in after["tool_calls"] if c["name"] == "add_eta_note" and c["decision"] == "allowed"]
    # Back in the store, the role is offered again within the same bound (and the shared gateway's
    # other tests meet Mike as the vendor he is).
    await asyncio.sleep(STALE_AFTER_S + 0.5)
    _, restored = await text(http, MIKE, "I'm 10 min out from WO-7")
    assert restored["routing"]["roles"] == ["vendor"] and "add_eta_note" in restored["tools_offered"]
