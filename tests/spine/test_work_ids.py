"""A work order's ids are spelled and read in spine/work.py only: a refusal tells a work order from
a unit by asking it (tools/decide.py)."""
from __future__ import annotations

from spine.work import display_id_of, is_display_id, number_in, spell_display_id, spell_work_order_id


def test_the_two_ids_come_from_one_number():
    assert (spell_work_order_id(7), spell_display_id(7), display_id_of("wo_7")) == ("wo_7", "WO-7", "WO-7")
    assert [number_in(s) for s in ("WO-7", "wo_7", "#7", "7", "none")] == [7, 7, 7, 7, None]


def test_a_display_id_is_told_from_a_unit_name():
    assert is_display_id(display_id_of("wo_42"))
    assert not is_display_id("unit 312") and not is_display_id("wo_42")
