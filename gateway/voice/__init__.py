"""The voice channel: Twilio's voice webhook and Media Streams bridged to an ElevenLabs agent
(Conversational AI) websocket, ElevenLabs' webhooks (personalization, server tools, post-call),
and what a call says when the agent cannot."""
from gateway.voice.bridge import CallBridge, SocketClosed
from gateway.voice.elevenlabs import AgentEndpoint, ElevenLabsApi, ElevenLabsError
from gateway.voice.services import VoiceServices
from gateway.voice.signature import SignatureRejected
from gateway.voice.texts import CallTexts

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
