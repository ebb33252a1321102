"""The ElevenLabs REST API as the gateway uses it: signed conversation URLs and agent updates.
Reached through ELEVENLABS_API_BASE, so tests point it at a local stand-in."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import httpx
from pydantic import BaseModel, ValidationError

from gateway.errors import ProviderError
from gateway.untrusted import json_value


class ElevenLabsError(ProviderError):
    """The API refused, failed or answered something we cannot use."""


class SignedUrl(BaseModel):
    signed_url: str


class ElevenLabsApi:
    def __init__(self, api_base: str, api_key: str, *, timeout_s: float = 5.0,
                 http: httpx.AsyncClient | None = None) -> None:
        self.api_base = api_base.rstrip("/")
        self._headers = {"xi-api-key": api_key}
        self._http = http
        self._timeout = httpx.Timeout(timeout_s, connect=min(timeout_s, 3.0))

    async def _request(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        client = self._http or httpx.AsyncClient(timeout=self._timeout)
        try:
            response = await client.request(method, self.api_base + path, headers=self._headers, **kwargs)
        except httpx.HTTPError as exc:
            raise ElevenLabsError(f"{method} {path} failed: {type(exc).__name__}: {exc}") from exc
        finally:
            if self._http is None:
                await client.aclose()
        if response.status_code >= 400:
            raise ElevenLabsError(f"{method} {path} answered {response.status_code}: {response.text[:300]}")
        try:
            return json_value(response.content)
        except ValueError as exc:
            raise ElevenLabsError(f"{method} {path} answered non-JSON: {response.text[:120]!r}") from exc

    async def signed_url(self, agent_id: str) -> str:
        """GET /v1/convai/conversation/get-signed-url: a one-time wss URL for a private agent."""
        data = await self._request("GET", "/v1/convai/conversation/get-signed-url", params={"agent_id": agent_id})
        try:
            return SignedUrl.model_validate(data).signed_url
        except ValidationError as exc:
            raise ElevenLabsError(f"signed-url answer has no signed_url: {data!r}"[:300]) from exc

    async def update_agent(self, agent_id: str, body: dict[str, Any]) -> dict[str, Any]:
        """PATCH /v1/convai/agents/{agent_id}."""
        return await self._request("PATCH", f"/v1/convai/agents/{agent_id}", json=body)


@dataclass
class AgentEndpoint:
    """Where a bridged call's agent websocket is: a signed URL when the API key and agent id are
    set (private agents), else ELEVENLABS_WS_URL (with the agent id as ElevenLabs expects it)."""

    ws_url: str | None = None
    agent_id: str | None = None
    api: ElevenLabsApi | None = None

    async def url(self) -> str:
        if self.api is not None and self.agent_id:
            return await self.api.signed_url(self.agent_id)
        if not self.ws_url:
            raise ElevenLabsError("no agent websocket configured: set ELEVENLABS_WS_URL, or "
                                  "ELEVENLABS_API_KEY with ELEVENLABS_AGENT_ID")
        if self.agent_id and "agent_id=" not in self.ws_url:
            joiner = "&" if "?" in self.ws_url else "?"
            return f"{self.ws_url}{joiner}{urlencode({'agent_id': self.agent_id})}"
        return self.ws_url
