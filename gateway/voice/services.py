"""What the voice routes need, built once per replica from the GatewayContext (or by a test)."""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import httpx

from actors.client.calls import OPEN_BUDGET_S, CallService
from actors.model.base import ModelBackend
from actors.protocol.session import PersonSessions
from actors.protocol.turn import ToolRunner
from gateway.settings import Settings
from gateway.voice.elevenlabs import AgentEndpoint, ElevenLabsApi
from spine.repo import Spine


@dataclass
class VoiceServices:
    settings: Settings
    calls: CallService
    endpoint: AgentEndpoint
    clock: Callable[[], float] = field(default=time.time)  # wall clock for webhook timestamps
    # The client outbound calls go through (ElevenLabs' API, the texts a call sends): the replica's,
    # or the one a test owns and closes; None sends no texts (an app without a GatewayContext).
    http: httpx.AsyncClient | None = None

    @classmethod
    def build(cls, settings: Settings, spine: Spine, tools: ToolRunner, model: ModelBackend, *,
              http: httpx.AsyncClient | None = None, open_budget_s: float = OPEN_BUDGET_S,
              sessions: PersonSessions | None = None) -> VoiceServices:
        """`sessions`: the actor pool. Without it (an app without Ray: tests, bench/voice.py), a
        PersonHost in this process over `tools` and `model` runs the calls' sessions."""
        if sessions is None:
            from actors.host.in_process import InProcessSessions
            from actors.protocol.turn import TurnDeps

            sessions = InProcessSessions(TurnDeps(spine=spine, model=model, tools=tools))
        return cls(settings, CallService(spine, tools, sessions, open_budget_s=open_budget_s),
                   agent_endpoint(settings, http), http=http)

    @classmethod
    def from_context(cls, ctx) -> VoiceServices:
        """In a Serve replica: every call is a session of the caller's actor on the pool (their
        PersonActor, or their number's address actor), which has its own model; tools the
        bridge prefetches go to the DispatcherActor (looked up again if the reconciler replaced it)."""
        from actors.dispatcher.dispatcher_actor import RayToolRunner

        tools = RayToolRunner(resolve=lambda: ctx.pool.dispatcher)
        return cls(ctx.settings, CallService(ctx.spine, tools, ctx.pool), agent_endpoint(ctx.settings, ctx.http),
                   http=ctx.http)


def agent_endpoint(settings: Settings, http: httpx.AsyncClient | None) -> AgentEndpoint:
    api = (ElevenLabsApi(settings.elevenlabs_api_base, settings.elevenlabs_api_key, http=http)
           if settings.elevenlabs_api_key else None)
    return AgentEndpoint(ws_url=settings.elevenlabs_ws_url, agent_id=settings.elevenlabs_agent_id, api=api)
