"""resolve_active_roles across the demo people, on both backends."""
from __future__ import annotations

import pytest

from spine.identity import OccupancyKind, PersonRole, PersonRoleSource, PersonRoleType, RoleScope
from spine.roles import resolve_active_roles


async def _roles(spine, person_id: str, property_id: str) -> list[tuple[str, dict]]:
    found = await resolve_active_roles(spine, person_id, property_id)
    return sorted((r.role_type.value, r.scope.model_dump(exclude_none=True)) for r in found)


async def test_marcus_is_primary_tenant_of_unit_204_at_yale_only(seeded):
    assert await _roles(seeded, "p_marcus", "pf_yale") == [
        ("tenant", {"org_id": "org_propflow", "property_id": "pf_yale", "unit_id": "u_yale_204",
                    "occupancy": "primary"}),
    ]
    assert (await seeded.get_unit("u_yale_204")).number == "204"
    assert await _roles(seeded, "p_marcus", "pf_capitol") == []


@pytest.mark.parametrize("person_id, occupancy", [("p_jordan", "roommate"), ("p_ellen", "guarantor")])
async def test_roommate_and_guarantor_of_204(seeded, person_id, occupancy):
    [(kind, scope)] = await _roles(seeded, person_id, "pf_yale")
    assert (kind, scope["unit_id"], scope["occupancy"]) == ("tenant", "u_yale_204", occupancy)


async def test_carlos_is_tenant_and_vendor_at_yale(seeded):
    assert await _roles(seeded, "p_carlos", "pf_yale") == [
        ("tenant", {"org_id": "org_propflow", "property_id": "pf_yale", "unit_id": "u_yale_110",
                    "occupancy": "primary"}),
        ("vendor_contact", {"vendor_id": "v_carlos"}),
    ]


async def test_carlos_is_vendor_only_at_capitol_in_another_org(seeded):
    # Carlos Plumbing services pf_capitol (org_capitol); his tenancy at pf_yale does not follow him.
    assert await _roles(seeded, "p_carlos", "pf_capitol") == [("vendor_contact", {"vendor_id": "v_carlos"})]
    assert (await seeded.get_property("pf_capitol")).org_id != (await seeded.get_property("pf_yale")).org_id


async def test_mike_is_vendor_at_yale_only(seeded):
    assert await _roles(seeded, "p_mike", "pf_yale") == [("vendor_contact", {"vendor_id": "v_inhouse"})]
    assert await _roles(seeded, "p_mike", "pf_capitol") == []


@pytest.mark.parametrize("person_id, role", [("p_priya", "pm"), ("p_sam", "viewer"), ("p_lena", "leasing_agent")])
async def test_staff_roles_hold_across_their_org_only(seeded, person_id, role):
    assert await _roles(seeded, person_id, "pf_yale") == [(role, {"org_id": "org_propflow"})]
    assert await _roles(seeded, person_id, "pf_capitol") == []


async def test_ruth_is_deceased_and_still_has_her_role_row(seeded):
    # The row stays (history); L1 reads Person.deceased and routes to the estate-of lane.
    assert (await seeded.get_person("p_ruth")).deceased is True
    [(kind, scope)] = await _roles(seeded, "p_ruth", "pf_yale")
    assert (kind, scope["unit_id"]) == ("tenant", "u_yale_305")


@pytest.mark.parametrize("person_id", ["p_spam", "p_marcus_old", "p_nobody"])
async def test_people_without_roles_have_none(seeded, person_id):
    assert await _roles(seeded, person_id, "pf_yale") == []


async def test_an_unknown_property_has_no_roles(seeded):
    assert await _roles(seeded, "p_priya", "pf_nowhere") == []


def _role(rid: str, pid: str, kind: PersonRoleType, scope: RoleScope, active: bool = True) -> PersonRole:
    return PersonRole(id=rid, person_id=pid, role_type=kind, source=PersonRoleSource.MANUAL_PM, scope=scope,
                      active=active)


async def test_inactive_roles_do_not_count(seeded):
    await seeded.put_role(_role("tr_gone", "p_former", PersonRoleType.TENANT,
                                RoleScope(unit_id="u_yale_312", occupancy=OccupancyKind.PRIMARY), active=False))
    assert await _roles(seeded, "p_former", "pf_yale") == []


async def test_property_scoped_staff_and_prospects_hold_at_that_property_only(seeded):
    await seeded.put_role(_role("sr_maint", "p_maint", PersonRoleType.MAINTENANCE,
                                RoleScope(org_id="org_propflow", property_id="pf_yale")))
    await seeded.put_role(_role("pr_ana", "p_ana", PersonRoleType.PROSPECT, RoleScope(property_id="pf_capitol")))
    assert [k for k, _ in await _roles(seeded, "p_maint", "pf_yale")] == ["maintenance"]
    assert await _roles(seeded, "p_ana", "pf_yale") == []
    assert [k for k, _ in await _roles(seeded, "p_ana", "pf_capitol")] == ["prospect"]


async def test_platform_admin_holds_everywhere_and_a_vendor_without_a_vendor_nowhere(seeded):
    await seeded.put_role(_role("ar_root", "p_root", PersonRoleType.PLATFORM_ADMIN, RoleScope()))
    await seeded.put_role(_role("vr_ghost", "p_ghost", PersonRoleType.VENDOR_CONTACT, RoleScope(vendor_id="v_gone")))
    assert [k for k, _ in await _roles(seeded, "p_root", "pf_capitol")] == ["platform_admin"]
    assert await _roles(seeded, "p_ghost", "pf_yale") == []


async def test_who_occupies_unit_204(seeded):
    people = {r.person_id for r in await seeded.roles_scoped_to("UNITROLES#u_yale_204")}
    assert people == {"p_marcus", "p_jordan", "p_ellen"}
    assert {r.person_id for r in await seeded.roles_scoped_to("VENDORROLES#v_carlos")} == {"p_carlos"}


async def test_a_property_moved_to_another_org_leaves_its_old_orgs_property_scoped_staff(store):
    # Issue 40 item 4: Nora's pm role names pf_beacon within org_propflow; once pf_beacon belongs to
    # org_capitol, her role no longer reaches it (nor does it reach anything else).
    from desk.portfolio.demo import seed
    from spine.repo import Spine

    spine = Spine(store)
    await seed(spine)
    assert await _roles(spine, "p_nora", "pf_beacon") == [("pm", {"org_id": "org_propflow", "property_id": "pf_beacon"})]
    beacon = await spine.get_property("pf_beacon")
    await spine.put_property(beacon.model_copy(update={"org_id": "org_capitol"}))
    assert await _roles(spine, "p_nora", "pf_beacon") == []
    # Priya's org-wide propflow role does not follow the property either.
    assert await _roles(spine, "p_priya", "pf_beacon") == []
