"""What an Ask Clara turn (channel admin) may not do, whatever the matrix allows (issue 40 item 16).

- A viewer reads only: an admin turn whose acting staff member (the impersonator, else the person
  asking as themselves) may not act at the property (`spine.staff_access.staff_may_act`: a viewer
  there, or no staff role at all) runs no side-effecting tool at all (the matrix's `read_only`).
- An impersonated turn sends nothing as the person: it raises no alarm and files no report in their
  name (`escalate_to_human` notifies and pages, `create_work_order` is their report and pages when
  an emergency). What it would have done is shown to the staff member, who can escalate or page
  from the console. This holds for the operator too (otherwise uncapped when impersonating).
"""
from __future__ import annotations

from spine.admin_access import OPERATOR
from spine.context import Channel
from spine.repo import Spine
from spine.staff_access import staff_may_act
from tools.caller import Caller
from tools.decide import Decision
from tools.matrix import ToolPolicy

SENT_AS_THE_PERSON = frozenset({"escalate_to_human", "create_work_order"})


async def admin_refusal(spine: Spine, caller: Caller, tool_name: str, policy: ToolPolicy | None) -> Decision | None:
    """The refusal of an admin turn's call, or None when it may run (the matrix decided the rest)."""
    if caller.channel != Channel.ADMIN or policy is None or policy.read_only:
        return None
    impersonated = caller.impersonated_by is not None and caller.impersonated_by != caller.person_id
    if impersonated and tool_name in SENT_AS_THE_PERSON:
        return Decision(False, f"impersonation: {tool_name} is never sent as {caller.person_id}'s: shown to "
                               f"{caller.impersonated_by} only", "impersonation:shown-not-sent",
                        public="This is Ask Clara acting as the person: nothing is sent or filed in their name. "
                               "Tell the staff member what you would have done; they can escalate or page from "
                               "the console.")
    actor = caller.impersonated_by if impersonated else caller.person_id
    if actor == OPERATOR or (actor is not None and await staff_may_act(spine, actor, caller.property_id)):
        return None
    return Decision(False, f"admin: {actor} may not act at {caller.property_id} (a viewer's Ask Clara reads only)",
                    "admin:read-only", public="The staff member asking may read but not act: no change is made.")
