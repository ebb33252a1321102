"""`gateway voice-prompt [--tools webhook|client] [--json] [--push]`: the single voice system
prompt (L0 + every voice-applicable L2 feature's hint) and the voice tool catalog projection,
printed for review; `--push` updates the ElevenLabs agent (ELEVENLABS_API_KEY, ELEVENLABS_AGENT_ID,
through ELEVENLABS_API_BASE)."""
from __future__ import annotations

import json
import sys

from gateway.settings import Settings
from gateway.voice.agent_config import agent_update, voice_tools
from gateway.voice.elevenlabs import ElevenLabsApi, ElevenLabsError
from prompts.voice import default_voice_prompt
from spine.context import estimate_tokens
from tools.catalog import voice_catalog


def register(sub) -> None:
    p = sub.add_parser("voice-prompt", help="print (or --push to ElevenLabs) the voice prompt and voice tools")
    p.add_argument("--tools", choices=["webhook", "client"], default="webhook",
                   help="webhook: ElevenLabs calls /voice/tools/{name} (works for every call); "
                        "client: the bridge runs them (bridged calls only)")
    p.add_argument("--json", action="store_true", help="print the agent update body as JSON")
    p.add_argument("--push", action="store_true", help="PATCH the ElevenLabs agent with it")
    p.set_defaults(func=run)


def _print_review(prompt: str, tools: list[dict], mode: str) -> None:
    print(f"=== voice system prompt ({len(prompt)} chars, ~{estimate_tokens(prompt)} tokens) ===")
    print(prompt)
    print(f"\n=== voice tool catalog ({len(tools)} tools, {mode}) ===")
    for tool in tools:
        target = tool.get("api_schema", {}).get("url", "bridge client tool")
        print(f"- {tool['name']}: {tool['description']}  [{target}]")


async def run(args) -> int:
    settings = Settings.from_env()
    prompt = default_voice_prompt()
    if args.tools == "webhook" and not settings.voice_token:
        print("warning: GATEWAY_VOICE_TOKEN is not set; /voice/tools/* will refuse ElevenLabs' calls",
              file=sys.stderr)
    tools = voice_tools(voice_catalog(), args.tools, settings.public_url, settings.voice_token)
    body = agent_update(prompt, tools)
    if args.json:
        print(json.dumps(body, indent=2))
    else:
        _print_review(prompt, tools, args.tools)
    if not args.push:
        return 0
    if not (settings.elevenlabs_api_key and settings.elevenlabs_agent_id):
        print("error: --push needs ELEVENLABS_API_KEY and ELEVENLABS_AGENT_ID", file=sys.stderr)
        return 2
    api = ElevenLabsApi(settings.elevenlabs_api_base, settings.elevenlabs_api_key)
    try:
        await api.update_agent(settings.elevenlabs_agent_id, body)
    except ElevenLabsError as exc:
        print(f"error: push failed: {exc}", file=sys.stderr)
        return 1
    print(f"\npushed prompt and {len(tools)} tools to agent {settings.elevenlabs_agent_id} "
          f"at {settings.elevenlabs_api_base}", file=sys.stderr)
    return 0
