"""Spellings of work-order ids the model and people use: "WO-7", "wo_7", "7"."""
from __future__ import annotations

from spine.work import display_id_of, number_in, spell_work_order_id
from tools.errors import ToolError

WORK_ORDER_ID_PATTERN = r"^\s*(?:[Ww][Oo][-_ #]?)?#?[0-9]+\s*$"


class InvalidWorkOrderId(ToolError, ValueError):
    """A work-order id spelled no accepted way."""


def work_order_key(spelled: str) -> str:
    """The store id of a work order named any accepted way ("WO-7" -> "wo_7")."""
    number = number_in(spelled)
    if number is None:
        raise InvalidWorkOrderId(f"not a work order id: {spelled!r}")
    return spell_work_order_id(number)


def display_id(key: str) -> str:
    return display_id_of(work_order_key(key))
