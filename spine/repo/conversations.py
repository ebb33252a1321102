"""Spine methods of conversations: a person's messages at one property, across channels, and its
head (with the takeover state). A message is one put in the (person, property) partition; the head
is changed by compare-and-set (turns on a host and staff in the console write it concurrently), and
its index entry (the property's recent conversations) moves with it in the same put. Nothing here
reads across properties but `conversations_of`, which the console narrows to the reader's scope.

A turn writes its head and its messages with one change in the console's feed, and its report
counters with one read: what the person waits since is kept on the head, not read back from the
messages.
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import spine.keys as keys
from spine.context import Channel
from spine.conversation import Author, Conversation, ConversationMessage
from spine.feed import ChangeKind
from spine.repo.base import Held
from spine.repo.feed import ChangeFeedRecords
from spine.repo.rollups import RollupRecords, bucket_key
from spine.store.base import ConditionFailed, Item

CAS_TRIES = 16


def _head_item(head: Conversation, version: int) -> Item:
    return Item(pk=keys.person(head.person_id), sk=keys.conversation_head(head.property_id),
                data=head.model_dump(mode="json"), version=version,
                gsi1pk=keys.property_conversations(head.property_id),
                gsi1sk=keys.conversation_position(head.last_at.isoformat(), head.person_id))


class ConversationRecords(ChangeFeedRecords, RollupRecords):
    async def put_message(self, message: ConversationMessage, *, waited_since: datetime | None = None,
                          org_id: str | None = None) -> None:
        """One message: `put_messages` of it alone."""
        await self.put_messages([message], waited_since=waited_since, org_id=org_id)

    async def put_messages(self, messages: list[ConversationMessage], *, waited_since: datetime | None = None,
                           org_id: str | None = None) -> None:
        """Messages of one conversation, in order, then one change in the feed for them all (and
        for the head their writer changed just before, without a change of its own: a live page
        that refreshes on it sees the messages and the head together).

        The reports count each message the first time it is written (a retried turn rewrites its
        messages; they were counted then): a person's as `inbound.<channel>`, and the first answer
        (Clara's or staff's, not on a call) as `first_response_s` from `waited_since`, which its
        writer took off the head (`Conversation.answered`) as it changed it."""
        counts: list[tuple[str, int, datetime | None]] = []
        for message in messages:
            pk = keys.conversation_messages(message.person_id, message.property_id)
            sk = keys.message_position(message.at.isoformat(), message.id)
            if not await self._create(message, pk, sk):
                await self._put(message, pk, sk)
            elif message.author == Author.PERSON:
                counts.append((f"inbound.{message.channel}", 1, message.at))
            elif waited_since is not None and message.channel != Channel.VOICE:
                seconds = (message.at - waited_since).total_seconds()
                counts.append((bucket_key("first_response_s", seconds), 1, message.at))
                waited_since = None  # the first answer only
        if not messages:
            return
        last = messages[-1]
        if counts:
            await self.bump_many(last.property_id, counts)
        await self.note_change(ChangeKind.CONVERSATION, last.person_id, last.property_id, org_id=org_id,
                               detail={"what": "message", "author": last.author})

    async def messages_of(self, person_id: str, property_id: str, *, limit: int = 200) -> list[ConversationMessage]:
        """The latest `limit` messages at the property, oldest first (one query)."""
        items = await self.store.query(keys.conversation_messages(person_id, property_id), limit=limit,
                                       descending=True)
        return [ConversationMessage.model_validate(i.data) for i in reversed(items)]

    async def get_conversation(self, person_id: str, property_id: str) -> Conversation | None:
        return (await self.read_conversation(person_id, property_id))[0]

    async def read_conversation(self, person_id: str, property_id: str) -> tuple[Conversation | None, Held]:
        """The head, and its item as read (`change_conversation(held=)` writes after it without a
        second read when nobody changed it meanwhile)."""
        item = await self.store.get(keys.person(person_id), keys.conversation_head(property_id))
        return (Conversation.model_validate(item.data) if item else None), Held(item)

    async def conversations_of(self, person_id: str) -> list[Conversation]:
        """The person's conversation heads at every property, most recent first (one query)."""
        items = await self.store.query(keys.person(person_id), keys.CONVERSATION)
        heads = [Conversation.model_validate(i.data) for i in items]
        return sorted(heads, key=lambda h: h.last_at, reverse=True)

    async def change_conversation(self, person_id: str, property_id: str,
                                  change: Callable[[Conversation | None], Conversation | None], *,
                                  note: bool = True, org_id: str | None = None,
                                  held: Held | None = None) -> Conversation | None:
        """Apply `change` to the head at the property by compare-and-set (it gets None when there is
        none yet; None back: leave it as it is). The head as written (or as found). `note=False`:
        the caller writes messages next (`put_messages`), whose change in the feed tells of both.
        `held`: the head as the caller read it (`read_conversation`), tried first without a read."""
        changed = await self._compare_and_set(
            Conversation, keys.person(person_id), keys.conversation_head(property_id), change=change,
            tries=CAS_TRIES, item_of=lambda head, read: _head_item(head, read.version if read else 0), held=held)
        if changed.lost:
            raise ConditionFailed(f"conversation of {person_id} at {property_id} kept changing under {CAS_TRIES} tries")
        if changed.after is None:
            return changed.before
        # Live pages hear of it: unread marks and who is answering (the takeover) live on the head.
        if note:
            await self.note_change(ChangeKind.CONVERSATION, person_id, property_id, org_id=org_id,
                                   detail={"what": "head"})
        return changed.after

    async def recent_conversations(self, property_ids: list[str], *, limit: int = 50) -> list[Conversation]:
        """Newest first across the properties named: one index query per property."""
        found: list[Item] = []
        for property_id in property_ids:
            found += await self.store.query_index(keys.property_conversations(property_id), limit=limit,
                                                  descending=True)
        found.sort(key=lambda i: i.gsi1sk or "", reverse=True)
        return [Conversation.model_validate(i.data) for i in found[:limit]]
