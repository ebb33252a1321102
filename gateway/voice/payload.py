"""The conversation-initiation payload: the same for the personalization webhook (Twilio-native
calls) and the first message on a bridged call's agent websocket."""
from __future__ import annotations

from actors.protocol.session import VoiceCallStart
from gateway.voice.elevenlabs_wire import (
    AgentOverride,
    ConversationConfigOverride,
    ConversationInitiationClientData,
    PromptOverride,
)


def initiation_data(start: VoiceCallStart) -> ConversationInitiationClientData:
    """Built without validating again what `VoiceCallStart` has validated (this runs while the
    phone rings, for every call)."""
    override = AgentOverride.model_construct(prompt=PromptOverride.model_construct(prompt=start.prompt),
                                             first_message=start.first_message)
    return ConversationInitiationClientData.model_construct(
        dynamic_variables=start.dynamic_variables,
        conversation_config_override=ConversationConfigOverride.model_construct(agent=override),
    )
