"""What every handler module shares: the Tool record, the handler context, ToolFailure."""
from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from spine.repo import Spine
from spine.toolspec import OutboundText, ToolSpec
from spine.work import WorkOrder, WorkOrderNote
from tools.caller import Caller
from tools.errors import ToolError
from tools.facts import Target
from tools.ids import WORK_ORDER_ID_PATTERN
from tools.schema import ToolInput, input_schema


class ToolFailure(ToolError):
    """A handler cannot do what was asked (wrong state, nothing to act on). The message goes back
    to the model as an is_error tool_result, so it is written for the model to relay."""


@dataclass(frozen=True, slots=True)
class HandlerContext:
    spine: Spine
    caller: Caller
    target: Target  # what the gate resolved and checked; handlers act on this, not on raw input
    texts: list[OutboundText] = field(default_factory=list)  # for the channel to send (the step-up code)


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


async def new_work_order(ctx: HandlerContext, *, description: str, brief: str | None, priority: str,
                         notes: Sequence[str] = ()) -> WorkOrder:
    """Write a new work order at the target's property and unit, numbered WO-n from the sequence."""
    number = await ctx.spine.next_sequence("work_order")
    wo = WorkOrder(
        id=f"wo_{number}", display_id=f"WO-{number}", property_id=ctx.target.property_id or ctx.caller.property_id,
        unit_id=ctx.target.unit_id, brief=brief or description.strip().split("\n")[0][:80],
        description=description, priority=priority, created_by_person_id=ctx.caller.person_id,
        notes=[WorkOrderNote(author_person_id=ctx.caller.person_id, text=text) for text in notes],
    )
    await ctx.spine.put_work_order(wo)
    return wo
