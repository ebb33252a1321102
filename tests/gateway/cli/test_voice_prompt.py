"""`gateway voice-prompt`: prints the voice prompt and the voice tool catalog; `--push` PATCHes the
ElevenLabs agent through ELEVENLABS_API_BASE (a local stand-in of the API here)."""
from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from prompts.voice import default_voice_prompt
from tests.support.elevenlabs_server import ApiServer
from tools.catalog import voice_catalog

GATEWAY = str(Path(sys.executable).with_name("gateway"))


async def _gateway(*args: str, **env: str) -> tuple[int, str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("ELEVENLABS_", "GATEWAY_"))}
    proc = await asyncio.create_subprocess_exec(GATEWAY, *args, env={**clean, **env},
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    return proc.returncode, out.decode(), err.decode()


async def test_prints_the_prompt_and_the_voice_catalog():
    code, out, _ = await _gateway("voice-prompt", GATEWAY_VOICE_TOKEN="t")
    assert code == 0
    assert default_voice_prompt() in out
    for tool in voice_catalog():
        assert f"- {tool.name}: " in out


async def test_push_updates_the_agent():
    async with ApiServer(api_key="xi-key") as api:
        code, _, err = await _gateway("voice-prompt", "--push", ELEVENLABS_API_KEY="xi-key", ELEVENLABS_AGENT_ID="agent_7",
                                      ELEVENLABS_API_BASE=api.base_url, GATEWAY_PUBLIC_URL="https://clara.example.test",
                                      GATEWAY_VOICE_TOKEN="tok")
    assert code == 0, err
    body = api.agents["agent_7"]
    agent = body["conversation_config"]["agent"]
    assert agent["prompt"]["prompt"] == default_voice_prompt()
    tools = agent["prompt"]["tools"]
    assert [t["name"] for t in tools] == [t.name for t in voice_catalog()]
    wo = next(t for t in tools if t["name"] == "get_work_order_detail")
    assert wo["type"] == "webhook"
    assert wo["api_schema"]["url"] == "https://clara.example.test/voice/tools/get_work_order_detail"
    assert wo["api_schema"]["request_headers"] == {"Authorization": "Bearer tok"}
    ref = wo["api_schema"]["request_body_schema"]["properties"]["interaction_id"]
    assert ref["dynamic_variable"] == "interaction_id"
    assert body["conversation_config"]["tts"]["agent_output_audio_format"] == "ulaw_8000"
    end_call = agent["prompt"]["built_in_tools"]["end_call"]  # a spam number's call hangs up with it
    assert end_call["type"] == "system" and end_call["params"] == {"system_tool_type": "end_call"}
    assert body["platform_settings"]["overrides"]["conversation_config_override"]["agent"]["prompt"]["prompt"] is True


async def test_push_as_client_tools():
    async with ApiServer(api_key="xi-key") as api:
        code, _, _ = await _gateway("voice-prompt", "--push", "--tools", "client", ELEVENLABS_API_KEY="xi-key",
                                    ELEVENLABS_AGENT_ID="agent_7", ELEVENLABS_API_BASE=api.base_url)
    assert code == 0
    tools = api.agents["agent_7"]["conversation_config"]["agent"]["prompt"]["tools"]
    assert {t["type"] for t in tools} == {"client"} and all(t["expects_response"] for t in tools)


async def test_push_with_a_bad_key_fails_clearly():
    async with ApiServer(api_key="xi-key") as api:
        code, _, err = await _gateway("voice-prompt", "--push", ELEVENLABS_API_KEY="wrong", ELEVENLABS_AGENT_ID="a",
                                      ELEVENLABS_API_BASE=api.base_url)
    assert code == 1 and "401" in err and api.agents == {}


async def test_push_without_credentials_is_refused():
    code, _, err = await _gateway("voice-prompt", "--push")
    assert code == 2 and "ELEVENLABS_API_KEY" in err
