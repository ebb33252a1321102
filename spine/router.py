"""L1, the role-feature router: who is talking -> the SET of active MetaRoles (deterministic, no model).

`route_inbound` is the whole pre-agent routing step: resolve the wire address to a Person (following
merges), run intent hints for unknown numbers (minting a skeleton prospect on promotion), then L1.
Every exit into 'other' is loud: an `agent/graceful-degrade` event with one of the ADR's five reasons.
"""
from __future__ import annotations

import logging
from collections.abc import Iterable

from spine.context import Channel
from spine.events import GracefulDegradeReason as Why
from spine.events import graceful_degrade, snippet
from spine.identity import STAFF_ROLE_TYPES, Person, PersonCategory, PersonRole, PersonRoleType
from spine.intent.hints import IntentConfirmer, IntentHints, mint_prospect, minted_person_id, regex_hints
from spine.participants import claim_kind, normalize_address, resolve_person
from spine.phone import InvalidPhoneNumber
from spine.records import EventKind, InferredIntent, OtherClassification
from spine.repo import Spine
from spine.roles import resolve_active_roles
from spine.routing_types import L1Result, MetaRole, RoutingDecision, routing_event

log = logging.getLogger("clara.router")

# MetaRoles in the ADR's bridge order; every role set is reported in this order, so the same set
# always yields the same L2 union and the same cached prompt prefix.
META_ORDER: tuple[MetaRole, ...] = (MetaRole.TENANT, MetaRole.VENDOR, MetaRole.PROSPECT, MetaRole.PM)


def person_role_types_to_meta_roles(types: Iterable[PersonRoleType]) -> list[MetaRole]:
    """The ADR's personRoleTypesToMetaRoles bridge: plural in, plural out, ['other'] when empty."""
    present = set(types)
    meta: set[MetaRole] = set()
    if PersonRoleType.TENANT in present:
        meta.add(MetaRole.TENANT)
    if PersonRoleType.VENDOR_CONTACT in present:
        meta.add(MetaRole.VENDOR)
    if PersonRoleType.PROSPECT in present:
        meta.add(MetaRole.PROSPECT)
    if present & STAFF_ROLE_TYPES:
        meta.add(MetaRole.PM)
    return [m for m in META_ORDER if m in meta] or [MetaRole.OTHER]


def l1_for_roles(roles: list[PersonRole], inferred_intent: InferredIntent | None = None) -> L1Result:
    """L1 for a Person with active roles: the union, `fact` iff some role has verified provenance."""
    return L1Result(roles=person_role_types_to_meta_roles(r.role_type for r in roles),
                    confidence="fact" if any(r.verified for r in roles) else "inferred",
                    inferred_intent=inferred_intent)


def _other(description: str, category: PersonCategory | str) -> L1Result:
    return L1Result(roles=[MetaRole.OTHER], confidence="fact",
                    other_classification=OtherClassification(description=description, spine_category=str(category)))


class _Inbound:
    """The facts of one inbound that every exit reports."""

    def __init__(self, spine: Spine, channel: Channel, wire_address: str, property_id: str, message: str,
                 interaction_id: str, record_events: bool, sender_verified: bool = True) -> None:
        self.spine, self.channel, self.wire_address = spine, channel, wire_address
        self.property_id, self.message, self.interaction_id = property_id, message, interaction_id
        self.record_events, self.sender_verified = record_events, sender_verified

    async def degrade(self, why: Why, l1: L1Result, person_id: str | None, *, suppressed: bool = False,
                      **detail: object) -> RoutingDecision:
        """The 'other' exit: always loud, with the first-message snippet for the status card."""
        oc = l1.other_classification
        await graceful_degrade(
            self.spine, why, channel=self.channel, address=self.wire_address, property_id=self.property_id,
            interaction_id=self.interaction_id, persist=self.record_events,
            detail={"first_message_snippet": snippet(self.message), "person_id": person_id,
                    "other_classification": oc.model_dump() if oc else None, **detail},
        )
        return RoutingDecision(person_id=person_id, property_id=self.property_id, l1=l1, reply_suppressed=suppressed,
                               graceful_degrade_reason=why.value,
                               events=[routing_event(EventKind.GRACEFUL_DEGRADE, why.value)])


async def route_inbound(
    spine: Spine,
    *,
    channel: Channel,
    wire_address: str,
    property_id: str,
    message: str,
    interaction_id: str,
    confirmer: IntentConfirmer | None = None,
    mint: bool = True,
    record_events: bool = True,
    sender_verified: bool = True,
    claim_absent: bool = False,
) -> RoutingDecision:
    """Who is talking, and which role bundles load.

    `mint=False` is a dry run for `gateway explain`: nothing is minted, the decision reports what
    would happen. `record_events=False` logs events without persisting them (no status-card noise).
    `sender_verified=False` (an email whose From the channel could not authenticate) never
    resolves the address to its Person: the caller is unknown, intent hints and 'other' only.
    `claim_absent`: the address's claim was read a moment ago and named no Person (carried with
    the message), so it is not read again; a mint still claims the address create-if-absent.
    """
    inbound = _Inbound(spine, Channel(channel), wire_address, property_id, message, interaction_id, record_events,
                       sender_verified)
    try:
        address = normalize_address(inbound.channel, wire_address)
    except InvalidPhoneNumber:
        # An unreadable address is still a caller: answer in the 'other' lane, never crash.
        return await inbound.degrade(Why.NO_PERSON_RESOLVED_NO_INTENT_HINTS,
                                     _other("unreadable wire address", PersonCategory.UNCLASSIFIED), None,
                                     invalid_address=True)
    person = await resolve_person(spine, inbound.channel, address) if sender_verified and not claim_absent else None
    if person is None:
        return await _unknown_caller(inbound, address, confirmer, mint)
    return await _known_person(inbound, person)


async def route_person(spine: Spine, *, person: Person, roles: list[PersonRole], roles_elsewhere: bool,
                       channel: Channel, wire_address: str, property_id: str, message: str,
                       interaction_id: str) -> RoutingDecision:
    """L1 for a Person whose record and roles the caller already holds (a PersonActor's warm
    Opening): the same decision and the same loud exits as route_inbound, without reading them again."""
    inbound = _Inbound(spine, Channel(channel), wire_address, property_id, message, interaction_id, True)
    return await _known_person(inbound, person, roles, roles_elsewhere)


async def _known_person(inbound: _Inbound, person: Person, roles: list[PersonRole] | None = None,
                        roles_elsewhere: bool | None = None) -> RoutingDecision:
    if person.category == PersonCategory.SPAM:
        return await inbound.degrade(Why.PERSON_CATEGORY_SPAM, _other("spam", PersonCategory.SPAM), person.id,
                                     suppressed=True)
    if person.category == PersonCategory.WRONG_NUMBER:
        return await inbound.degrade(Why.PERSON_CATEGORY_WRONG_NUMBER,
                                     _other("wrong number", PersonCategory.WRONG_NUMBER), person.id)
    if person.deceased:
        return await inbound.degrade(Why.DECEASED_PERSON,
                                     _other("deceased — estate-of inquiry", PersonCategory.UNCLASSIFIED), person.id)
    if roles is None:
        roles = await resolve_active_roles(inbound.spine, person.id, inbound.property_id)
    if not roles:
        # Roles elsewhere (a vendor texting a property their vendor doesn't service) read as
        # wrong_property; a Person with no roles anywhere stays unclassified.
        elsewhere = roles_elsewhere if roles_elsewhere is not None else bool(await inbound.spine.roles_of(person.id))
        category = person.category or (PersonCategory.WRONG_PROPERTY if elsewhere else PersonCategory.UNCLASSIFIED)
        return await inbound.degrade(Why.PERSON_RESOLVED_NO_ROLES,
                                     _other("known person, no roles at this property", category), person.id,
                                     roles_elsewhere=elsewhere)
    return RoutingDecision(person_id=person.id, property_id=inbound.property_id, l1=l1_for_roles(roles))


async def _unknown_caller(inbound: _Inbound, address: str, confirmer: IntentConfirmer | None,
                          mint: bool) -> RoutingDecision:
    hints = regex_hints(inbound.message)
    promoted = await _decided(confirmer, inbound.message, hints)
    prop = await inbound.spine.get_property(inbound.property_id) if promoted else None
    if not promoted or prop is None:
        unknown_property = {"unknown_property": True} if promoted else {}
        return await inbound.degrade(Why.NO_PERSON_RESOLVED_NO_INTENT_HINTS, _unknown_other(inbound), None,
                                     sender_unverified=not inbound.sender_verified, hints=hints.matched,
                                     probability=hints.probability, vetoed_by=hints.vetoed_by,
                                     confirmer_declined=hints.fires and not promoted, **unknown_property)
    intent = InferredIntent(kind=hints.kind)
    kind = claim_kind(inbound.channel)
    if not mint:
        l1 = L1Result(roles=[MetaRole.PROSPECT], confidence="inferred", inferred_intent=intent)
        would_be = minted_person_id(address, kind)
        return RoutingDecision(person_id=None, property_id=inbound.property_id, l1=l1,
                               events=[routing_event(EventKind.WOULD_MINT_PROSPECT, would_be)])
    result = await mint_prospect(inbound.spine, address=address, property_id=inbound.property_id, kind=kind)
    if not inbound.sender_verified and not result.minted:
        # The address already belongs to a Person (a minted prospect too), but nothing shows
        # this sender is them.
        return await inbound.degrade(Why.NO_PERSON_RESOLVED_NO_INTENT_HINTS, _unknown_other(inbound), None,
                                     sender_unverified=True, address_claimed=True)
    if not result.prospect:
        # The number was claimed by another Person meanwhile: route to them as any known caller.
        person = await resolve_person(inbound.spine, inbound.channel, address)
        if person is None:
            return await inbound.degrade(Why.NO_PERSON_RESOLVED_NO_INTENT_HINTS,
                                         _other("random caller", PersonCategory.WRONG_NUMBER), None,
                                         claim_unreadable=True)
        return await _known_person(inbound, person)
    roles = await resolve_active_roles(inbound.spine, result.person_id, inbound.property_id)
    decision = RoutingDecision(person_id=result.person_id, property_id=inbound.property_id,
                               l1=l1_for_roles(roles, inferred_intent=intent), minted=result.minted)
    if result.minted:
        decision.note(EventKind.ROUTER_MINT, hints.kind)
        # Why the classifier promoted this sender: its probability and the words that weighed most.
        decision.intent_evidence = f"p={hints.probability:.2f}: {', '.join(hints.matched)}"
    return decision


def _unknown_other(inbound: _Inbound) -> L1Result:
    if not inbound.sender_verified:
        return _other("unverified sender", PersonCategory.UNCLASSIFIED)
    return _other("random caller", PersonCategory.WRONG_NUMBER)


async def _decided(confirmer: IntentConfirmer | None, message: str, hints: IntentHints) -> bool:
    """The classifier decides clear cases; in its unsure band a configured second opinion decides
    (promoting as well as vetoing). If that fails, the classifier's verdict stands."""
    if confirmer is None or not hints.unsure:
        return hints.fires
    try:
        return bool(await confirmer(message))
    except Exception as exc:  # noqa: BLE001 - any confirmer failure (model down, timeout) falls back to the classifier
        log.warning("intent confirmer failed (%s); keeping the classifier's verdict", type(exc).__name__)
        return hints.fires
