"""Every other branch of the router: deceased, spam, wrong number, merged, no roles, invalid address,
the role-type bridge, confidence, the confirmer and the dry run."""
from __future__ import annotations

import pytest
from pydantic import ValidationError

from spine.events import GracefulDegradeReason as Why
from spine.identity import (
    Claim,
    ClaimKind,
    Person,
    PersonCategory,
    PersonRole,
    PersonRoleSource,
    PersonRoleType,
    RoleScope,
)
from spine.records import EventKind
from spine.router import person_role_types_to_meta_roles
from spine.routing_types import MetaRole, RoutingDecision
from tests.support.routing_helpers import CAPITOL, YALE, route

T, M = PersonRoleType, MetaRole


@pytest.mark.parametrize(("types", "expected"), [
    ([T.TENANT], [M.TENANT]),
    ([T.VENDOR_CONTACT], [M.VENDOR]),
    ([T.PROSPECT], [M.PROSPECT]),
    *[([staff], [M.PM]) for staff in (T.PM, T.ORG_ADMIN, T.LEASING_AGENT, T.MAINTENANCE, T.VIEWER, T.PLATFORM_ADMIN)],
    ([T.VENDOR_CONTACT, T.TENANT], [M.TENANT, M.VENDOR]),
    ([T.PM, T.VIEWER, T.TENANT, T.TENANT], [M.TENANT, M.PM]),
    ([T.PROSPECT, T.LEASING_AGENT, T.VENDOR_CONTACT, T.TENANT], [M.TENANT, M.VENDOR, M.PROSPECT, M.PM]),
    ([], [M.OTHER]),
])
def test_bridge_maps_role_type_sets_to_meta_role_sets(types, expected):
    assert person_role_types_to_meta_roles(types) == expected


async def test_deceased_person_routes_to_other_estate_inquiry(spine):
    d = await route(spine, "+12065551099", "I'm calling about my mother's apartment, she passed away")
    assert (d.person_id, d.l1.roles, d.l1.confidence) == ("p_ruth", [M.OTHER], "fact")
    oc = d.l1.other_classification
    assert (oc.description, oc.spine_category) == ("deceased — estate-of inquiry", "unclassified")
    assert d.graceful_degrade_reason == Why.DECEASED_PERSON and not d.reply_suppressed


async def test_spam_person_is_other_and_reply_suppressed(spine):
    d = await route(spine, "+18885550199", "Do you have 2BR units available? CLICK HERE")
    assert (d.person_id, d.l1.roles, d.reply_suppressed) == ("p_spam", [M.OTHER], True)
    assert d.l1.other_classification.spine_category == "spam"
    assert d.graceful_degrade_reason == Why.PERSON_CATEGORY_SPAM
    assert len(await spine.roles_of("p_spam")) == 0  # intent hints never run for a known number


async def test_wrong_number_person_stays_other_even_with_prospect_words(spine):
    await spine.put_person(Person(id="p_wrong", display_name="wrong number", category=PersonCategory.WRONG_NUMBER,
                                  claims=[Claim(kind=ClaimKind.PHONE, value="+15035550123")]))
    d = await route(spine, "+15035550123", "any 2 bedroom apartments available?")
    assert (d.person_id, d.l1.roles, d.minted, d.reply_suppressed) == ("p_wrong", [M.OTHER], False, False)
    assert d.graceful_degrade_reason == Why.PERSON_CATEGORY_WRONG_NUMBER
    assert await spine.roles_of("p_wrong") == []


async def test_merged_number_resolves_to_the_survivor(spine):
    d = await route(spine, "(206) 555-1088", "hi it's marcus from my old phone")
    assert (d.person_id, d.l1.roles, d.l1.confidence) == ("p_marcus", [M.TENANT], "fact")


async def test_person_without_roles_at_the_property_is_other(spine):
    d = await route(spine, "+13035551500", "on my way", property_id=CAPITOL)  # v_inhouse serves pf_yale only
    assert (d.person_id, d.l1.roles) == ("p_mike", [M.OTHER])
    assert d.graceful_degrade_reason == Why.PERSON_RESOLVED_NO_ROLES
    assert d.l1.other_classification.spine_category == "wrong_property"
    carlos = await route(spine, "+13035552020", "WO-51 done", property_id=CAPITOL)
    assert carlos.l1.roles == [M.VENDOR]  # v_carlos services both properties; his tenancy is at pf_yale


async def test_person_with_no_roles_anywhere_is_unclassified(spine):
    await spine.put_person(Person(id="p_bare", display_name="Bare", claims=[Claim(kind=ClaimKind.PHONE,
                                                                                  value="+15035550999")]))
    d = await route(spine, "+15035550999", "hello")
    assert d.graceful_degrade_reason == Why.PERSON_RESOLVED_NO_ROLES
    assert d.l1.other_classification.spine_category == "unclassified"


@pytest.mark.parametrize("address", ["not a number", "", "+1", "206-555-10012345678"])
async def test_invalid_wire_address_is_an_unknown_other_caller_with_an_event(spine, address):
    d = await route(spine, address, "do you have 2BR units available?")
    assert (d.person_id, d.l1.roles, d.minted) == (None, [M.OTHER], False)
    assert d.graceful_degrade_reason == Why.NO_PERSON_RESOLVED_NO_INTENT_HINTS
    [event] = await spine.events(EventKind.GRACEFUL_DEGRADE)
    assert event.detail["invalid_address"] is True


async def test_confidence_is_fact_when_any_role_is_verified(spine):
    await spine.put_person(Person(id="p_mix", display_name="Mix", claims=[Claim(kind=ClaimKind.PHONE,
                                                                                value="+15035550777")]))
    minted = PersonRole(id="r_mix_p", person_id="p_mix", role_type=T.PROSPECT, source=PersonRoleSource.ROUTER_MINT,
                        scope=RoleScope(org_id="org_propflow", property_id=YALE))
    await spine.put_role(minted)
    assert (await route(spine, "+15035550777", "hi")).l1.confidence == "inferred"
    await spine.put_role(PersonRole(id="r_mix_t", person_id="p_mix", role_type=T.TENANT,
                                    source=PersonRoleSource.PMS_SYNC,
                                    scope=RoleScope(property_id=YALE, unit_id="u_yale_312")))
    d = await route(spine, "+15035550777", "hi")
    assert (d.l1.roles, d.l1.confidence) == ([M.TENANT, M.PROSPECT], "fact")


async def test_the_second_opinion_decides_only_what_the_classifier_is_unsure_of(spine):
    asked = []

    def answering(verdict: bool):
        async def confirm(message: str) -> bool:
            asked.append(message)
            return verdict
        return confirm

    clear = await route(spine, "+14155550001", "is the 1br still available?", confirmer=answering(False))
    assert asked == [] and clear.l1.roles == [M.PROSPECT]  # a clear case: the classifier alone
    unsure = "what is the neighborhood like"
    kept = await route(spine, "+14155550002", unsure, confirmer=answering(False))
    assert asked == [unsure] and (kept.person_id, kept.l1.roles, kept.minted) == (None, [M.OTHER], False)
    assert await spine.find_person_id_by_claim(ClaimKind.PHONE, "+14155550002") is None
    promoted = await route(spine, "+14155550003", unsure, confirmer=answering(True))
    assert promoted.l1.roles == [M.PROSPECT] and promoted.minted  # it promotes, not only vetoes
    await route(spine, "+14155550004", "yo what's up Trevor", confirmer=answering(True))
    assert len(asked) == 2


async def test_a_failing_confirmer_falls_back_to_the_regex_verdict(spine):
    async def broken(message: str) -> bool:
        raise TimeoutError("model down")

    d = await route(spine, "+14155550003", "can I schedule a tour saturday?", confirmer=broken)
    assert (d.l1.roles, d.l1.inferred_intent.kind, d.minted) == ([M.PROSPECT], "tour", True)


async def test_dry_run_reports_the_mint_without_writing_anything(spine):
    d = await route(spine, "+14155559876", "do you have 2BR units next month?", mint=False, record_events=False)
    assert (d.person_id, d.l1.roles, d.l1.confidence, d.minted) == (None, [M.PROSPECT], "inferred", False)
    assert any(e.startswith("dry_run:would_mint_prospect:p_new_9876_") for e in d.events)
    assert await spine.find_person_id_by_claim(ClaimKind.PHONE, "+14155559876") is None
    await route(spine, "+13105557777", "yo what's up Trevor", mint=False, record_events=False)
    assert await spine.events(EventKind.GRACEFUL_DEGRADE) == []


async def test_hints_at_an_unknown_property_do_not_mint(spine):
    d = await route(spine, "+14155550004", "any 2br available?", property_id="pf_nowhere")
    assert (d.person_id, d.l1.roles) == (None, [M.OTHER])
    assert await spine.find_person_id_by_claim(ClaimKind.PHONE, "+14155550004") is None


async def test_a_promotion_carries_the_classifiers_evidence_for_the_trace(spine):
    d = await route(spine, "+14155550009", "do you have 2BR units next month?")
    assert d.minted and d.intent_evidence.startswith("p=")
    assert "<bedrooms>" in d.intent_evidence  # a word that weighed most, named
    kept = await route(spine, "+14155550010", "yo what's up Trevor")
    assert kept.intent_evidence is None


async def test_routing_events_are_event_kinds_and_keep_their_strings(spine):
    minted = await route(spine, "+14155550004", "do you have 2BR units next month?")
    assert minted.events == ["router_mint:availability"] and minted.reasons(EventKind.ROUTER_MINT) == ["availability"]
    other = await route(spine, "+13105557777", "yo what's up Trevor", record_events=False)
    assert other.events == ["agent/graceful-degrade:no_person_resolved_no_intent_hints"]
    with pytest.raises(ValidationError, match="must be of an EventKind"):
        RoutingDecision(person_id=None, property_id=YALE, l1=other.l1, events=["made_up:reason"])
