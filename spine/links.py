"""Linking a channel identity to an existing Person: a Telegram user becomes a Person only by
proving a phone number the spine already holds (the gateway checks that the shared contact is
the user's own). The Telegram-user claim then points at the Person holding that phone claim,
replacing any claim a router mint gave the same user while they were unknown."""
from __future__ import annotations

from pydantic import BaseModel

from spine.identity import Claim, ClaimKind
from spine.participants import BrokenMergeChain, follow_merges
from spine.repo import Spine


class LinkResult(BaseModel):
    person_id: str | None
    display_name: str | None = None
    reason: str  # linked | no_person_for_phone | broken_merge_chain


async def link_telegram_user(spine: Spine, telegram_user_id: str, e164: str) -> LinkResult:
    """Point the Telegram user's claim at the Person holding `e164` (following merges)."""
    person_id = await spine.find_person_id_by_claim(ClaimKind.PHONE, e164)
    person = await spine.get_person(person_id) if person_id else None
    if person is None:
        return LinkResult(person_id=None, reason="no_person_for_phone")
    try:
        person = await follow_merges(spine, person)
    except BrokenMergeChain:
        return LinkResult(person_id=None, reason="broken_merge_chain")
    claim = Claim(kind=ClaimKind.TELEGRAM, value=telegram_user_id)
    if claim in person.claims:
        await spine.claim(claim.kind, claim.value, person.id)
    else:  # the Person record lists its claims too (whois, admin pages)
        await spine.put_person(person.model_copy(update={"claims": [*person.claims, claim]}))
    return LinkResult(person_id=person.id, display_name=person.display_name, reason="linked")


async def linked_person(spine: Spine, telegram_user_id: str) -> str | None:
    """The Person a Telegram user is linked to by contact: one holding a phone claim (a prospect
    minted for an unknown user holds only the Telegram claim, and is not linked)."""
    person_id = await spine.find_person_id_by_claim(ClaimKind.TELEGRAM, telegram_user_id)
    person = await spine.get_person(person_id) if person_id else None
    return person.id if person is not None and person.phones() else None
