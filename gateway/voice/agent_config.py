"""The ElevenLabs agent's configuration, projected from our own: the single voice prompt and the
voice tool catalog (voice-applicable tools only, in ElevenLabs' tool shapes).

Tools are pushed either as `client` tools (run by the bridge on `client_tool_call`) or as
`webhook` (server) tools that ElevenLabs POSTs to `/voice/tools/{name}`. A webhook tool's body
carries the call reference as a dynamic variable the platform fills, never the model, so a tool
call's authority always comes from the call.
"""
from __future__ import annotations

from typing import Any, Literal

from gateway.voice.elevenlabs_wire import ULAW_8000
from spine.toolspec import ToolSpec

ToolMode = Literal["webhook", "client"]
TOOLS_PATH = "/voice/tools/"
CALL_REFERENCE = "interaction_id"  # the dynamic variable personalization sets for every call
# ElevenLabs' count of the agent's turns: the same tool with the same input within one turn is a
# retry, in a later turn a new call (actors.turn.call_tools.tool_use_id_for).
AGENT_TURN = "agent_turn"
AGENT_TURNS_VARIABLE = "system__agent_turns"
RESPONSE_TIMEOUT_S = 20
DEFAULT_FIRST_MESSAGE = "Hi, this is Clara. How can I help?"

# ElevenLabs' tool parameter schema is a subset of JSON schema: these keys survive.
_KEPT = ("type", "description", "enum", "properties", "required", "items", "dynamic_variable")


def agent_schema(schema: dict[str, Any], name: str = "value") -> dict[str, Any]:
    """Our JSON schema reduced to ElevenLabs' subset; every property gets a description."""
    out: dict[str, Any] = {k: schema[k] for k in _KEPT if k in schema}
    out.setdefault("type", "object" if "properties" in schema else "string")
    if out["type"] in ("integer", "number", "boolean", "string", "object", "array"):
        out.setdefault("description", schema.get("title") or name.replace("_", " "))
    if "properties" in out:
        out["properties"] = {k: agent_schema(v, k) for k, v in out["properties"].items()}
    if "items" in out and isinstance(out["items"], dict):
        out["items"] = agent_schema(out["items"], name)
    return out


def client_tool(spec: ToolSpec) -> dict[str, Any]:
    return {"type": "client", "name": spec.name, "description": spec.description,
            "parameters": agent_schema(spec.input_schema, spec.name), "expects_response": True,
            "response_timeout_secs": RESPONSE_TIMEOUT_S}


def webhook_tool(spec: ToolSpec, public_url: str, voice_token: str | None) -> dict[str, Any]:
    body = agent_schema(spec.input_schema, spec.name)
    body.setdefault("properties", {})[CALL_REFERENCE] = {
        "type": "string", "description": "the call reference (filled by the platform)", "dynamic_variable": CALL_REFERENCE}
    body["properties"][AGENT_TURN] = {"type": "integer", "description": "the agent's turn (filled by the platform)",
                                      "dynamic_variable": AGENT_TURNS_VARIABLE}
    body["required"] = [*body.get("required", []), CALL_REFERENCE]
    api_schema: dict[str, Any] = {"url": public_url.rstrip("/") + TOOLS_PATH + spec.name, "method": "POST",
                                  "request_body_schema": body}
    if voice_token:
        api_schema["request_headers"] = {"Authorization": f"Bearer {voice_token}"}
    return {"type": "webhook", "name": spec.name, "description": spec.description,
            "response_timeout_secs": RESPONSE_TIMEOUT_S, "api_schema": api_schema}


def voice_tools(catalog: list[ToolSpec], mode: ToolMode, public_url: str, voice_token: str | None) -> list[dict]:
    if mode == "client":
        return [client_tool(t) for t in catalog]
    return [webhook_tool(t, public_url, voice_token) for t in catalog]


# ElevenLabs' built-in `end_call` system tool: the agent can hang up. A spam number's call is told to
# use it at once (gateway/voice/suppression.py); any call may use it once the caller said goodbye.
END_CALL_TOOL: dict[str, Any] = {
    "type": "system", "name": "end_call", "params": {"system_tool_type": "end_call"},
    "description": "End the call: after the caller has said goodbye and needs nothing more, or at once "
                   "when the prompt says this line does not serve the caller.",
}


def agent_update(prompt: str, tools: list[dict[str, Any]], first_message: str = DEFAULT_FIRST_MESSAGE) -> dict:
    """The PATCH /v1/convai/agents/{agent_id} body: prompt, tools and the `end_call` system tool,
    mu-law 8 kHz both ways (what Twilio carries), and the per-call overrides personalization needs
    enabled."""
    return {
        "conversation_config": {
            "agent": {"first_message": first_message, "prompt": {
                "prompt": prompt, "tools": tools, "built_in_tools": {"end_call": END_CALL_TOOL}}},
            "asr": {"user_input_audio_format": ULAW_8000},
            "tts": {"agent_output_audio_format": ULAW_8000},
        },
        "platform_settings": {"overrides": {"conversation_config_override": {
            "agent": {"prompt": {"prompt": True}, "first_message": True}}}},
    }
