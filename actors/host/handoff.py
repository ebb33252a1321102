"""Handing a conversation to the Person it turned out to be.

An unknown caller's PersonActor is keyed by their channel address. When the router mints them a
Person (or the address turns out to be claimed by one), the conversation moves: the address
actor writes its transcript here, under the Person's placement key, and goes cold (its lease
released); the Person's actor, on whichever host, takes it when it activates. One store item,
written once and deleted when taken, so the move survives a host restart in between.
"""
from __future__ import annotations

from spine import keys
from spine.store.base import Item, Store


def handoff_pk(key: str) -> str:
    return keys.handoff(key)


async def hand_off(store: Store, to_key: str, from_key: str, transcript: list[dict[str, str]]) -> None:
    await store.put(Item(pk=handoff_pk(to_key), data={"from": from_key, "transcript": transcript}))


async def take_handoff(store: Store, key: str) -> list[dict[str, str]]:
    """The transcript handed to `key`, removed from the store; [] if none was."""
    item = await store.get(handoff_pk(key))
    if item is None:
        return []
    await store.delete(handoff_pk(key))
    return list(item.data.get("transcript", []))
