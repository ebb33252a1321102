"""Every admin read is bounded by the signed-in person's scope (issue 28, finding 2): Nora (pm of
pf_beacon only) sees Beacon's records and no other property's; Sam (org-wide viewer of
org_propflow) sees pf_yale and pf_beacon, never org_capitol's pf_capitol; the operator sees
everything, records tied to no property included. Each route, JSON and page, answers a record
outside the scope as if it did not exist."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest

from actors.host.person_actor import ActorInfo
from desk.console.admin_scope import admin_scope
from spine.events import context_build, graceful_degrade
from spine.records import AgentTrace, EventKind
from tests.support.admin_helpers import AUTH, person_auth
from tests.support.gateway_helpers import OfflinePool

AT = datetime(2026, 3, 10, 15, 0, tzinfo=UTC)
PROPERTIES = ("pf_yale", "pf_beacon", "pf_capitol")
SEES = {"p_nora": {"pf_beacon"}, "p_sam": {"pf_yale", "pf_beacon"}, "operator": set(PROPERTIES)}


class ListingPool(OfflinePool):
    async def actors(self) -> list:
        people = [("p_marcus", ["tenant"]), ("p_tess", ["prospect"]), ("p_nora", ["pm"]), (None, [])]
        return [ActorInfo(key=f"person:{p}" if p else "addr:+14155559876", person_id=p, host="clara-host-0",
                          activated_at=AT, last_active=AT, turns=1, roles=r) for p, r in people]


@pytest.fixture
async def records(spine):
    """One trace, one context-build gap and one graceful-degrade signal per property, and one of
    each tied to no property (an unknown sender's)."""
    for prop in (*PROPERTIES, None):
        tag = prop or "none"
        await spine.put_trace(AgentTrace(interaction_id=f"ix_{tag}", channel="sms", property_id=prop,
                                         inbound=f"secret of {tag}"))
        await context_build(spine, "personId_missing", channel="sms", address="+12065551001", property_id=prop,
                            interaction_id=f"ix_{tag}")
        await graceful_degrade(spine, "no_person_resolved_no_intent_hints", channel="sms", address="+13105557777",
                               property_id=prop, interaction_id=f"ix_{tag}")


async def headers_of(spine, who: str) -> dict[str, str]:
    return AUTH if who == "operator" else await person_auth(spine, who)


def seen(who: str) -> set[str]:
    return {f"ix_{p}" for p in SEES[who]} | ({"ix_none"} if who == "operator" else set())


async def test_the_scope_is_derived_from_the_store(spine):
    nora, sam, operator = [await admin_scope(spine, who) for who in ("p_nora", "p_sam", "operator")]
    assert nora.property_ids == {"pf_beacon"} and sam.property_ids == {"pf_yale", "pf_beacon"}
    assert operator.property_ids is None and operator.sees(None) and not sam.sees(None)
    assert nora.may_act("pf_beacon") and not sam.may_act("pf_yale") and not nora.may_act("pf_yale")
    assert await nora.sees_person(spine, "p_priya") and not await nora.sees_person(spine, "p_marcus")
    # Acting as someone needs all they reach: Priya reaches pf_yale too, Carlos org_capitol's pf_capitol.
    assert await sam.covers_person(spine, "p_priya") and not await nora.covers_person(spine, "p_priya")
    assert not await sam.covers_person(spine, "p_carlos") and await operator.covers_person(spine, "p_carlos")
    assert (await admin_scope(spine, "p_marcus")).property_ids == frozenset()  # no staff role: nothing


@pytest.mark.parametrize("who", ["p_nora", "p_sam", "operator"])
async def test_traces_json_and_pages(make_admin, spine, records, who):
    client, _ = await make_admin(OfflinePool(spine))
    headers = await headers_of(spine, who)
    listed = (await client.get("/admin/traces", headers=headers)).json()["traces"]
    assert {t["interaction_id"] for t in listed} == seen(who)
    page = (await client.get("/admin/traces/view", headers=headers)).text
    for tag in (*PROPERTIES, "none"):
        visible = f"ix_{tag}" in seen(who)
        one = await client.get(f"/admin/traces/ix_{tag}", headers=headers)
        assert one.status_code == (200 if visible else 404), (who, tag)
        view = await client.get(f"/admin/traces/view/ix_{tag}", headers=headers)
        assert view.status_code == (200 if visible else 404) and (f"secret of {tag}" in view.text) == visible
        assert (f"secret of {tag}" in page) == visible, (who, tag)
    filtered = (await client.get("/admin/traces", params={"channel": "sms"},
                                 headers=headers)).json()["traces"]
    assert {t["interaction_id"] for t in filtered} == seen(who)


@pytest.mark.parametrize("who", ["p_nora", "p_sam", "operator"])
async def test_events_and_status_cards(make_admin, spine, records, who):
    client, _ = await make_admin(OfflinePool(spine))
    headers = await headers_of(spine, who)
    events = (await client.get("/admin/events", headers=headers)).json()["events"]
    expected = SEES[who] | ({None} if who == "operator" else set())
    assert {e["property_id"] for e in events} == expected and len(events) == 2 * len(expected)
    gaps = (await client.get("/admin/events", params={"kind": EventKind.CONTEXT_BUILD}, headers=headers)).json()
    assert {e["property_id"] for e in gaps["events"]} == expected
    status = (await client.get("/admin/api/status", headers=headers)).json()
    assert status["context_build"]["total"] == len(expected) == status["graceful_degrade"]["total"]
    assert {g["property_id"] for g in status["context_build"]["recent"]} == expected
    page = (await client.get("/admin/status", headers=headers)).text
    for prop in PROPERTIES:
        assert (f"<td>{prop}</td>" in page) == (prop in SEES[who]), (who, prop)


@pytest.mark.parametrize("who, people", [("p_nora", ["p_nora"]), ("p_sam", ["p_marcus", "p_nora", "p_tess"]),
                                         ("operator", [None, "p_marcus", "p_nora", "p_tess"])])
async def test_actors_json_and_page(make_admin, spine, who, people):
    client, _ = await make_admin(ListingPool(spine))
    headers = await headers_of(spine, who)
    listed = (await client.get("/admin/actors", headers=headers)).json()["actors"]
    assert sorted([a["person_id"] for a in listed], key=str) == sorted(people, key=str)
    page = (await client.get("/admin/actors/view", headers=headers)).text
    assert f"{len(people)} active on 1 host(s)" in page
    assert ("person:p_marcus" in page) == ("p_marcus" in people) and ("addr:" in page) == (None in people)


@pytest.mark.parametrize("who", ["p_nora", "p_sam", "operator"])
async def test_ask_clara_offers_only_the_properties_in_scope(make_admin, spine, who):
    client, _ = await make_admin(OfflinePool(spine))
    form = (await client.get("/admin/ask", headers=await headers_of(spine, who))).text
    offered = {p for p in PROPERTIES if f'<option value="{p}"' in form}
    assert offered == SEES[who]

