"""One owner per Person, over real HTTP in a private Ray (Serve, two PersonActor hosts, the
DispatcherActor, the offline model): a minted prospect's later messages reach the actor that holds
their conversation; a text during a phone call sees what the call did; a role removed from the
store is refused within the Opening's staleness bound."""
from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from actors.authority import STALE_AFTER_S
from gateway.cli.sms import send_sms
from spine.identity import PersonRoleType
from spine.repo import Spine
from spine.store.sqlite import SqliteStore
from tests.support.serve_helpers import deploy_gateway, seeded_store, serve_http_port, undeploy

pytestmark = pytest.mark.ray

APP = "clara-person-owner"
AUTH_TOKEN, ADMIN_TOKEN, VOICE_TOKEN = "owner-twilio-token", "owner-admin-token", "owner-voice-token"
YALE, MARCUS, MIKE = "+12065550100", "+12065551001", "+13035551500"
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
VOICE = {"Authorization": f"Bearer {VOICE_TOKEN}"}


@pytest.fixture(scope="module")
async def store_path(tmp_path_factory):
    return await seeded_store(tmp_path_factory.mktemp("person-owner"))


@pytest.fixture(scope="module")
def base_url(ray_session, store_path):
    url = f"http://127.0.0.1:{serve_http_port()}"
    deploy_gateway(APP, env={"GATEWAY_STORE": f"sqlite:///{store_path}", "GATEWAY_MODEL": "offline",
                             "TWILIO_AUTH_TOKEN": AUTH_TOKEN, "GATEWAY_PUBLIC_URL": url,
                             "GATEWAY_ADMIN_TOKEN": ADMIN_TOKEN, "GATEWAY_VOICE_TOKEN": VOICE_TOKEN})
    yield url
    undeploy(APP)


@pytest.fixture
async def http(base_url):
    async with httpx.AsyncClient(base_url=base_url, timeout=30.0) as client:
        yield client


async def text(http, from_: str, body: str):
    exchange = await send_sms(http, base_url=str(http.base_url), auth_token=AUTH_TOKEN, from_=from_, body=body)
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


async def test_a_role_removed_in_the_store_is_refused_within_the_bound(http, store_path):
    _, before = await text(http, MIKE, "I'm 10 min out from WO-7")
    assert "add_eta_note" in before["tools_offered"]
    spine = Spine(SqliteStore(store_path))
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
