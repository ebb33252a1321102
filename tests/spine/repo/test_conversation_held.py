"""A turn reads its conversation head before it runs and writes it after: the write goes on the
head as read (no second read) when nobody changed it meanwhile, and is applied again to the newer
head when someone did (a staff takeover during the turn is never overwritten)."""
from __future__ import annotations

from spine.conversation import Conversation
from spine.repo import Spine
from tests.support.store_log_helpers import StoreLog

PERSON, PROPERTY = "p_marcus", "pf_yale"


def _unread(head: Conversation | None) -> Conversation:
    head = head or Conversation(person_id=PERSON, property_id=PROPERTY)
    head.unread += 1
    return head


async def test_a_head_held_as_read_is_written_without_reading_it_again(spine):
    await spine.change_conversation(PERSON, PROPERTY, _unread)
    log = StoreLog(spine.store)
    logged = Spine(log)
    _, held = await logged.read_conversation(PERSON, PROPERTY)
    log.ops.clear()
    after = await logged.change_conversation(PERSON, PROPERTY, _unread, note=False, held=held)
    assert after is not None and after.unread == 2
    assert [op.name for op in log.ops] == ["put"]


async def test_a_head_changed_meanwhile_is_read_again_and_nothing_is_lost(spine):
    await spine.change_conversation(PERSON, PROPERTY, _unread)
    _, held = await spine.read_conversation(PERSON, PROPERTY)
    await spine.change_conversation(PERSON, PROPERTY, _unread)  # staff, during the turn
    after = await spine.change_conversation(PERSON, PROPERTY, _unread, note=False, held=held)
    assert after is not None and after.unread == 3
    stored = await spine.get_conversation(PERSON, PROPERTY)
    assert stored is not None and stored.unread == 3


async def test_a_change_with_nothing_to_do_on_a_stale_head_looks_at_the_head_as_it_stands(spine):
    _, held = await spine.read_conversation(PERSON, PROPERTY)  # none yet
    await spine.change_conversation(PERSON, PROPERTY, _unread)

    def only_if_there(head: Conversation | None) -> Conversation | None:
        return _unread(head) if head is not None else None

    after = await spine.change_conversation(PERSON, PROPERTY, only_if_there, held=held)
    assert after is not None and after.unread == 2
