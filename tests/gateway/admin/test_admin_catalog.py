"""The 'Allowed roles' catalog viewer is a faithful projection of TOOL_ROLE_MATRIX."""
from __future__ import annotations

import pytest

from spine.identity import OccupancyKind, PersonRoleType
from tests.support.admin_helpers import AUTH
from tests.support.gateway_helpers import OfflinePool
from tools.authority import Authority, CallerFacts
from tools.caller import Caller
from tools.catalog import catalog_names
from tools.matrix import TOOL_ROLE_MATRIX


async def test_every_tool_with_its_policy(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    rows = (await client.get("/admin/api/tools", headers=AUTH)).json()["tools"]
    assert [r["name"] for r in rows] == list(TOOL_ROLE_MATRIX)
    for row in rows:
        policy = TOOL_ROLE_MATRIX[row["name"]]
        allowed = "*" if policy.roles == "*" else sorted(policy.roles)
        assert (row["catalog"], row["scope"], row["read_only"], row["voice_applicable"], row["allowed_roles"],
                row["verified_caller"], row["voice_only"]) == (
            policy.catalog, policy.scope.value, policy.read_only, policy.voice_applicable, allowed,
            policy.verified_caller, policy.voice_only), row["name"]
        assert row["description"], row["name"]


def _single_role_caller(role: PersonRoleType) -> Caller:
    # The page lists a role's tools; a tenant's fullest catalog is a primary signer's (a roommate's
    # leaves out what her occupancy can never pass).
    units = {"u_yale_204": frozenset({OccupancyKind.PRIMARY})} if role == PersonRoleType.TENANT else {}
    facts = CallerFacts(person_id="p", property_id="pf_yale", org_id="org", role_types=frozenset({role}), units=units)
    return Caller.of(Authority(person_id="p", property_id="pf_yale", org_id="org", facts=facts), "ix")


@pytest.mark.parametrize("role", list(PersonRoleType))
async def test_role_filter_matches_what_the_model_is_offered(make_admin, spine, role):
    client, _ = await make_admin(OfflinePool(spine))
    body = (await client.get("/admin/api/tools", params={"role": role.value}, headers=AUTH)).json()
    assert body["role"] == role.value
    voice_only = [n for n, p in TOOL_ROLE_MATRIX.items() if p.voice_only]  # the step-up: on calls, not in text
    assert sorted(r["name"] for r in body["tools"]) == sorted([*catalog_names(_single_role_caller(role)), *voice_only])


async def test_viewer_page_shows_lookups_not_mutations(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    page = await client.get("/admin/tools", params={"role": "viewer"}, headers=AUTH)
    assert page.status_code == 200
    assert "pm_lookup_person" in page.text and "pm_list_open_work_orders" in page.text
    assert "get_pool_status" in page.text and "escalate_to_human" in page.text
    for hidden in ("pm_close_work_order", "pm_create_work_order", "create_work_order", "accept_dispatch"):
        assert f"<b>{hidden}</b>" not in page.text, hidden
    assert '<option value="viewer" selected>' in page.text


async def test_page_lists_allowed_roles_per_tool(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    page = (await client.get("/admin/tools", headers=AUTH)).text
    assert page.count("<tr><td><b>") == len(TOOL_ROLE_MATRIX)
    close_row = page.split("<b>pm_close_work_order</b>")[1].split("</tr>")[0]
    assert '<span class="pill">org_admin</span><span class="pill">pm</span></td>' in close_row
    assert "viewer" not in close_row
    assert "* (every caller)" in page.split("<b>get_pet_policy</b>")[1].split("</tr>")[0]


async def test_page_shows_which_tools_need_a_verified_caller_on_voice(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    page = (await client.get("/admin/tools", headers=AUTH)).text
    assert "verified caller (voice)" in page

    def row(name: str) -> str:
        return page.split(f"<b>{name}</b>")[1].split("</tr>")[0]

    assert "required" in row("get_balance") and "required" in row("pm_close_work_order")
    assert "required" not in row("create_work_order") and "required" not in row("get_pet_policy")


async def test_unknown_role_is_a_clear_400(make_admin, spine):
    client, _ = await make_admin(OfflinePool(spine))
    api = await client.get("/admin/api/tools", params={"role": "landlord"}, headers=AUTH)
    assert api.status_code == 400 and "landlord" in api.json()["detail"]
    page = await client.get("/admin/tools", params={"role": "<landlord>"}, headers=AUTH)
    assert page.status_code == 400 and "&lt;landlord&gt;" in page.text and "<landlord>" not in page.text
