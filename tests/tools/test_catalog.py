"""catalog_for(): what the model may see, in a stable order, byte-identical per role shape."""
from __future__ import annotations

import json

from spine.identity import OccupancyKind, Person, PersonRole, PersonRoleSource, PersonRoleType, RoleScope
from tools.caller import load_caller
from tools.catalog import catalog_for, facility_tools, role_tools_for, voice_catalog
from tools.matrix import TOOL_ROLE_MATRIX


def names(specs) -> list[str]:
    return [s.name for s in specs]


def wire(specs) -> str:
    return json.dumps([s.to_api() for s in specs])


async def test_order_is_facility_sorted_then_role_tools_sorted_then_escalation(callers):
    offered = names(catalog_for(callers["carlos"]))
    facility = names(facility_tools())
    assert offered[:len(facility)] == facility == sorted(facility)
    role = offered[len(facility):-1]
    assert role == sorted(role) and offered[-1] == "escalate_to_human"
    assert {"create_work_order", "update_work_order", "get_dispatch_details"} <= set(role)  # union of both roles
    assert names(role_tools_for(callers["carlos"])) == offered[len(facility):]


async def test_same_role_shape_gets_byte_identical_tools(spine, callers):
    """Another primary tenant, in another unit, gets exactly Marcus's tool list (prompt cache hit)."""
    await spine.put_person(Person(id="p_nina", display_name="Nina Ross"))
    await spine.put_role(PersonRole(id="tr_nina_401", person_id="p_nina", role_type=PersonRoleType.TENANT,
                                    source=PersonRoleSource.PMS_SYNC,
                                    scope=RoleScope(org_id="org_propflow", property_id="pf_yale",
                                                    unit_id="u_yale_401", occupancy=OccupancyKind.PRIMARY)))
    nina = await load_caller(spine, "p_nina", "pf_yale", "int-nina")
    assert wire(catalog_for(nina)) == wire(catalog_for(callers["marcus"]))
    # A roommate's catalog leaves out what her occupancy can never pass: a different, equally shared list.
    roommate = names(catalog_for(callers["jordan"]))
    assert set(names(catalog_for(callers["marcus"]))) - set(roommate) == {"get_balance", "respond_to_renewal"}
    await spine.put_person(Person(id="p_ola", display_name="Ola Berg"))
    await spine.put_role(PersonRole(id="tr_ola_401", person_id="p_ola", role_type=PersonRoleType.TENANT,
                                    source=PersonRoleSource.PMS_SYNC,
                                    scope=RoleScope(org_id="org_propflow", property_id="pf_yale",
                                                    unit_id="u_yale_401", occupancy=OccupancyKind.ROOMMATE)))
    ola = await load_caller(spine, "p_ola", "pf_yale", "int-ola")
    assert wire(catalog_for(ola)) == wire(catalog_for(callers["jordan"]))


async def test_pm_variants_differ_by_staff_role(callers):
    def pm_tools(name):
        return [n for n in names(catalog_for(callers[name])) if n.startswith("pm_")]
    assert pm_tools("priya") == sorted(n for n in TOOL_ROLE_MATRIX if n.startswith("pm_"))
    assert pm_tools("sam") == ["pm_list_open_work_orders", "pm_lookup_person"]
    assert pm_tools("lena") == ["pm_list_open_work_orders", "pm_list_tours", "pm_lookup_person", "pm_send_renewal"]
    assert "pm_close_work_order" not in pm_tools("max") and "pm_assign_vendor" in pm_tools("max")
    assert "pm_list_tours" not in pm_tools("max")  # tours are leasing work, not maintenance


async def test_prospect_catalog(callers):
    role = names(role_tools_for(callers["prospect"]))
    assert role == ["get_available_units", "get_pricing_details", "save_prospect", "schedule_tour",
                    "send_application_link", "escalate_to_human"]


def test_voice_catalog_leaves_out_sms_only_tools():
    voice = names(voice_catalog())
    assert "request_photo" not in voice and "send_application_link" not in voice
    assert "create_work_order" in voice and voice[-1] == "escalate_to_human"


async def test_specs_are_independent_copies_of_stable_values(callers):
    first = catalog_for(callers["marcus"])
    first[0].description = "mutated by a careless caller"
    assert catalog_for(callers["marcus"])[0].description != "mutated by a careless caller"
