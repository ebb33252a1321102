"""Issue 40 item 5: `staff_may_act`, the check a takeover is held to while it lasts, agrees with the
console's scope (AdminScope.may_act) and turns False when the taker's staff role ends."""
from __future__ import annotations

import pytest

from desk.console.admin_scope import admin_scope
from spine.staff_access import staff_may_act

STAFF = ["p_priya", "p_sam", "p_lena", "p_nora", "p_marcus", "p_mike", "p_ruth", "p_spam"]
PROPERTIES = ["pf_yale", "pf_capitol", "pf_beacon"]


@pytest.mark.parametrize("person_id", STAFF)
async def test_it_agrees_with_the_consoles_scope_on_every_demo_person(spine, person_id):
    scope = await admin_scope(spine, person_id)
    for property_id in PROPERTIES:
        assert await staff_may_act(spine, person_id, property_id) == scope.may_act(property_id), property_id


async def test_nora_may_act_at_beacon_until_her_staff_role_ends(spine):
    assert await staff_may_act(spine, "p_nora", "pf_beacon")
    assert not await staff_may_act(spine, "p_nora", "pf_yale")
    [role] = [r for r in await spine.roles_of("p_nora") if r.role_type == "pm"]
    await spine.put_role(role.model_copy(update={"active": False}))
    assert not await staff_may_act(spine, "p_nora", "pf_beacon")


async def test_a_viewer_and_an_unknown_property_act_nowhere(spine):
    assert not await staff_may_act(spine, "p_sam", "pf_yale")
    assert not await staff_may_act(spine, "p_priya", "pf_nowhere")
    assert await staff_may_act(spine, "p_priya", "pf_yale") and not await staff_may_act(spine, "p_priya", "pf_capitol")
