"""What every handler module shares: the Tool record, the handler context, ToolFailure."""
from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from desk.pms.writeback import queue_write_back
from spine.context import Channel
from spine.repo import Spine
from spine.toolspec import OutboundText, ToolSpec
from spine.transfer import CallMove
from spine.work import Priority, WorkOrder, WorkOrderNote, spell_display_id, spell_work_order_id
from tools.caller import Caller
from tools.errors import ToolError
from tools.facts import Target
from tools.ids import WORK_ORDER_ID_PATTERN
from tools.schema import ToolInput, input_schema
from tools.verification import call_verification


class ToolFailure(ToolError):
    """A handler cannot do what was asked (wrong state, nothing to act on). The message goes back
    to the model as an is_error tool_result, so it is written for the model to relay."""


@dataclass(frozen=True, slots=True)
class HandlerContext:
    spine: Spine
    caller: Caller
    target: Target  # what the gate resolved and checked; handlers act on this, not on raw input
    texts: list[OutboundText] = field(default_factory=list)  # for the channel to send (the step-up code)
    call_moves: list[CallMove] = field(default_factory=list)  # for the channel to do (transfer_to_staff)


Handler = Callable[[HandlerContext, Any], Awaitable[BaseModel]]


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    input_model: type[ToolInput]
    handler: Handler
    spec: ToolSpec = field(init=False)

    def __post_init__(self) -> None:
        spec = ToolSpec(name=self.name, description=self.description, input_schema=input_schema(self.input_model))
        object.__setattr__(self, "spec", spec)


def work_order_field(description: str = "Work order, e.g. WO-7", *, optional: bool = False) -> Any:
    if optional:
        return Field(None, description=description, pattern=WORK_ORDER_ID_PATTERN)
    return Field(description=description, pattern=WORK_ORDER_ID_PATTERN)


UNIT_DESCRIPTION = "Unit number, e.g. 204. Omit for the caller's own unit."


def unit_field(description: str = UNIT_DESCRIPTION) -> Any:
    return Field(None, description=description, max_length=16)


async def target_work_order(ctx: HandlerContext) -> WorkOrder:
    """The work order the gate resolved, read fresh from the store."""
    wo = await ctx.spine.get_work_order(ctx.target.work_order_id or "")
    if wo is None:
        raise ToolFailure(f"work order {ctx.target.work_order} no longer exists")
    return wo


class Ack(BaseModel):
    ok: bool = True
    message: str


async def unverified_callback(ctx: HandlerContext) -> str | None:
    """On a phone call not (yet) verified: the caller's number on file, to confirm what they asked
    for by calling back (the caller ID is not identity). None when the caller is verified, or not on
    the phone (the matrix's `verified_caller` column explains which tools may act unverified)."""
    if ctx.caller.channel != Channel.VOICE or await call_verification(ctx.spine, ctx.caller) is not None:
        return None
    person = await ctx.spine.get_person(ctx.caller.person_id) if ctx.caller.person_id else None
    phones = person.phones() if person else []
    if not phones:
        raise ToolFailure("this caller is not verified and has no number on file to confirm with; "
                          "offer a person from the team")
    return phones[0]


async def new_work_order(ctx: HandlerContext, *, description: str, brief: str | None, priority: str,
                         notes: Sequence[str] = (), confirm_by_callback: str | None = None) -> WorkOrder:
    """Write a new work order at the target's property and unit, numbered WO-n from the sequence."""
    number = await ctx.spine.next_sequence("work_order")
    wo = WorkOrder(
        id=spell_work_order_id(number), display_id=spell_display_id(number), property_id=ctx.target.property_id or ctx.caller.property_id,
        unit_id=ctx.target.unit_id, brief=brief or description.strip().split("\n")[0][:80],
        description=description, priority=Priority(priority), created_by_person_id=ctx.caller.person_id,
        notes=[WorkOrderNote(author_person_id=ctx.caller.person_id, text=text) for text in notes],
        confirm_by_callback=confirm_by_callback,
    )
    await ctx.spine.put_work_order(wo)
    await queue_write_back(ctx.spine, wo)  # a PMS tenant's work order goes to the PMS too (desk.pms.writeback)
    return wo
