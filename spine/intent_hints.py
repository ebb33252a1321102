"""Intent hints: the pre-L1 step for callers with no Person (the ADR's "Intent-hints classifier").

The shipped classifier (spine.intent_model: a logistic regression over English and Spanish words,
fitted on a labelled set of first messages) decides whether an unknown sender sounds like a
rental prospect. Clear cases it decides alone; in its unsure band an optional second opinion
(any async `(message) -> bool`, the fast model when one is configured) decides, promoting as well
as vetoing. A link, or an emergency happening now (spine.emergency), never promotes; a fire or
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

from spine.emergency import detect_emergency, normalize
from spine.identity import Claim, ClaimKind, Person, PersonRole, PersonRoleSource, PersonRoleType, RoleScope
from spine.intent_model import shipped_model
from spine.patterns import rx
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


# A fire or flood told as past, that put the sender out of a home: "we lost our home in the flood
# last spring", "se nos quemó la casa en octubre". Only such a span, in a message that dates it weeks
# or more back or speaks from after it (staying with family, insurance paying) and says nothing of
# now (today, last night, right now, 911), is read past by the emergency veto: a fire or flood
# happening now ("fire in the laundry room", "water pouring through my ceiling right now"), smoke,
# gas or anything else spine.emergency finds outside the span still vetoes.
_DISASTER = r"(?:fire|flood|flooding|blaze|incendio|inundaci[oó]n|fuego)"
_HOME = (r"(?:home|house|apartment|apt|place|building|rental|condo|trailer|unit|basement|neighborhood|street|casa|"
         r"depa\w*|apartamento|piso|bajo|edificio|vivienda|hogar|casita|colonia|barrio|calle|zona)")
_PAST_DISASTER = rx(
    r"\b(?:lost|losing\s+out\s+on)\s+(?:our|my|the|their|his|her|everything)\s+(?:\w+\s+){0,2}?(?:in|to|from)\s+"
    r"(?:a|an|the|that)\s+(?:\w+\s+){0,2}?" + _DISASTER + r"\b",
    r"\b(?:our|my|the|their|his|her)\s+(?:\w+\s+)?" + _HOME + r"\s+(?:was\s+|got\s+|had\s+been\s+)?(?:burned|burnt|flooded|"
    r"destroyed|damaged)\b(?:\s+(?:down|out|by\s+(?:a|an|the)\s+(?:\w+\s+)?" + _DISASTER + r"))?",
    r"\b(?:displaced|homeless|burned\s+out|flooded\s+out)\s+(?:by|in|after|from|since)\s+(?:a|an|the|that|our)\s+"
    r"(?:\w+\s+){0,2}?" + _DISASTER + r"\b",
    r"\b(?:after|since|because\s+of|due\s+to)\s+(?:a|an|the|that|our)\s+(?:\w+\s+){0,2}?" + _DISASTER + r"\b",
    r"\b(?:a|an|the)\s+" + _DISASTER + r"\s+(?:in|at)\s+(?:our|my|the)\s+" + _HOME + r"\s+(?:\w+\s+){0,3}?"
    r"(?:left|displaced|forced)\s+(?:us|me|them)\b",
    r"\b(?:perd[ií]|perdimos|perdieron)\s+(?:\w+\s+){0,3}?(?:en|por|con)\s+(?:el|la|un|una)\s+(?:\w+\s+)?"
    + _DISASTER + r"\b",
    r"\b(?:se\s+(?:nos|me|les|le)\s+)?(?:quem[oó]|inund[oó])\s+(?:la|el|nuestra|nuestro|mi|su)\s+" + _HOME + r"\b",
    r"\b(?:la|el|nuestra|nuestro|mi|su)\s+" + _HOME + r"\s+se\s+(?:nos\s+|me\s+|les\s+)?(?:quem[oó]|inund[oó])\b",
    r"\b(?:despu[eé]s|desde|por|tras|a\s+causa|debido)\s+(?:del|de\s+la|de\s+el|de\s+un|de\s+una|el|la|un|una|al|a\s+la|"
    r"lo\s+del)\s+(?:\w+\s+)?" + _DISASTER + r"\b",
    r"\b(?:damnificad[oa]s|desplazad[oa]s)\s+(?:por|del|de\s+la|de)\s+(?:\w+\s+){0,2}?" + _DISASTER + r"\b",
    r"\b(?:un|una|el|la)\s+" + _DISASTER + r"\s+en\s+(?:nuestr[oa]|mi|el|la)\s+" + _HOME + r"\s+(?:\w+\s+){0,4}?"
    r"(?:nos|me|los)\s+dej[oó]\b",
)
_MONTHS = (r"(?:january|february|march|april|may|june|july|august|september|october|november|december|enero|febrero|"
           r"marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre)")
_PAST_BY = rx(
    r"\b(?:last|past|this\s+past)\s+(?:week|month|year|spring|summer|fall|autumn|winter)\b",
    r"\b(?:\w+|\d+)\s+(?:weeks?|months?|years?)\s+ago\b", r"\b(?:in|back\s+in|since|of|this\s+past)\s+" + _MONTHS + r"\b",
    r"\bearlier\s+this\s+year\b", r"\blast\s+year'?s\b",
    r"\bhace\s+(?:\w+\s+){0,2}?(?:semanas?|mes(?:es)?|a[nñ]os?)\b",
    r"\b(?:el|la)\s+(?:mes|semana|a[nñ]o|primavera|verano|oto[nñ]o|invierno)\s+pasad[oa]\b",
    r"\b(?:del|el)\s+a[nñ]o\s+pasado\b", r"\b(?:en|de|desde)\s+" + _MONTHS + r"\b",
    # or told from after it: staying with family, in a hotel or a shelter, insurance paying
    r"\b(?:staying|living|sleeping)\s+(?:with|at|in)\s+(?:relatives|family|friends|(?:my|our)\s+\w+|a\s+(?:hotel|motel|"
    r"shelter|friend'?s))\b", r"\b(?:insurance|fema|red\s+cross)\b", r"\btemporary\s+housing\b", r"\bsince\s+then\b",
    r"\b(?:aseguradora|cruz\s+roja)\b", r"\bel\s+seguro\s+(?:nos|me|les|le)\s+(?:paga|cubre|da)\b", r"\bdesde\s+entonces\b",
    r"\b(?:estamos|vivimos|nos\s+quedamos|me\s+quedo|estoy)\s+(?:con|en\s+casa\s+de|donde|en\s+un\s+(?:hotel|albergue))\b",
)
_NOW = rx(
    r"\bright\s+now\b", r"\bas\s+we\s+speak\b", r"\bstill\s+(?:burning|on\s+fire|flooding|smoking|smoldering|coming|"
    r"pouring|leaking|rising)\b", r"\btonight\b", r"\bthis\s+(?:morning|afternoon|evening)\b", r"\btoday\b",
    r"\byesterday\b", r"\blast\s+night\b", r"\bjust\s+now\b", r"\b911\b", r"\bhelp\s*!", r"\bemergency\b",
    r"\bahora\s+mismo\b", r"\bahorita\b", r"\ben\s+este\s+momento\b", r"\btodav[ií]a\s+(?:sale|hay|se\s+est[aá]|est[aá]\s+"
    r"(?:saliendo|entrando|quemando))\b", r"\bsigue\s+(?:saliendo|entrando|quem[aá]ndose|el\s+fuego)\b", r"\banoche\b",
    r"\bayer\b", r"\bhoy\b", r"\bauxilio\b", r"\bemergencia\b", r"\burgente\b",
)


def veto_reasons(text: str) -> list[str]:
    """What stops a message from promoting whatever the classifier says: a link, an emergency
    (spine.emergency's). A fire or flood told as past (weeks or more back, or from after it) that
    put the sender out of a home does not veto; anything still happening does."""
    vetoes = [m.group(0) for m in _LINK.finditer(text)]
    if (emergency := detect_emergency(text)) is not None and not _past_disaster_only(text):
        vetoes.append(f"emergency:{emergency.kind}")
    return vetoes


def _past_disaster_only(text: str) -> bool:
    """Is every emergency spine.emergency finds here inside a fire or flood told as past, dated
    weeks or more back or spoken of from after it, with nothing said of now? (False when in any
    doubt: the veto stands.)"""
    text = normalize(text)
    if not _PAST_DISASTER.search(text) or not _PAST_BY.search(text) or _NOW.search(text):
        return False
    return detect_emergency(_PAST_DISASTER.sub(" ", text)) is None


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
