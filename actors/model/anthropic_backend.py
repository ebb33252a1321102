"""The Anthropic Messages API backend, through the official SDK (AsyncAnthropic).

Sonnet answers the caller's turns; Haiku does the cheap side jobs (personContext refresh, the
intent-hint confirm). System blocks and tools go out exactly as the prompt assembler built them,
so its `cache_control` breakpoint is what the API caches. Retries on 408/409/429/5xx/529 are the
SDK's own (exponential backoff 0.5 s .. 8 s, or what `retry-after-ms` / `retry-after` says, and
`x-should-retry` wins); every attempt is bounded by `timeout_s` and the whole call, retries
included, by `deadline_s`. Whatever still fails becomes `ModelUnavailable` with a reason.
"""
from __future__ import annotations

import asyncio
from typing import Any

import anthropic

from actors.config import DEFAULT_FAST_MODEL, DEFAULT_TURN_MODEL
from actors.model.base import ModelRequest, ModelResponse, ModelUnavailable
from spine.records import Usage

MAX_BACKOFF_S = 8.0  # the SDK's MAX_RETRY_DELAY; bounds the default deadline
DEADLINE_GRACE_S = 1.0  # lets the per-attempt timeout fire first, with its clearer reason


class AnthropicBackend:
    name = "anthropic"

    def __init__(
        self,
        api_key: str,
        base_url: str | None = None,
        turn_model: str = DEFAULT_TURN_MODEL,
        fast_model: str = DEFAULT_FAST_MODEL,
        timeout_s: float = 30.0,
        max_retries: int = 2,
        deadline_s: float | None = None,
    ) -> None:
        if not api_key:
            raise ValueError("the anthropic model needs an API key (set ANTHROPIC_API_KEY)")
        if timeout_s <= 0 or max_retries < 0:
            raise ValueError("timeout_s must be > 0 and max_retries >= 0")
        self.api_key = api_key
        self.base_url = base_url
        self.turn_model = turn_model
        self.fast_model = fast_model
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.deadline_s = deadline_s or (
            timeout_s * (max_retries + 1) + MAX_BACKOFF_S * max_retries + DEADLINE_GRACE_S)
        self._client: anthropic.AsyncAnthropic | None = None
        self._client_loop: asyncio.AbstractEventLoop | None = None

    def model_for(self, request: ModelRequest) -> str:
        return self.turn_model if request.purpose == "turn" else self.fast_model

    async def complete(self, request: ModelRequest) -> ModelResponse:
        model = self.model_for(request)
        params: dict[str, Any] = {"model": model, "max_tokens": request.max_tokens, "messages": request.messages}
        if request.system:
            params["system"] = request.system
        if request.tools:
            params["tools"] = request.tools
        try:
            async with asyncio.timeout(self.deadline_s):
                message = await self._sdk().messages.create(**params)
        except TimeoutError as exc:
            raise ModelUnavailable(f"{model}: no answer within the {self.deadline_s:g}s deadline") from exc
        except anthropic.APITimeoutError as exc:
            raise ModelUnavailable(
                f"{model}: timed out after {self.timeout_s:g}s per attempt, {self.max_retries} retries") from exc
        except anthropic.APIConnectionError as exc:
            raise ModelUnavailable(f"{model}: cannot reach the Messages API ({exc})") from exc
        except anthropic.APIStatusError as exc:
            raise ModelUnavailable(f"{model}: {_describe_status_error(exc, self.max_retries)}") from exc
        except anthropic.APIError as exc:
            raise ModelUnavailable(f"{model}: malformed answer ({exc})") from exc
        except ValueError as exc:  # a 200 whose body is not JSON (json.JSONDecodeError)
            raise ModelUnavailable(f"{model}: malformed answer ({type(exc).__name__}: {exc})") from exc
        return to_model_response(message, fallback_model=model)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None

    def _sdk(self) -> anthropic.AsyncAnthropic:
        # The SDK's HTTP pool belongs to the event loop that first used it; a backend carried
        # into another loop (a Ray actor, a test session) gets a fresh client there.
        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop is not loop:
            self._close_on_its_loop()
            self._client = anthropic.AsyncAnthropic(
                api_key=self.api_key, base_url=self.base_url, timeout=self.timeout_s, max_retries=self.max_retries)
            self._client_loop = loop
        return self._client

    def _close_on_its_loop(self) -> None:
        """A client left behind on another loop is closed there, if that loop still runs (its
        connections cannot be closed from this one); a closed loop took its sockets with it."""
        old, old_loop = self._client, self._client_loop
        self._client = self._client_loop = None
        if old is not None and old_loop is not None and old_loop.is_running() and not old_loop.is_closed():
            asyncio.run_coroutine_threadsafe(old.close(), old_loop)

    def __getstate__(self) -> dict[str, Any]:
        # Picklable for Ray: the live HTTP client stays behind and is rebuilt on first use.
        return {**self.__dict__, "_client": None, "_client_loop": None}


def _describe_status_error(exc: anthropic.APIStatusError, max_retries: int) -> str:
    error_type, detail = "error", str(exc)
    body = exc.body
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        error_type = str(body["error"].get("type", error_type))
        detail = str(body["error"].get("message", detail))
    retryable = exc.status_code in (408, 409, 429) or exc.status_code >= 500
    gave_up = f" (gave up after at most {max_retries} retries)" if retryable else ""
    return f"HTTP {exc.status_code} {error_type}: {detail}{gave_up}"


def to_model_response(message: Any, fallback_model: str = "") -> ModelResponse:
    """Map the SDK's Message to our ModelResponse; anything not shaped like a Message is
    a malformed answer."""
    try:
        content = [_block(b) for b in message.content]
        usage = message.usage
        return ModelResponse(
            content=content,
            stop_reason=message.stop_reason or "end_turn",
            usage=Usage(
                input_tokens=usage.input_tokens or 0,
                output_tokens=usage.output_tokens or 0,
                cache_read_input_tokens=getattr(usage, "cache_read_input_tokens", None) or 0,
                cache_creation_input_tokens=getattr(usage, "cache_creation_input_tokens", None) or 0,
            ),
            model=message.model or fallback_model,
        )
    except (AttributeError, TypeError, ValueError) as exc:
        raise ModelUnavailable(f"{fallback_model}: malformed answer ({type(exc).__name__}: {exc})") from exc


def _block(block: Any) -> dict[str, Any]:
    # Only the fields the API accepts back in an assistant turn; SDK extras (citations=None,
    # caller=None, ...) would be echoed into the next request otherwise.
    kind = block.type
    if kind == "text":
        return {"type": "text", "text": block.text}
    if kind == "tool_use":
        if not isinstance(block.input, dict):
            raise TypeError(f"tool_use {block.name!r} input is not an object")
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    dumped: dict[str, Any] = block.model_dump(mode="json", exclude_none=True)
    return dumped
