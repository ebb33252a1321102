"""The ADR's worked examples K-1..K-5 against the demo data: roles, confidence, L2 bundles, catalogs."""
from __future__ import annotations

from prompts.directory import features_for
from spine.context import Channel
from spine.events import GracefulDegradeReason
from spine.identity import ClaimKind, PersonRoleSource, PersonRoleType
from spine.records import EventKind
from spine.routing_types import MetaRole
from tests.support.routing_helpers import YALE, role_tool_names, route
from tools.catalog import facility_tools

TENANT_TOOLS = {"create_work_order", "get_unit_appliances", "get_troubleshooting_steps", "request_photo"}
VENDOR_TOOLS = {"update_work_order", "add_eta_note", "get_dispatch_details", "handoff_to_other_vendor"}
PROSPECT_TOOLS = {"save_prospect", "get_available_units", "schedule_tour", "get_pricing_details"}
FACILITY_TOOLS = {"get_property_amenities", "get_property_hours", "get_pet_policy", "get_parking_rules",
                  "get_pool_status"}


def feature_keys(roles) -> list[str]:
    return [f.key for f in features_for(roles)]


async def test_k1_tenant_texts_maintenance(spine):
    d = await route(spine, "+12065551001", "my toilet is overflowing!")
    assert (d.person_id, d.l1.roles, d.l1.confidence) == ("p_marcus", [MetaRole.TENANT], "fact")
    assert d.graceful_degrade_reason is None and not d.minted
    assert feature_keys(d.l1.roles) == ["tenant/maintenance", "tenant/renewal", "tenant/general_inquiry",
                                        "tenant/rating"]
    tools = await role_tool_names(spine, d)
    assert TENANT_TOOLS | {"escalate_to_human"} <= tools
    assert not tools & (VENDOR_TOOLS | PROSPECT_TOOLS)


async def test_k2_vendor_calls_about_a_work_order(spine):
    d = await route(spine, "+13035551500", "I'm 10 min out from WO-7", channel=Channel.VOICE)
    assert (d.person_id, d.l1.roles, d.l1.confidence) == ("p_mike", [MetaRole.VENDOR], "fact")
    assert feature_keys(d.l1.roles) == ["vendor/respond_to_dispatch", "vendor/schedule_confirmation",
                                        "vendor/work_order_update", "vendor/handoff"]
    tools = await role_tool_names(spine, d)
    assert tools >= VENDOR_TOOLS and "create_work_order" not in tools


async def test_k3_unknown_number_minted_as_inferred_prospect(spine):
    d = await route(spine, "+14155559876", "do you have 2BR units next month?")
    assert d.l1.roles == [MetaRole.PROSPECT] and d.l1.confidence == "inferred"
    assert d.l1.inferred_intent.kind == "availability" and d.minted
    assert await spine.find_person_id_by_claim(ClaimKind.PHONE, "+14155559876") == d.person_id
    person = await spine.get_person(d.person_id)
    assert person.phones() == ["+14155559876"] and "4155559876" not in person.id
    [role] = await spine.roles_of(d.person_id)
    assert (role.role_type, role.source, role.scope.property_id) == (PersonRoleType.PROSPECT,
                                                                     PersonRoleSource.ROUTER_MINT, YALE)
    prospect = await spine.get_prospect(d.person_id, YALE)
    assert prospect is not None and prospect.stage == "inquiry"
    assert feature_keys(d.l1.roles) == ["prospect/discovery", "prospect/tour_schedule", "prospect/application",
                                        "prospect/disqualification"]
    tools = await role_tool_names(spine, d)
    assert tools >= PROSPECT_TOOLS and not tools & TENANT_TOOLS

    again = await route(spine, "+14155559876", "tuesday at 3 works")
    assert (again.person_id, again.minted, again.l1.confidence) == (d.person_id, False, "inferred")
    assert again.l1.inferred_intent is None  # intent is reported on promotion only
    assert len(await spine.roles_of(d.person_id)) == 1


async def test_k4_multi_role_caller_loads_both_bundles_and_both_catalogs(spine):
    d = await route(spine, "+13035552020", "check on WO-42")
    assert (d.person_id, d.l1.roles, d.l1.confidence) == ("p_carlos", [MetaRole.TENANT, MetaRole.VENDOR], "fact")
    keys = feature_keys(d.l1.roles)
    assert len(keys) == 8 and keys == feature_keys([MetaRole.TENANT]) + feature_keys([MetaRole.VENDOR])
    carlos = await role_tool_names(spine, d)
    marcus = await role_tool_names(spine, await route(spine, "+12065551001", "hi"))  # primary tenant too
    mike = await role_tool_names(spine, await route(spine, "+13035551500", "hi"))
    assert carlos == marcus | mike
    assert carlos >= TENANT_TOOLS | VENDOR_TOOLS


async def test_k5_random_caller_is_other_and_loudly_logged(spine):
    d = await route(spine, "+13105557777", "yo what's up Trevor")
    assert d.person_id is None and not d.minted and not d.reply_suppressed
    assert d.l1.roles == [MetaRole.OTHER] and d.l1.confidence == "fact"
    oc = d.l1.other_classification
    assert (oc.description, oc.spine_category) == ("random caller", "wrong_number")
    assert d.graceful_degrade_reason == GracefulDegradeReason.NO_PERSON_RESOLVED_NO_INTENT_HINTS
    assert await spine.find_person_id_by_claim(ClaimKind.PHONE, "+13105557777") is None
    assert feature_keys(d.l1.roles) == ["other/light_triage"]
    assert await role_tool_names(spine, d) == {"escalate_to_human"}
    assert {t.name for t in facility_tools()} == FACILITY_TOOLS  # loaded even for 'other'
    [event] = await spine.events(EventKind.GRACEFUL_DEGRADE)
    assert (event.reason, event.phone_last4, event.property_id) == (
        "no_person_resolved_no_intent_hints", "7777", YALE)
    assert event.detail["first_message_snippet"] == "yo what's up Trevor"
