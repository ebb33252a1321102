"""A call's sessions on one PersonHost in this process: for an app that runs without Ray (the
voice routes built without a GatewayContext: tests, bench/voice.py). The same PersonActors and
the same ops as on the pool; as `HostPool.session` does, an op an address actor answers with
Moved (its number is a Person's now) is sent on to that Person's actor."""
from __future__ import annotations

from actors.errors import ActorError
from actors.host.host import PersonHost
from actors.host.ownership import Ownerships
from actors.host.person_runtime import Moved, PersonRuntime
from actors.protocol.keys import person_of
from actors.protocol.session import CallEnd, CallOpen, CallTool, SessionReply
from actors.protocol.turn import TurnDeps

LEASE_S = 330.0  # as a host's: the idle window and its margin
MAX_HOPS = 4  # address -> Person -> merge survivor: more is a loop


class InProcessSessions:
    def __init__(self, deps: TurnDeps, host_id: str = "in-process") -> None:
        self.host = PersonHost(PersonRuntime(deps=deps, ownerships=Ownerships(deps.spine.store, host_id, LEASE_S),
                                             host_id=host_id))

    async def session(self, op: CallOpen | CallTool | CallEnd) -> SessionReply:
        for _ in range(MAX_HOPS):
            try:  # straight to the actor: no idle sweeper in this process, the actors stay warm
                return await self.host.actor_for(op.key).call(op)
            except Moved as moved:
                if moved.rekey is None:
                    raise
                op = op.model_copy(update={"person_id": person_of(moved.rekey)})
        raise ActorError(f"{op.key} kept moving")
