"""One rule for "which properties does this person reach" (hardening, the desk issue): the console's
and admin scope's `person_reach` holds equal to the tool gate's derivation for every demo person at
every demo property, so the console can never show a person where the gate would give them nothing."""
from __future__ import annotations

from desk.console.admin_scope import person_reach
from tools.authority import derive_authority

DEMO_PEOPLE = ["p_marcus", "p_jordan", "p_ellen", "p_mike", "p_carlos", "p_priya", "p_sam", "p_lena", "p_nora",
               "p_ruth", "p_tess", "p_spam", "p_marcus_old"]


async def test_person_reach_is_where_the_gate_finds_roles_for_every_demo_person(spine):
    properties = [p.id for p in await spine.list_properties()]
    people = DEMO_PEOPLE
    assert {"pf_yale", "pf_beacon", "pf_capitol"} <= set(properties)
    for person_id in people:
        gate = {prop for prop in properties
                if (await derive_authority(spine, person_id, prop, 0.0)).authoritative_roles}
        assert await person_reach(spine, person_id) == gate, person_id
