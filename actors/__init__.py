"""PersonActors, the DispatcherActor, the agent loop, model backends and personContext refresh.

What runs where (one folder per process; a module's folder says which process runs it):

    protocol/    what the processes say to each other: actor keys, typed handles, a turn's types,
                 a call's ops, a host's reply; every folder below imports it, it imports none of them
    client/      the GatewayIngress replica's side: HostPool, placement, and a call's replica side
                 (calls.py CallService: the open budget, bookkeeping, forwarding; call_session.py)
    host/        the PersonActor host process: PersonHost, PersonActor, ownership, sessions
    turn/        one turn, run by a PersonActor inside its host: interaction, opening, agent loop,
                 and a call's opening and tools (call_opening.py, call_tools.py, run by host/person_session.py)
    dispatcher/  the DispatcherActor process: the tool gate, tool runs, speculative prefetch
    control/     one actor each per namespace: the reconciler (host sizing), the PagingScheduler
    model/       the model backends (Anthropic, offline), called from the turn
    config, errors, metrics, heap: shared by all of them

The one path of an SMS: gateway/sms/handler.py (the replica) -> client/pool.py HostPool.submit
(placement picks the host) -> host/host.py PersonHost.handle -> host/person_actor.py (the
person's mailbox, under its ownership lease) -> turn/interaction.py run_interaction: turn/opening.py
(who is talking, their authority, the prompt) -> turn/agent_loop.py (model <-> tools) ->
turn/trace_builder.py (the trace) -> the reply back up the same handles. A tool call: the agent
loop -> dispatcher/dispatcher_actor.py RayToolRunner -> DispatcherActor -> dispatcher/dispatcher.py
(TOOL_ROLE_MATRIX and scope checks in tools/gate.py, then the handler). A call: gateway/voice/
(the webhooks and the ElevenLabs websocket) -> client/calls.py CallService (the replica: the open
budget, the trace written after the answer) -> client/pool.py HostPool.session -> the caller's
actor (their PersonActor, or their number's address actor `addr:voice:<number>`, as on SMS) ->
host/person_session.py: the call's open (turn/call_opening.py), its tools (the same dispatcher) and
its end (the personContext refresh). One SMS turn: 1 + N host -> dispatcher round trips
for N tool calls (turn/turn_start.py: the Opening's authority re-check carries the lookups).

The names below are the actors layer's public API; everything else is reached through its
module, each imported the first time one of its names is asked for, so `import actors.config`
stays cheap and code that never starts Ray never imports it. Everything is plain asyncio and
imports without Ray, except the Ray runtime (the PersonActor hosts, their pool, the DispatcherActor).
Errors: `actors.errors.ActorError` and below.
"""
import typing

from spine.lazy_names import lazy_names as _lazy_names

if typing.TYPE_CHECKING:
    from actors.client.call_session import LiveCall
    from actors.client.calls import CallService
    from actors.client.pool import HostPool, TurnFailed
    from actors.config import DEFAULT_FAST_MODEL, DEFAULT_TURN_MODEL, RuntimeConfig, TurnBudget
    from actors.dispatcher.dispatcher import Dispatcher
    from actors.dispatcher.dispatcher_actor import DispatcherActor, RayToolRunner
    from actors.errors import ActorError
    from actors.host.context_refresh import refresh_person_context
    from actors.host.host import PersonActorHost, PersonHost
    from actors.host.ownership import OwnershipHeld, OwnershipLost, Ownerships
    from actors.host.person_actor import PersonActor
    from actors.host.person_runtime import ActorInfo, Moved, PersonRuntime
    from actors.model.base import ModelBackend, ModelRequest, ModelResponse, ModelUnavailable
    from actors.model.factory import make_model_from
    from actors.model.offline import OfflineModel
    from actors.protocol.session import CallEnd, CallOpen, CallTool, PersonSessions, SessionReply, VoiceCallStart
    from actors.protocol.turn import ToolRunner, TurnDeps, TurnResult
    from actors.turn.interaction import run_interaction
    from actors.turn.opening import Opening, load_context, open_for

# name -> the module that defines it, imported on first use (module __getattr__, PEP 562): a
# command that needs only `actors.config` (every `gateway` CLI command, through its settings)
# does not pay for the turn, the hosts, the model backends or Ray (about 0.4 s of start-up).
_HOMES = {
    **dict.fromkeys(["DEFAULT_FAST_MODEL", "DEFAULT_TURN_MODEL", "RuntimeConfig", "TurnBudget"], "actors.config"),
    "Dispatcher": "actors.dispatcher.dispatcher",
    **dict.fromkeys(["DispatcherActor", "RayToolRunner"], "actors.dispatcher.dispatcher_actor"),
    **dict.fromkeys(["HostPool", "TurnFailed"], "actors.client.pool"),
    "ActorError": "actors.errors",
    "refresh_person_context": "actors.host.context_refresh",
    **dict.fromkeys(["PersonActorHost", "PersonHost"], "actors.host.host"),
    **dict.fromkeys(["OwnershipHeld", "OwnershipLost", "Ownerships"], "actors.host.ownership"),
    "PersonActor": "actors.host.person_actor",
    **dict.fromkeys(["ActorInfo", "Moved", "PersonRuntime"], "actors.host.person_runtime"),
    **dict.fromkeys(["CallEnd", "CallOpen", "CallTool", "PersonSessions", "SessionReply"],
                    "actors.protocol.session"),
    **dict.fromkeys(["ModelBackend", "ModelRequest", "ModelResponse", "ModelUnavailable"], "actors.model.base"),
    "make_model_from": "actors.model.factory",
    "OfflineModel": "actors.model.offline",
    "run_interaction": "actors.turn.interaction",
    **dict.fromkeys(["Opening", "load_context", "open_for"], "actors.turn.opening"),
    **dict.fromkeys(["ToolRunner", "TurnDeps", "TurnResult"], "actors.protocol.turn"),
    **dict.fromkeys(["CallService"], "actors.client.calls"),
    "VoiceCallStart": "actors.protocol.session",
    "LiveCall": "actors.client.call_session",
}

__getattr__ = _lazy_names(__name__, _HOMES)


__all__ = [
    "DEFAULT_FAST_MODEL",
    "DEFAULT_TURN_MODEL",
    "ActorError",
    "ActorInfo",
    "CallEnd",
    "CallOpen",
    "CallService",
    "CallTool",
    "Dispatcher",
    "DispatcherActor",
    "HostPool",
    "LiveCall",
    "ModelBackend",
    "ModelRequest",
    "ModelResponse",
    "ModelUnavailable",
    "Moved",
    "OfflineModel",
    "Opening",
    "OwnershipHeld",
    "OwnershipLost",
    "Ownerships",
    "PersonActor",
    "PersonActorHost",
    "PersonHost",
    "PersonRuntime",
    "PersonSessions",
    "RayToolRunner",
    "RuntimeConfig",
    "SessionReply",
    "ToolRunner",
    "TurnBudget",
    "TurnDeps",
    "TurnFailed",
    "TurnResult",
    "VoiceCallStart",
    "load_context",
    "make_model_from",
    "open_for",
    "refresh_person_context",
    "run_interaction",
]
