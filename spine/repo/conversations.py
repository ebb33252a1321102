"""Spine methods of conversations: a person's messages at one property, across channels, and its
head (with the takeover state). A message is one put in the (person, property) partition; the head
is changed by compare-and-set (turns on a host and staff in the console write it concurrently), and
its index entry (the property's recent conversations) moves with it in the same put. Nothing here
reads across properties but `conversations_of`, which the console narrows to the reader's scope.
"""
from __future__ import annotations

from collections.abc import Callable

import spine.keys as keys
from spine.context import Channel
from spine.conversation import Author, Conversation, ConversationMessage
from spine.feed import ChangeKind
from spine.repo.feed import ChangeFeedRecords
from spine.repo.rollups import RollupRecords
from spine.store.base import ConditionFailed, Item

CAS_TRIES = 16


def _head_item(head: Conversation, version: int) -> Item:
    return Item(pk=keys.person(head.person_id), sk=keys.conversation_head(head.property_id),
                data=head.model_dump(mode="json"), version=version,
                gsi1pk=keys.property_conversations(head.property_id),
                gsi1sk=keys.conversation_position(head.last_at.isoformat(), head.person_id))


class ConversationRecords(ChangeFeedRecords, RollupRecords):
    async def put_message(self, message: ConversationMessage) -> None:
        pk = keys.conversation_messages(message.person_id, message.property_id)
        sk = keys.message_position(message.at.isoformat(), message.id)
        if await self._create(message, pk, sk):
            await self._count_message(message)
        else:  # a retried turn rewrites its message; it was counted the first time
            await self._put(message, pk, sk)
        await self.note_change(ChangeKind.CONVERSATION, message.person_id, message.property_id,
                               detail={"what": "message", "author": message.author})

    async def _count_message(self, message: ConversationMessage) -> None:
        """The reports' `inbound` per channel, and `first_response_s`: from the earliest of the
        person's messages since the last answer to this answer (a call is answered as it happens)."""
        if message.author == Author.PERSON:
            await self.bump(message.property_id, f"inbound.{message.channel}", at=message.at)
            return
        if message.channel == Channel.VOICE:
            return
        waiting = None
        for earlier in reversed(await self.messages_of(message.person_id, message.property_id, limit=20)):
            if earlier.id == message.id or earlier.at > message.at:
                continue
            if earlier.author != Author.PERSON:
                break
            waiting = earlier.at
        if waiting is not None:
            await self.observe(message.property_id, "first_response_s", (message.at - waiting).total_seconds(),
                               at=message.at)

    async def messages_of(self, person_id: str, property_id: str, *, limit: int = 200) -> list[ConversationMessage]:
        """The latest `limit` messages at the property, oldest first (one query)."""
        items = await self.store.query(keys.conversation_messages(person_id, property_id), limit=limit,
                                       descending=True)
        return [ConversationMessage.model_validate(i.data) for i in reversed(items)]

    async def get_conversation(self, person_id: str, property_id: str) -> Conversation | None:
        return await self._get(Conversation, keys.person(person_id), keys.conversation_head(property_id))

    async def conversations_of(self, person_id: str) -> list[Conversation]:
        """The person's conversation heads at every property, most recent first (one query)."""
        items = await self.store.query(keys.person(person_id), keys.CONVERSATION)
        heads = [Conversation.model_validate(i.data) for i in items]
        return sorted(heads, key=lambda h: h.last_at, reverse=True)

    async def change_conversation(self, person_id: str, property_id: str,
                                  change: Callable[[Conversation | None], Conversation | None]) -> Conversation | None:
        """Apply `change` to the head at the property by compare-and-set (it gets None when there is
        none yet; None back: leave it as it is). The head as written (or as found)."""
        changed = await self._compare_and_set(
            Conversation, keys.person(person_id), keys.conversation_head(property_id), change=change,
            tries=CAS_TRIES, item_of=lambda head, read: _head_item(head, read.version if read else 0))
        if changed.lost:
            raise ConditionFailed(f"conversation of {person_id} at {property_id} kept changing under {CAS_TRIES} tries")
        if changed.after is None:
            return changed.before
        # Live pages hear of it: unread marks and who is answering (the takeover) live on the head.
        await self.note_change(ChangeKind.CONVERSATION, person_id, property_id, detail={"what": "head"})
        return changed.after

    async def recent_conversations(self, property_ids: list[str], *, limit: int = 50) -> list[Conversation]:
        """Newest first across the properties named: one index query per property."""
        found: list[Item] = []
        for property_id in property_ids:
            found += await self.store.query_index(keys.property_conversations(property_id), limit=limit,
                                                  descending=True)
        found.sort(key=lambda i: i.gsi1sk or "", reverse=True)
        return [Conversation.model_validate(i.data) for i in found[:limit]]
