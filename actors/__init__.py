"""PersonActors, the DispatcherActor, the agent loop, model backends and personContext refresh.

The names below are the actors layer's public API; everything else is reached through its
module. Everything here is plain asyncio and imports without Ray, except the Ray runtime
(the PersonActor hosts, their pool, the DispatcherActor), which is imported the first time one
of its names is asked for, so `import actors` stays cheap for code that never starts Ray.
Errors: `actors.errors.ActorError` and below.
"""
import importlib
import typing

from actors.config import DEFAULT_FAST_MODEL, DEFAULT_TURN_MODEL, RuntimeConfig
from actors.context_refresh import refresh_person_context
from actors.dispatcher import Dispatcher
from actors.errors import ActorError
from actors.interaction import run_interaction
from actors.lease import LeaseHeld, LeaseLost, Leases
from actors.model.base import ModelBackend, ModelRequest, ModelResponse, ModelUnavailable
from actors.model.factory import make_model_from
from actors.model.offline import OfflineModel
from actors.opening import Opening, load_context, open_for
from actors.person_actor import PersonActor
from actors.person_runtime import ActorInfo, Moved, PersonRuntime
from actors.person_session import CallEnd, CallOpen, CallTool, PersonSessions, SessionReply
from actors.turn_types import ToolRunner, TurnBudget, TurnDeps, TurnResult
from actors.voice_call import VoiceCalls
from actors.voice_opening import VoiceCallStart
from actors.voice_session import VoiceCall

if typing.TYPE_CHECKING:
    from actors.dispatcher_actor import DispatcherActor, RayToolRunner
    from actors.host import PersonActorHost, PersonHost
    from actors.pool import HostPool, TurnFailed

# The Ray runtime: name -> module, imported on first use (module __getattr__, PEP 562).
_RAY_RUNTIME = {
    "DispatcherActor": "actors.dispatcher_actor",
    "HostPool": "actors.pool",
    "PersonActorHost": "actors.host",
    "PersonHost": "actors.host",
    "RayToolRunner": "actors.dispatcher_actor",
    "TurnFailed": "actors.pool",
}


def __getattr__(name: str) -> object:
    if name in _RAY_RUNTIME:
        return getattr(importlib.import_module(_RAY_RUNTIME[name]), name)
    raise AttributeError(f"module 'actors' has no attribute {name!r}")


__all__ = [
    "DEFAULT_FAST_MODEL",
    "DEFAULT_TURN_MODEL",
    "ActorError",
    "ActorInfo",
    "CallEnd",
    "CallOpen",
    "CallTool",
    "Dispatcher",
    "DispatcherActor",
    "HostPool",
    "LeaseHeld",
    "LeaseLost",
    "Leases",
    "ModelBackend",
    "ModelRequest",
    "ModelResponse",
    "ModelUnavailable",
    "Moved",
    "OfflineModel",
    "Opening",
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
    "VoiceCall",
    "VoiceCallStart",
    "VoiceCalls",
    "load_context",
    "make_model_from",
    "open_for",
    "refresh_person_context",
    "run_interaction",
]
