"""May we send this now: the one check, in its two cases.

- A reply to someone who just wrote (`may_reply`): only an opt-out of that channel stops it, read at
  the moment of sending, so a STOP recorded a moment ago counts (the inline answer, a redelivery's
  replay, the REST send and its outbox rows, the sweep's apology all ask it).
- A message the gateway starts (`blocked_by` when queue_outbound writes its row, `may_still_send`
  again when the sender takes it): the person must exist, be reachable (not deceased, merged, spam),
  hold an address on the channel that the property can send from, and not have opted out of it.
"""
from __future__ import annotations

import spine.keys as keys
from spine.context import Channel
from spine.identity import Person, PersonCategory
from spine.records import OutboxMessage
from spine.repo import Spine

UNREACHABLE_CATEGORIES = frozenset({PersonCategory.SPAM, PersonCategory.ADVERTISER, PersonCategory.WRONG_NUMBER})


async def may_reply(spine: Spine, address: str, channel: Channel) -> bool:
    """Whether a reply may go to `address` on `channel` now: the person's own opt-out stops it, one
    a PMS recorded for started messages (its consent field) does not."""
    return not await spine.is_opted_out(address, channel, reply=True)


def opted_out(channel: Channel) -> str:
    """Why a row is blocked by an opt-out of its channel: one spelling for replies and started messages."""
    return f"opted out of {channel}"


async def reply_blocked(spine: Spine, address: str, channel: Channel) -> str | None:
    """`may_reply` as the reason a reply's outbox row is kept blocked, or None when it may go."""
    return None if await may_reply(spine, address, channel) else opted_out(channel)


async def may_still_send(spine: Spine, row: OutboxMessage) -> str | None:
    """The check again at the moment of sending (the sender calls it): why a row queued earlier may
    no longer go (a STOP since, a person marked deceased), or None."""
    if row.kind is None or row.recipient_person_id is None:
        return None
    if row.id.startswith(keys.STEP_UP_TEXT_PREFIX):  # its body is masked: only the call's gateway has the code
        return "a verification code is sent by the call's gateway, not the outbox sender"
    person = await spine.get_person(row.recipient_person_id)
    return await blocked_by(spine, person, row.channel, row.to_address or None, row)


async def blocked_by(spine: Spine, person: Person | None, channel: Channel, address: str | None,
                     row: OutboxMessage) -> str | None:
    """A started message, when it is queued: why this person may not be reached on this channel,
    or None."""
    if person is None:
        return "no such person"
    if person.deceased:
        return "deceased"
    if person.merged_into_person_id:
        return f"merged into {person.merged_into_person_id}"
    if person.category in UNREACHABLE_CATEGORIES:
        return f"person marked {person.category}"
    if not address:
        return f"no {channel} address on file"
    if not row.from_address:
        return f"the property has no {channel} address to send from"
    if await spine.is_opted_out(address, channel):
        return opted_out(channel)
    return None
