"""Wire formats of the voice channel: the ElevenLabs Agents websocket and webhooks, and Twilio
Media Streams. Field names are the providers' own; nothing here knows who is calling.

ElevenLabs: https://elevenlabs.io/docs/agents-platform/api-reference (websocket events,
conversation-initiation webhook, post-call webhooks). Twilio:
https://www.twilio.com/docs/voice/media-streams/websocket-messages.
"""
from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

# ElevenLabs accepts only scalars as dynamic variable values.
DynamicValue = str | int | float | bool
ULAW_8000 = "ulaw_8000"


class _Lenient(BaseModel):
    """Providers add fields over time; unknown ones are kept, never rejected."""

    model_config = ConfigDict(extra="allow")


# -- ElevenLabs: client -> server ---------------------------------------------------------------
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


# -- ElevenLabs: server -> client ---------------------------------------------------------------
class InitiationMetadataEvent(_Lenient):
    conversation_id: str = ""
    agent_output_audio_format: str = ""
    user_input_audio_format: str = ""


class ConversationInitiationMetadata(_Lenient):
    type: Literal["conversation_initiation_metadata"]
    conversation_initiation_metadata_event: InitiationMetadataEvent


class AudioEvent(_Lenient):
    audio_base_64: str
    event_id: int = 0


class AgentAudio(_Lenient):
    type: Literal["audio"]
    audio_event: AudioEvent


class InterruptionEvent(_Lenient):
    event_id: int = 0


class Interruption(_Lenient):
    type: Literal["interruption"]
    interruption_event: InterruptionEvent = Field(default_factory=InterruptionEvent)


class PingEvent(_Lenient):
    event_id: int
    ping_ms: int | None = None


class Ping(_Lenient):
    type: Literal["ping"]
    ping_event: PingEvent


class ClientToolCallEvent(_Lenient):
    tool_name: str
    tool_call_id: str
    parameters: dict[str, Any] = Field(default_factory=dict)


class ClientToolCall(_Lenient):
    type: Literal["client_tool_call"]
    client_tool_call: ClientToolCallEvent


class AgentResponseEvent(_Lenient):
    agent_response: str


class AgentResponse(_Lenient):
    type: Literal["agent_response"]
    agent_response_event: AgentResponseEvent


class AgentResponseCorrectionEvent(_Lenient):
    original_agent_response: str
    corrected_agent_response: str


class AgentResponseCorrection(_Lenient):
    type: Literal["agent_response_correction"]
    agent_response_correction_event: AgentResponseCorrectionEvent


class UserTranscriptionEvent(_Lenient):
    user_transcript: str


class UserTranscript(_Lenient):
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


# -- Twilio Media Streams: Twilio -> us ---------------------------------------------------------
class MediaFormat(_Lenient):
    encoding: str = "audio/x-mulaw"
    sampleRate: int = 8000
    channels: int = 1


class StartBody(_Lenient):
    streamSid: str = ""
    callSid: str
    accountSid: str = ""
    tracks: list[str] = Field(default_factory=lambda: ["inbound"])
    customParameters: dict[str, str] = Field(default_factory=dict)
    mediaFormat: MediaFormat = Field(default_factory=MediaFormat)


class TwilioConnected(_Lenient):
    event: Literal["connected"]
    protocol: str = "Call"
    version: str = "1.0.0"


class TwilioStart(_Lenient):
    event: Literal["start"]
    streamSid: str = ""
    start: StartBody

    @property
    def stream_sid(self) -> str:
        return self.streamSid or self.start.streamSid


class MediaBody(_Lenient):
    payload: str
    track: str = "inbound"
    chunk: str | int | None = None
    timestamp: str | int | None = None


class TwilioMedia(_Lenient):
    event: Literal["media"]
    streamSid: str = ""
    media: MediaBody


class MarkBody(BaseModel):
    name: str


class TwilioMark(_Lenient):
    event: Literal["mark"]
    streamSid: str = ""
    mark: MarkBody


class TwilioStop(_Lenient):
    event: Literal["stop"]
    streamSid: str = ""


class TwilioDtmf(_Lenient):
    event: Literal["dtmf"]
    streamSid: str = ""


TwilioEvent = TwilioConnected | TwilioStart | TwilioMedia | TwilioMark | TwilioStop | TwilioDtmf
_TWILIO_EVENTS: dict[str, type[BaseModel]] = {
    "connected": TwilioConnected, "start": TwilioStart, "media": TwilioMedia, "mark": TwilioMark,
    "stop": TwilioStop, "dtmf": TwilioDtmf,
}


# -- Twilio Media Streams: us -> Twilio ---------------------------------------------------------
class OutboundMediaBody(BaseModel):
    payload: str


class TwilioMediaOut(BaseModel):
    event: Literal["media"] = "media"
    streamSid: str
    media: OutboundMediaBody


class TwilioMarkOut(BaseModel):
    event: Literal["mark"] = "mark"
    streamSid: str
    mark: MarkBody


class TwilioClear(BaseModel):
    event: Literal["clear"] = "clear"
    streamSid: str


# -- parsing ------------------------------------------------------------------------------------
class UnknownMessage(Exception):
    """A frame that is not JSON, or of a type we do not handle (callers log and go on)."""


def _parse(raw: str | bytes, key: str, table: dict[str, type[BaseModel]]) -> BaseModel:
    try:
        data = json.loads(raw)
    except (TypeError, ValueError) as exc:
        raise UnknownMessage(f"not JSON: {str(raw)[:60]!r}") from exc
    model = table.get(data.get(key)) if isinstance(data, dict) else None
    if model is None:
        raise UnknownMessage(f"unhandled {key} {data.get(key) if isinstance(data, dict) else None!r}")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise UnknownMessage(f"malformed {data.get(key)!r}: {exc.errors()[0]['msg']}") from exc


def parse_agent_event(raw: str | bytes) -> AgentEvent:
    return _parse(raw, "type", _AGENT_EVENTS)  # type: ignore[return-value]


def parse_twilio_event(raw: str | bytes) -> TwilioEvent:
    return _parse(raw, "event", _TWILIO_EVENTS)  # type: ignore[return-value]


# -- webhooks -----------------------------------------------------------------------------------
class PersonalizationRequest(BaseModel):
    """ElevenLabs' conversation-initiation webhook for a Twilio-native inbound call."""

    caller_id: str
    agent_id: str = ""
    called_number: str
    call_sid: str


class TranscriptTurn(_Lenient):
    role: str
    message: str | None = None


class PhoneCallMetadata(_Lenient):
    call_sid: str | None = None
    external_number: str | None = None
    agent_number: str | None = None


class PostCallMetadata(_Lenient):
    phone_call: PhoneCallMetadata | None = None


class InitiationData(_Lenient):
    dynamic_variables: dict[str, Any] = Field(default_factory=dict)


class PostCallData(_Lenient):
    agent_id: str = ""
    conversation_id: str = ""
    status: str = ""
    transcript: list[TranscriptTurn] = Field(default_factory=list)
    metadata: PostCallMetadata = Field(default_factory=PostCallMetadata)
    conversation_initiation_client_data: InitiationData = Field(default_factory=InitiationData)


class PostCallWebhook(_Lenient):
    type: str  # post_call_transcription | post_call_audio | call_initiation_failure
    event_timestamp: int | None = None
    data: PostCallData = Field(default_factory=PostCallData)


class ToolWebhookAnswer(BaseModel):
    """What a server tool returns to ElevenLabs (passed to its LLM as the tool result)."""

    result: str
    is_error: bool = False
