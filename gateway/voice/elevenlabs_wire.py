"""ElevenLabs Agents on the wire: the conversation websocket's events both ways, and the
webhooks (conversation initiation, server tools, post-call). Field names are ElevenLabs' own;
nothing here knows who is calling.

https://elevenlabs.io/docs/agents-platform/api-reference (websocket events, conversation-initiation
webhook, post-call webhooks).
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from gateway.voice.frames import Lenient, parse_frame

# ElevenLabs accepts only scalars as dynamic variable values.
DynamicValue = str | int | float | bool
ULAW_8000 = "ulaw_8000"


# -- client -> server ---------------------------------------------------------------------------
class PromptOverride(BaseModel):
    prompt: str


class AgentOverride(BaseModel):
    prompt: PromptOverride
    first_message: str
    language: str | None = None


class ConversationConfigOverride(BaseModel):
    agent: AgentOverride


class ConversationInitiationClientData(BaseModel):
    """Sent first on the Agents websocket, and the body of the personalization webhook's answer."""

    type: Literal["conversation_initiation_client_data"] = "conversation_initiation_client_data"
    dynamic_variables: dict[str, DynamicValue]
    conversation_config_override: ConversationConfigOverride


class UserAudioChunk(BaseModel):
    user_audio_chunk: str  # base64 of the configured user_input_audio_format


class Pong(BaseModel):
    type: Literal["pong"] = "pong"
    event_id: int


class ClientToolResult(BaseModel):
    type: Literal["client_tool_result"] = "client_tool_result"
    tool_call_id: str
    result: str
    is_error: bool = False


class ContextualUpdate(BaseModel):
    type: Literal["contextual_update"] = "contextual_update"
    text: str


# -- server -> client ---------------------------------------------------------------------------
class InitiationMetadataEvent(Lenient):
    conversation_id: str = ""
    agent_output_audio_format: str = ""
    user_input_audio_format: str = ""


class ConversationInitiationMetadata(Lenient):
    type: Literal["conversation_initiation_metadata"]
    conversation_initiation_metadata_event: InitiationMetadataEvent


class AudioEvent(Lenient):
    audio_base_64: str
    event_id: int = 0


class AgentAudio(Lenient):
    type: Literal["audio"]
    audio_event: AudioEvent


class InterruptionEvent(Lenient):
    event_id: int = 0


class Interruption(Lenient):
    type: Literal["interruption"]
    interruption_event: InterruptionEvent = Field(default_factory=InterruptionEvent)


class PingEvent(Lenient):
    event_id: int
    ping_ms: int | None = None


class Ping(Lenient):
    type: Literal["ping"]
    ping_event: PingEvent


class ClientToolCallEvent(Lenient):
    tool_name: str
    tool_call_id: str
    parameters: dict[str, Any] = Field(default_factory=dict)


class ClientToolCall(Lenient):
    type: Literal["client_tool_call"]
    client_tool_call: ClientToolCallEvent


class AgentResponseEvent(Lenient):
    agent_response: str


class AgentResponse(Lenient):
    type: Literal["agent_response"]
    agent_response_event: AgentResponseEvent


class AgentResponseCorrectionEvent(Lenient):
    original_agent_response: str
    corrected_agent_response: str


class AgentResponseCorrection(Lenient):
    type: Literal["agent_response_correction"]
    agent_response_correction_event: AgentResponseCorrectionEvent


class UserTranscriptionEvent(Lenient):
    user_transcript: str


class UserTranscript(Lenient):
    type: Literal["user_transcript"]
    user_transcription_event: UserTranscriptionEvent


AgentEvent = (ConversationInitiationMetadata | AgentAudio | Interruption | Ping | ClientToolCall | AgentResponse
              | AgentResponseCorrection | UserTranscript)
_AGENT_EVENTS: dict[str, type[BaseModel]] = {
    "conversation_initiation_metadata": ConversationInitiationMetadata, "audio": AgentAudio,
    "interruption": Interruption, "ping": Ping, "client_tool_call": ClientToolCall,
    "agent_response": AgentResponse, "agent_response_correction": AgentResponseCorrection,
    "user_transcript": UserTranscript,
}


def parse_agent_event(raw: str | bytes) -> AgentEvent:
    return parse_frame(raw, "type", _AGENT_EVENTS)  # type: ignore[return-value]  # the table holds only AgentEvent members


# -- webhooks -----------------------------------------------------------------------------------
class PersonalizationRequest(BaseModel):
    """ElevenLabs' conversation-initiation webhook for a Twilio-native inbound call."""

    caller_id: str
    agent_id: str = ""
    called_number: str
    call_sid: str


class TranscriptTurn(Lenient):
    role: str
    message: str | None = None


class PhoneCallMetadata(Lenient):
    call_sid: str | None = None
    external_number: str | None = None
    agent_number: str | None = None


class PostCallMetadata(Lenient):
    phone_call: PhoneCallMetadata | None = None


def _absent(value: Any, empty: Any) -> Any:
    """ElevenLabs' own types mark these fields optional, and it sends them as null (issue 40 item 17):
    null reads as absent, so the call's end is kept instead of a 400."""
    return empty if value is None else value


class InitiationData(Lenient):
    dynamic_variables: dict[str, Any] = Field(default_factory=dict)

    @field_validator("dynamic_variables", mode="before")
    @classmethod
    def _null_variables(cls, value: Any) -> Any:
        return _absent(value, {})


class PostCallAnalysis(Lenient):
    transcript_summary: str | None = None
    call_successful: str | None = None


class PostCallData(Lenient):
    agent_id: str = ""
    conversation_id: str = ""
    status: str = ""
    transcript: list[TranscriptTurn] = Field(default_factory=list)
    analysis: PostCallAnalysis | None = None  # ElevenLabs' own analysis: the console shows its summary
    metadata: PostCallMetadata = Field(default_factory=PostCallMetadata)
    conversation_initiation_client_data: InitiationData = Field(default_factory=InitiationData)

    @field_validator("agent_id", "conversation_id", "status", mode="before")
    @classmethod
    def _null_text(cls, value: Any) -> Any:
        return _absent(value, "")

    @field_validator("transcript", mode="before")
    @classmethod
    def _null_transcript(cls, value: Any) -> Any:
        return _absent(value, [])

    @field_validator("metadata", "conversation_initiation_client_data", mode="before")
    @classmethod
    def _null_object(cls, value: Any) -> Any:
        return _absent(value, {})


class PostCallWebhook(Lenient):
    type: str  # post_call_transcription | post_call_audio | call_initiation_failure
    event_timestamp: int | None = None
    data: PostCallData = Field(default_factory=PostCallData)


class ToolCallKey(BaseModel):
    """What names one server-tool call beside its parameters: ElevenLabs' `tool_call_id` when the
    request carries one, and the agent's turn counter the pushed body carries (`system__agent_turns`)."""

    model_config = ConfigDict(extra="forbid")

    tool_call_id: str | None = Field(None, min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_.:-]+$")
    agent_turn: int | None = Field(None, ge=0, le=10**6)


class ToolWebhookAnswer(BaseModel):
    """What a server tool returns to ElevenLabs (passed to its LLM as the tool result)."""

    result: str
    is_error: bool = False
