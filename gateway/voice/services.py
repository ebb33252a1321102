"""What the voice routes need, built once per replica from the GatewayContext (or by a test)."""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import httpx

from actors.host.person_session import PersonSessions
from actors.model.base import ModelBackend
from actors.turn.turn_types import ToolRunner
from actors.voice.call import OPEN_BUDGET_S, VoiceCalls
from gateway.settings import Settings
from gateway.voice.elevenlabs import AgentEndpoint, ElevenLabsApi
from spine.repo import Spine


@dataclass
class VoiceServices:
    settings: Settings
    calls: VoiceCalls
    endpoint: AgentEndpoint
    clock: Callable[[], float] = field(default=time.time)  # wall clock for webhook timestamps
    # The client outbound calls go through (ElevenLabs' API, the texts a call sends): the replica's,
    # or the one a test owns and closes; None sends no texts (an app without a GatewayContext).
    http: httpx.AsyncClient | None = None

    @classmethod
    def build(cls, settings: Settings, spine: Spine, tools: ToolRunner, model: ModelBackend, *,
              http: httpx.AsyncClient | None = None, open_budget_s: float = OPEN_BUDGET_S,
              sessions: PersonSessions | None = None) -> VoiceServices:
        api = (ElevenLabsApi(settings.elevenlabs_api_base, settings.elevenlabs_api_key, http=http)
               if settings.elevenlabs_api_key else None)
        endpoint = AgentEndpoint(ws_url=settings.elevenlabs_ws_url, agent_id=settings.elevenlabs_agent_id, api=api)
        return cls(settings, VoiceCalls(spine, tools, model, open_budget_s=open_budget_s, sessions=sessions), endpoint,
                   http=http)

    @classmethod
    def from_context(cls, ctx) -> VoiceServices:
        """In a Serve replica: a known caller's call is a session of their PersonActor on the
        pool; tools through the DispatcherActor (looked up again if the reconciler replaced it);
        the configured model."""
        from actors.dispatcher.dispatcher_actor import RayToolRunner
        from actors.model.factory import make_model_from

        tools = RayToolRunner(resolve=lambda: ctx.pool.dispatcher)
        return cls.build(ctx.settings, ctx.spine, tools, make_model_from(ctx.settings),
                         http=ctx.http, sessions=ctx.pool)
