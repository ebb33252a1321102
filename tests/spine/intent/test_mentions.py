"""spine.intent.mentions: the one reader of work-order ids and bedroom counts in a message."""
from __future__ import annotations

from spine.intent.mentions import bedrooms, without_work_orders, work_order_ids


def test_work_orders_are_read_in_every_spelling_with_as_many_digits_as_the_counter_reaches():
    text = "WO-7, wo 42, WO#801, work order #90, workorder 3, WO-007 again, WO-1234567 and wo_812"
    assert work_order_ids(text) == ["WO-7", "WO-42", "WO-801", "WO-90", "WO-3", "WO-1234567", "WO-812"]
    assert work_order_ids("call 2065551001 about unit 204") == []
    assert without_work_orders("WO-204 in unit 110").split() == ["in", "unit", "110"]


def test_bedroom_counts_in_english_and_spanish_and_a_studio_is_none_bedrooms():
    assert [bedrooms(t) for t in ("do you have 2BR units?", "a two-bedroom", "3 bd", "dos recámaras",
                                  "any studios?", "un estudio", "WO-7 please")] == [2, 2, 3, 2, 0, 0, None]
