"""Intent hints: the pre-L1 step for callers with no Person (the ADR's "Intent-hints classifier").

The shipped classifier (spine.intent.model: a logistic regression over English and Spanish words,
fitted on a labelled set of first messages) decides whether an unknown sender sounds like a
rental prospect. Clear cases it decides alone; in its unsure band an optional second opinion
(any async `(message) -> bool`, the fast model when one is configured) decides, promoting as well
as vetoing. A link, or an emergency happening now (spine.intent.emergency), never promotes; a fire or
flood told as past that put the sender out of a home does not veto. The 'other' lane runs this
again on every later message from a number that is still unknown, so a second message can still
promote the sender. On promotion the router mints a skeleton Person with the phone claim, a
`prospect` PersonRole (source `router_mint`) at the inbound property and a Prospect record at
stage `inquiry`, idempotently. The trace keeps the features that weighed most (`matched`).
"""
from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import Literal

from pydantic import BaseModel, Field

from spine.identity import Claim, ClaimKind, Person, PersonRole, PersonRoleSource, PersonRoleType, RoleScope
from spine.intent.emergency import detect_emergency
from spine.intent.model import shipped_model
from spine.intent.patterns import rx
from spine.records import last4
from spine.repo import Spine
from spine.work import Prospect

IntentKind = Literal["tour", "pricing", "availability", "general"]

# An async yes/no second opinion on "is this an inquiry about renting here?"
IntentConfirmer = Callable[[str], Awaitable[bool]]

PROMOTE_AT = 0.6            # the classifier's probability at or above which a sender is a prospect
UNSURE = (0.35, 0.8)        # in this band a configured second opinion decides (about ±1 in log-odds)


class IntentHints(BaseModel):
    fires: bool
    kind: IntentKind = "general"
    probability: float = 0.0
    unsure: bool = False     # in the band where a second opinion, if configured, decides
    matched: list[str] = Field(default_factory=list)    # the features that weighed most
    vetoed_by: list[str] = Field(default_factory=list)


_LINK = rx(r"https?://", r"\bwww\.", r"\bbit\.ly\b", r"\b[\w-]+\.(?:co|info|ly|xyz)\b")
_TOUR = rx(r"\btour\w*", r"\bviewing\b", r"\bshowing\b", r"\bvisit\w*", r"\bsee\s+(?:a|the|an|unit|your)\b",
            r"\brecorrido\b", r"\bver\s+(?:el|un|los)\b", r"\bconocer\b")
_PRICING = rx(r"\bprices?\b", r"\bpricing\b", r"\bhow\s+much\b", r"\bcosts?\b", r"\brent\s+for\b", r"\bprecios?\b",
               r"\bcu[aá]nto\b", r"\bcuesta\b")
_AVAILABILITY = rx(r"\bavailab\w*", r"\bvacan\w*", r"\bopen\w*", r"\bdisponib\w*", r"\blibres?\b", r"\bbedrooms?\b",
                    r"\b\d\s*br\b", r"\brec[aá]maras?\b")


def regex_hints(message: str) -> IntentHints:
    """Does this message from an unknown number sound like a rental inquiry? (The name is the
    ADR's; the decision is the shipped classifier's, the regexes only name the kind.)"""
    text = message or ""
    verdict = shipped_model().explain(text)
    vetoes = veto_reasons(text)
    low, high = UNSURE
    fires = verdict.probability >= PROMOTE_AT and not vetoes
    return IntentHints(fires=fires, kind=_kind(text), probability=verdict.probability, matched=verdict.top_features,
                       unsure=not vetoes and low <= verdict.probability < high, vetoed_by=vetoes)


def veto_reasons(text: str) -> list[str]:
    """What stops a message from promoting whatever the classifier says: a link, an emergency
    happening now (spine.intent.emergency's: a fire or flood told as past that put the sender out of a
    home is none)."""
    vetoes = [m.group(0) for m in _LINK.finditer(text)]
    if (emergency := detect_emergency(text)) is not None:
        vetoes.append(f"emergency:{emergency.kind}")
    return vetoes


def _kind(text: str) -> IntentKind:
    if _TOUR.search(text):
        return "tour"
    if _PRICING.search(text):
        return "pricing"
    if _AVAILABILITY.search(text):
        return "availability"
    return "general"


# -- promotion: mint a skeleton prospect ---------------------------------------------------

MINTED_PREFIX = "p_new_"


def minted_person_id(address: str, kind: ClaimKind = ClaimKind.PHONE) -> str:
    """A fresh random id: ids reach logs, traces and admin pages, so nothing in one recovers the
    address (for a phone, the last four digits are what every surface shows anyway). Racing
    mints agree on one id through the address claim, not through the id."""
    shown = last4(address) if kind == ClaimKind.PHONE else str(kind)
    return f"{MINTED_PREFIX}{shown}_{secrets.token_hex(8)}"


def minted_role_id(person_id: str, property_id: str) -> str:
    return f"pr_{person_id}_{property_id}"


class MintResult(BaseModel):
    person_id: str
    minted: bool  # True only for the racer whose claim won
    prospect: bool = True  # False: the number turned out to belong to a Person someone else made


async def mint_prospect(spine: Spine, *, address: str, property_id: str,
                        kind: ClaimKind = ClaimKind.PHONE) -> MintResult:
    """Promote an unknown wire address (a phone number, an email address, a Telegram user) to a
    skeleton prospect at `property_id`.

    The address claim, written create-if-absent, is the arbiter: exactly one racer wins it, with
    its own random id. Every racer whose claim names a minted skeleton then writes that skeleton's
    records create-if-absent, so whichever finishes first (or if the winner died half way), the
    Person, its prospect role and its Prospect exist once.
    """
    candidate = minted_person_id(address, kind)
    won = await spine.claim(kind, address, candidate, if_absent=True)
    owner = candidate if won else await spine.find_person_id_by_claim(kind, address)
    if owner is None or not owner.startswith(MINTED_PREFIX):
        return MintResult(person_id=owner or candidate, minted=False, prospect=False)  # someone else's Person
    person_id = owner
    prop = await spine.get_property(property_id)
    name = f"Prospect …{last4(address)}" if kind == ClaimKind.PHONE else f"Prospect ({kind})"
    await spine.create_person(Person(id=person_id, display_name=name, claims=[Claim(kind=kind, value=address)]))
    await spine.create_role(PersonRole(
        id=minted_role_id(person_id, property_id), person_id=person_id, role_type=PersonRoleType.PROSPECT,
        source=PersonRoleSource.ROUTER_MINT,
        scope=RoleScope(org_id=prop.org_id if prop else None, property_id=property_id),
    ))
    await spine.create_prospect(Prospect(person_id=person_id, property_id=property_id, stage="inquiry"))
    return MintResult(person_id=person_id, minted=won)
