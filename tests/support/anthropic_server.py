"""A local stand-in for the Anthropic Messages API (`POST /v1/messages`), for tests and benches.

It speaks the real wire protocol, so the product reaches it through the real SDK and its
configurable base URL. It checks auth (`x-api-key`, or `Authorization: Bearer` which this SDK
version sends for api_key) and `anthropic-version`, validates the request shape, answers from a
queue of scripted replies (text / tool_use blocks, HTTP errors with the API's error JSON, delays,
malformed bodies) or, with an empty queue, a plain text reply; and records every request. With
`latency_s` every answer first waits that long, as a real model's time to first token, and with
`token_s` that much more per output token, as its generation (the stand-in answers non-streaming
requests, so the whole answer comes when its last token would have).

Usage follows the prompt-caching rules: blocks are taken in the API's cache order (tools, then
system, then message content); the prefix up to and including a `cache_control` block is a cache
entry keyed by (model, canonical JSON of that prefix) living 5 minutes, refreshed on every hit.
The longest prefix seen before is `cache_read_input_tokens`; the rest up to the last breakpoint is
`cache_creation_input_tokens`; what follows the last breakpoint is `input_tokens`. A token is
len(canonical JSON) // 4 of each block.
"""
from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.support.threaded_server import ThreadedServer

ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
               404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error",
               500: "api_error", 529: "overloaded_error"}
CACHE_TTL_S = 300.0
MAX_BREAKPOINTS = 4


@dataclass
class Reply:
    """One scripted answer. `content` for a 200; `status`/`error_type` for an API error."""

    content: list[dict[str, Any]] = field(default_factory=list)
    status: int = 200
    error_type: str | None = None
    message: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    raw_body: str | None = None  # sent verbatim: malformed answers
    output_tokens: int | None = None


def text(body: str, delay_s: float = 0.0) -> Reply:
    return Reply(content=[{"type": "text", "text": body}], delay_s=delay_s)


def tool_use(name: str, input: dict[str, Any], id: str | None = None, text: str | None = None) -> Reply:
    blocks = [{"type": "text", "text": text}] if text else []
    blocks.append({"type": "tool_use", "id": id or f"toolu_{name}", "name": name, "input": input})
    return Reply(content=blocks)


def error(status: int = 529, message: str = "Overloaded", retry_after_ms: int | None = 10,
          error_type: str | None = None) -> Reply:
    headers = {"retry-after-ms": str(retry_after_ms)} if retry_after_ms is not None else {}
    return Reply(status=status, error_type=error_type or ERROR_TYPES.get(status, "api_error"),
                 message=message, headers=headers)


def hang(seconds: float) -> Reply:
    return text("(too late)", delay_s=seconds)


def malformed(body: str = "{not json") -> Reply:
    return Reply(raw_body=body)  # a 200 that is not a Message


@dataclass
class Recorded:
    body: dict[str, Any]
    headers: dict[str, str]
    status: int
    usage: dict[str, int] | None = None


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def tokens(value: Any) -> int:
    return len(value if isinstance(value, str) else canonical(value)) // 4


class AnthropicStandIn(ThreadedServer):
    """Runs on 127.0.0.1, a free port, in its own thread and event loop (so a test or bench that
    blocks its own loop still gets answers). `start()`/`stop()` or `with AnthropicStandIn() as s:`."""

    name = "Anthropic stand-in"
    client_max_size = 32 * 1024 * 1024

    def __init__(self, api_key: str = "test-key", clock: Callable[[], float] = time.monotonic,
                 default_text: str = "OK.", min_cache_tokens: int = 0, latency_s: float = 0.0,
                 token_s: float = 0.0) -> None:
        super().__init__()
        self.api_key = api_key
        self.latency_s, self.token_s = latency_s, token_s
        self.clock = clock
        self.min_cache_tokens = min_cache_tokens  # the real API skips caching short prefixes
        self.default_reply: Callable[[dict[str, Any]], Reply] = lambda body: text(default_text)
        self.requests: list[Recorded] = []
        self._script: deque[Reply] = deque()
        self._cache: dict[str, float] = {}
        self._ids = itertools.count(1)

    def script(self, *replies: Reply) -> None:
        self._script.extend(replies)

    def bodies(self) -> list[dict[str, Any]]:
        return [r.body for r in self.requests]

    def routes(self, app: web.Application) -> None:
        app.router.add_post("/v1/messages", self._handle)

    # -- the endpoint --------------------------------------------------------------------------
    async def _handle(self, request: web.Request) -> web.StreamResponse:
        headers = {k.lower(): v for k, v in request.headers.items()}
        try:
            body = await request.json()
        except ValueError:
            body = None
        record = Recorded(body=body if isinstance(body, dict) else {}, headers=headers, status=200)
        self.requests.append(record)
        problem = self._check_auth(headers)
        if problem:
            record.status = problem[0]
            return _error_response(problem[0], ERROR_TYPES[problem[0]], problem[1])
        invalid = validate(body)
        if invalid:
            record.status = 400
            return _error_response(400, "invalid_request_error", invalid)
        reply = self._script.popleft() if self._script else self.default_reply(body)
        generating = self.token_s * _output_tokens(reply) if reply.status == 200 else 0.0
        if reply.delay_s or self.latency_s or generating:
            await asyncio.sleep(reply.delay_s + self.latency_s + generating)
        record.status = reply.status
        if reply.raw_body is not None:
            return web.Response(status=reply.status, text=reply.raw_body, content_type="application/json")
        if reply.status != 200:
            return _error_response(reply.status, reply.error_type or "api_error", reply.message, reply.headers)
        record.usage = self._usage(body, reply)
        return web.json_response(self._message(body, reply, record.usage), headers=reply.headers)

    def _check_auth(self, headers: dict[str, str]) -> tuple[int, str] | None:
        key = headers.get("x-api-key") or headers.get("authorization", "").removeprefix("Bearer ")
        if key != self.api_key:
            return 401, "invalid x-api-key"
        if not headers.get("anthropic-version"):
            return 400, "anthropic-version: header is required"
        return None

    def _message(self, body: dict[str, Any], reply: Reply, usage: dict[str, int]) -> dict[str, Any]:
        uses_tool = any(b.get("type") == "tool_use" for b in reply.content)
        return {"id": f"msg_standin_{next(self._ids):05d}", "type": "message", "role": "assistant",
                "model": body["model"], "content": reply.content,
                "stop_reason": "tool_use" if uses_tool else "end_turn", "stop_sequence": None, "usage": usage}

    def _usage(self, body: dict[str, Any], reply: Reply) -> dict[str, int]:
        blocks = cache_order(body)
        sizes = [tokens(b) for b in blocks]
        marks = [i for i, b in enumerate(blocks) if isinstance(b, dict) and "cache_control" in b]
        now, read, last = self.clock(), 0, (marks[-1] if marks else -1)
        if marks and sum(sizes[: last + 1]) < self.min_cache_tokens:
            marks, last = [], -1
        for mark in marks:
            key = hashlib.sha256((body["model"] + canonical(blocks[: mark + 1])).encode()).hexdigest()
            seen = self._cache.get(key)
            if seen is not None and now - seen <= CACHE_TTL_S:
                read = sum(sizes[: mark + 1])
            self._cache[key] = now
        prefix = sum(sizes[: last + 1])
        return {"input_tokens": sum(sizes[last + 1:]), "output_tokens": _output_tokens(reply),
                "cache_read_input_tokens": read, "cache_creation_input_tokens": prefix - read}


def _output_tokens(reply: Reply) -> int:
    return reply.output_tokens if reply.output_tokens is not None else max(1, tokens(reply.content))


def cache_order(body: dict[str, Any]) -> list[Any]:
    """Every block of a request in the order the API builds its cache prefix."""
    blocks: list[Any] = list(body.get("tools") or [])
    system = body.get("system") or []
    blocks += [{"type": "text", "text": system}] if isinstance(system, str) else list(system)
    for message in body["messages"]:
        content = message["content"]
        parts = [{"type": "text", "text": content}] if isinstance(content, str) else content
        blocks += [{"role": message["role"], **part} for part in parts]
    return blocks


def validate(body: Any) -> str | None:
    """The request-shape checks the real API does that matter to us; None when valid."""
    if not isinstance(body, dict):
        return "request body must be a JSON object"
    if not isinstance(body.get("model"), str) or not body["model"]:
        return "model: field required"
    if not isinstance(body.get("max_tokens"), int) or body["max_tokens"] < 1:
        return "max_tokens: must be a positive integer"
    if body.get("stream"):
        return "stream: the stand-in answers non-streaming requests only"
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "messages: at least one message is required"
    system = body.get("system")
    if system is not None and not isinstance(system, str) and not (
            isinstance(system, list) and all(isinstance(b, dict) and b.get("type") == "text"
                                             and isinstance(b.get("text"), str) for b in system)):
        return "system: must be a string or a list of text blocks"
    tools = body.get("tools") or []
    names = [t.get("name") for t in tools if isinstance(t, dict)]
    if len(names) != len(tools) or not all(isinstance(n, str) and n for n in names) or len(set(names)) != len(names):
        return "tools: each tool needs a unique name"
    if any(not isinstance(t.get("input_schema"), dict) or t["input_schema"].get("type") != "object" for t in tools):
        return "tools: input_schema must be a JSON schema of type object"
    return _validate_messages(messages, set(names)) or _validate_breakpoints(body)


def _validate_messages(messages: list[Any], tool_names: set[str]) -> str | None:
    pending: set[str] = set()
    for i, m in enumerate(messages):
        if not isinstance(m, dict) or m.get("role") not in ("user", "assistant"):
            return f"messages.{i}.role: must be 'user' or 'assistant'"
        content = m.get("content")
        if isinstance(content, str) and content:
            blocks: list[Any] = []
        elif isinstance(content, list) and content:
            blocks = content
        else:
            return f"messages.{i}.content: must be a non-empty string or list of blocks"
        if any(not isinstance(b, dict) or "type" not in b for b in blocks):
            return f"messages.{i}.content: every block needs a type"
        results = {b.get("tool_use_id") for b in blocks if b["type"] == "tool_result"}
        if pending - results:
            return (f"messages.{i}: tool_use ids were found without tool_result blocks immediately after: "
                    f"{sorted(pending - results)}")
        if results - pending:
            return f"messages.{i}: unexpected tool_use_id in tool_result blocks: {sorted(results - pending)}"
        uses = [b for b in blocks if b["type"] == "tool_use"]
        if (uses or results) and not tool_names:
            return "Requests which include tool_use or tool_result blocks must define tools."
        if any(b.get("name") not in tool_names for b in uses):
            return f"messages.{i}: tool_use names a tool that is not defined"
        pending = {b.get("id") for b in uses} if m["role"] == "assistant" else set()
    return None


def _validate_breakpoints(body: dict[str, Any]) -> str | None:
    marks = sum(1 for b in cache_order(body) if isinstance(b, dict) and "cache_control" in b)
    if marks > MAX_BREAKPOINTS:
        return f"A maximum of {MAX_BREAKPOINTS} blocks with cache_control may be provided. Found {marks}."
    return None


def _error_response(status: int, error_type: str, message: str,
                    headers: dict[str, str] | None = None) -> web.Response:
    body = {"type": "error", "error": {"type": error_type, "message": message},
            "request_id": f"req_standin_{status}"}
    return web.json_response(body, status=status, headers=headers or {})
