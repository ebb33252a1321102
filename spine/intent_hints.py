"""Intent hints: the pre-L1 step for callers with no Person (the ADR's "Intent-hints classifier").

English regex hints decide whether an unknown number sounds like a rental prospect; an optional
confirming classifier (any async `(message) -> bool`, e.g. a small model) may veto. On promotion the
router mints a skeleton Person with the phone claim, a `prospect` PersonRole (source `router_mint`)
at the inbound property and a Prospect record at stage `inquiry`, idempotently.

The regex is deliberately conservative. A wrong promotion hands a tenant or an advertiser the
prospect bundle; a missed one only lands in the polite 'other' lane, which is loudly logged.
"""
from __future__ import annotations

import re
import secrets
from collections.abc import Awaitable, Callable
from typing import Literal

from pydantic import BaseModel, Field

from spine.identity import Claim, ClaimKind, Person, PersonRole, PersonRoleSource, PersonRoleType, RoleScope
from spine.records import last4
from spine.repo import Spine
from spine.work import Prospect

IntentKind = Literal["tour", "pricing", "availability", "general"]

# An async yes/no second opinion on "is this an inquiry about renting here?"
IntentConfirmer = Callable[[str], Awaitable[bool]]


class IntentHints(BaseModel):
    fires: bool
    kind: IntentKind = "general"
    matched: list[str] = Field(default_factory=list)
    vetoed_by: list[str] = Field(default_factory=list)


def _rx(*parts: str) -> re.Pattern[str]:
    return re.compile("|".join(parts), re.IGNORECASE)


# Non-rental senses of rental words, removed before anything is matched.
_NEUTRALIZE = _rx(
    r"\btour\s+de\s+france\b", r"\b(?:world|concert|book|bus|band|golf|walking|food|wine|pub|city)\s+tours?\b",
    r"\bon\s+tour\b", r"\btour\s+(?:bus|dates?|guide)\b",
    r"\b(?:are|is)\s+(?:you|u|someone|anyone|the\s+office|your\s+office|the\s+manager)(?:\s+\w+)?\s+available\b",
    r"\bavailable\s+(?:for|to)\s+(?:a\s+|an\s+)?(?:quick\s+)?(?:call|chat|talk|meet\w*|notari\w*|fix|help|discuss)\b",
    r"\bshowing\s+of\s+(?:the\s+|a\s+)?(?:movie|film|play|game|match|show|art)\b", r"\b(?:movie|film)\s+showing\b",
)

# Clearly not a prospect, whatever else the message says.
_SPAM = _rx(
    r"https?://", r"\bwww\.", r"\bbit\.ly\b", r"\bclick\b", r"\bwinner\b", r"\bcongratulations\b", r"\bgift\s+card\b",
    r"\bcrypto\b", r"\bbitcoin\b", r"\bverify\b", r"\bclaim\b", r"\bfree\s+iphone\b", r"\bloans?\b",
    r"\bno\s+credit\s+check\b", r"\bearn\s+\$",
)
_ADVERTISER = _rx(
    r"\bseo\b", r"\bmarketing\b", r"\bleads\b", r"\bgoogle\b", r"\bagency\b", r"\bour\s+(?:services|company|team)\b",
    r"\bpartner(?:ship)?\s+with\b", r"\bvendor\s+relations\b", r"\bproperty\s+managers\b", r"\bbuilding\s+manager\b",
    r"\bwe\s+buy\b", r"\bcash\s+offer\b", r"\bcommercial\b", r"\bspecial\s+offer\b",
    r"\b(?:service|maintenance)\s+contracts?\b",
)
_MAINTENANCE = _rx(
    r"\bleak\w*", r"\bbroke(?:n)?\b", r"\bclog\w*", r"\bnot\s+working\b", r"\bwon'?t\s+(?:stop|start|work|drain|flush)\b",
    r"\bheat\s+is\s+out\b", r"\bno\s+(?:heat|hot\s+water)\b", r"\brepairs?\b", r"\bfix\b", r"\bmaintenance\b",
    r"\btoilet\b", r"\bsink\b", r"\bdishwasher\b", r"\bdisposal\b",
)
# A current resident talking about their own home: vetoes weak signals only, because a renter
# elsewhere ("my lease is up in March, any 2BRs?") is exactly a prospect.
_RESIDENT = _rx(
    r"\bmy\s+(?:old\s+|current\s+)?(?:lease|rent|unit|apartment|balance|(?:security\s+)?deposit|landlord|renewal|door|account)\b",
    r"\b(?:i|we)\s+live\s+(?:in|at|here)\b", r"\bin\s+(?:unit|apt\.?|apartment)\s*#?\d+", r"\bthis\s+is\s+\w+\s+in\s+\d+",
    r"\brenewal\b", r"\bmov(?:e|ing)[\s-]+out\b", r"\bowe\b", r"\bpay\s+(?:my\s+)?rent\b", r"\bnew\s+rate\b",
)

_BEDROOMS = _rx(
    r"\b(?:\d|one|two|three|four)[\s-]*(?:br|bd|bdr|beds?|bedrooms?)s?\b", r"\b\d(?:br|bd)s?\b", r"\bstudios?\b",
)
_TOUR = _rx(
    r"\btour(?:s|ing)?\b", r"\bviewing\b", r"\bshowing\b",
    r"\b(?:come|stop\s+by\s+to|swing\s+by\s+to)\s+see\s+(?:a|the|an|your)\s+(?:unit|apartment|place|building)\b",
    r"\bsee\s+(?:a\s+|the\s+|an\s+|your\s+|some\s+|any\s+)?(?:units?|apartments?)\b", r"\bopen\s+house\b",
)
_AVAILABILITY = _rx(
    r"\bavailab(?:le|ility)\b", r"\bvacanc(?:y|ies)\b", r"\bopenings?\b", r"\bunits?\s+open\b", r"\banything\s+open\b",
    r"\bfor\s+rent\b", r"\bup\s+for\s+grabs\b", r"\bwait\s*-?list\b",
    r"\b(?:apartments?|units?|anything)\s+(?:open|free|coming\s+up)\b",
)
_MOVING = _rx(
    r"\bmov(?:e|ing)[\s-]+in\b", r"\bmoving\s+to\b", r"\brelocat\w*", r"\bneed\s+a\s+place\b",
    r"\blooking\s+(?:for|to\s+rent)\s+(?:an?\s+)?(?:apartment|place|unit|home)\b",
    r"\blooking\s+to\s+(?:rent|lease|move)\b",
)
_APPLYING = _rx(
    r"\bapply(?:ing)?\b", r"\bapplications?\b",
    r"\binterested\s+in\s+your\s+(?:community|building|property|apartments?|units?)\b", r"\blisting\b", r"\blisted\b", r"\bzillow\b", r"\bapartments\.com\b",
    r"\brent(?:ing)?\s+(?:a|an|one)\b", r"\bfloor\s*plans?\b", r"\bsection\s*8\b", r"\bhousing\s+vouchers?\b", r"\binterested\s+in\s+(?:renting|the|a)\b", r"\bleasing\s+(?:any|a)\b",
)
_PRICING = _rx(r"\b(?:prices?|pricing|how\s+much|costs?|fees?)\b", r"(?<!for )\brent\b")
_GENERAL = _rx(r"\bapartments?\b", r"\bunits?\b", r"\bnext\s+month\b", r"\bbudget\b", r"\blease\s+terms\b",
               r"\bnew\s+residents?\b")

_STRONG = (("tour", _TOUR), ("availability", _BEDROOMS), ("availability", _AVAILABILITY),
           ("availability", _MOVING), ("general", _APPLYING))


def _found(pattern: re.Pattern[str], text: str) -> list[str]:
    return [m.group(0).lower() for m in pattern.finditer(text)]


def regex_hints(message: str) -> IntentHints:
    """Does this first message from an unknown number sound like a rental inquiry?"""
    text = _NEUTRALIZE.sub(" ", message or "")
    vetoes = _found(_SPAM, text) + _found(_ADVERTISER, text) + _found(_MAINTENANCE, text)
    strong = [(kind, hit) for kind, pattern in _STRONG for hit in _found(pattern, text)]
    pricing, general = _found(_PRICING, text), _found(_GENERAL, text)
    matched = [hit for _, hit in strong] + pricing + general
    if vetoes:
        return IntentHints(fires=False, matched=matched, vetoed_by=vetoes)
    if not strong:
        # Weak words alone ("how much?", "apartment") need company, and no resident talking.
        resident = _found(_RESIDENT, text)
        if resident or not ((pricing and general) or len(general) >= 2):
            return IntentHints(fires=False, matched=matched, vetoed_by=resident)
    return IntentHints(fires=True, kind=_kind(strong, pricing), matched=matched)


def _kind(strong: list[tuple[str, str]], pricing: list[str]) -> IntentKind:
    kinds = {kind for kind, _ in strong}
    if "tour" in kinds:
        return "tour"
    if pricing:
        return "pricing"
    if "availability" in kinds:
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
