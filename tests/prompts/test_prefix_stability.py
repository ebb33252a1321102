"""The cache key: the same role set at the same property gives byte-identical prefix bytes."""
from __future__ import annotations

from spine.identity import (
    Claim,
    ClaimKind,
    OccupancyKind,
    Person,
    PersonRole,
    PersonRoleSource,
    PersonRoleType,
    RoleScope,
)
from spine.routing_types import L1Result, MetaRole
from tests.support.prompt_helpers import assembled, marcus_context


async def add_primary_tenant(spine, person_id: str, phone: str, unit_id: str) -> None:
    await spine.put_person(Person(id=person_id, display_name="Dana Kim", claims=[Claim(kind=ClaimKind.PHONE,
                                                                                       value=phone)]))
    await spine.put_role(PersonRole(id=f"tr_{person_id}", person_id=person_id, role_type=PersonRoleType.TENANT,
                                    source=PersonRoleSource.PMS_SYNC,
                                    scope=RoleScope(org_id="org_propflow", property_id="pf_yale", unit_id=unit_id,
                                                    occupancy=OccupancyKind.PRIMARY)))


async def test_two_tenants_at_one_property_share_the_prefix_bytes(spine):
    await add_primary_tenant(spine, "p_dana", "+12065551312", "u_yale_312")
    marcus = await assembled(spine, "+12065551001", context=marcus_context())
    dana = await assembled(spine, "+12065551312")
    assert marcus.stable_prefix == dana.stable_prefix
    assert marcus.volatile != dana.volatile


async def test_one_tenant_at_two_interactions_shares_the_prefix_bytes(spine):
    first = await assembled(spine, "+12065551001")
    later = await assembled(spine, "+12065551001", context=marcus_context())
    assert first.stable_prefix == later.stable_prefix and first.volatile != later.volatile


async def test_nothing_person_specific_sits_above_the_breakpoint(spine):
    p = await assembled(spine, "+12065551001", context=marcus_context())
    for private in ("Marcus", "p_marcus", "1001", "2026-05-12", "int-marcus-0512", "flapper ordered",
                    "rw_yale_204_2027"):
        assert private not in p.stable_prefix, private
    assert "Marcus" in p.volatile and "flapper ordered" in p.volatile


async def test_a_roommate_and_a_primary_signer_differ_only_in_the_tools_she_can_never_pass(spine):
    # Marcus (primary) and Jordan (roommate): the same L0 and L2; her catalog leaves out get_balance
    # and respond_to_renewal (tools.catalog), so the two prefixes differ, each shared by its shape.
    marcus = await assembled(spine, "+12065551001")
    jordan = await assembled(spine, "+12065551002")
    assert marcus.system[:2] == jordan.system[:2]
    assert {t["name"] for t in marcus.tools} - {t["name"] for t in jordan.tools} == {"get_balance", "respond_to_renewal"}


async def test_tenant_and_vendor_prefixes_differ(spine):
    tenant = await assembled(spine, "+12065551001")
    vendor = await assembled(spine, "+13035551500")
    assert tenant.stable_prefix != vendor.stable_prefix
    assert tenant.system[0] == vendor.system[0]  # L0 is shared by everyone at the property


async def test_role_order_does_not_change_the_prefix(spine):
    a = await assembled(spine, "+13035552020", l1=L1Result(roles=[MetaRole.TENANT, MetaRole.VENDOR]))
    b = await assembled(spine, "+13035552020", l1=L1Result(roles=[MetaRole.VENDOR, MetaRole.TENANT]))
    assert a.stable_prefix == b.stable_prefix


async def test_the_property_line_is_the_only_property_difference(spine):
    yale = await assembled(spine, "+13035552020", property_id="pf_yale", l1=L1Result(roles=[MetaRole.VENDOR]))
    capitol = await assembled(spine, "+13035552020", property_id="pf_capitol")
    assert yale.system[1:] != [] and yale.system[1] == capitol.system[1]
    assert yale.system[0]["text"].replace("JP Yale Station", "Capitol Flats") == capitol.system[0]["text"]
