"""The voice channel: Twilio's voice webhook and Media Streams bridged to an ElevenLabs agent
(Conversational AI) websocket, ElevenLabs' webhooks (personalization, server tools, post-call),
and what a call says when the agent cannot. Each name below is imported on
first use (PEP 562): `gateway voice-prompt` reads the agent's config without the bridge."""
import typing

from spine.lazy_names import lazy_names as _lazy_names

if typing.TYPE_CHECKING:
    from gateway.voice.bridge import CallBridge, SocketClosed
    from gateway.voice.elevenlabs import AgentEndpoint, ElevenLabsApi, ElevenLabsError
    from gateway.voice.services import VoiceServices
    from gateway.voice.signature import SignatureRejected
    from gateway.voice.texts import CallTexts

_HOMES = {
    "AgentEndpoint": "gateway.voice.elevenlabs",
    "CallBridge": "gateway.voice.bridge",
    "CallTexts": "gateway.voice.texts",
    "ElevenLabsApi": "gateway.voice.elevenlabs",
    "ElevenLabsError": "gateway.voice.elevenlabs",
    "SignatureRejected": "gateway.voice.signature",
    "SocketClosed": "gateway.voice.bridge",
    "VoiceServices": "gateway.voice.services",
}

__getattr__ = _lazy_names(__name__, _HOMES)


__all__ = [
    "AgentEndpoint",
    "CallBridge",
    "CallTexts",
    "ElevenLabsApi",
    "ElevenLabsError",
    "SignatureRejected",
    "SocketClosed",
    "VoiceServices",
]
