"""The caller back with Clara after nobody took the transfer (the bridge's side).

The return is its own interaction, `voice-<CallSid>-<transfer_id>` (the call's first interaction
ended when Twilio moved the call; its trace keeps the transfer), opened like any call of that
caller, with Clara told what happened so she says it honestly and takes a message; what the caller
says in it is added to the escalation the failed transfer filed (desk.transfer.failed)."""
from __future__ import annotations

from actors.protocol.session import VoiceCallStart
from desk.transfer.failed import add_message, tried
from spine.intent.language import detect_language
from spine.records import TranscriptEntry
from spine.repo import Spine
from spine.transfer import Transfer

FIRST = {
    "en": "I'm sorry, I couldn't reach anyone from the team just now. I've let them know you called. "
          "What message would you like me to pass on?",
    "es": "Lo siento, no pude comunicarme con nadie del equipo ahora. Ya les avisé de su llamada. "
          "¿Qué mensaje quiere que les deje?",
}


def return_call_sid(call_sid: str, transfer_id: str) -> str:
    return f"{call_sid}-{transfer_id}"


def return_note(transfer: Transfer) -> str:
    """Appended to the voice prompt of the return: what Clara must know and may say."""
    return (f"\n\n[TRANSFER RETURN] The caller asked to speak to a person ({transfer.reason}). Nobody accepted the "
            f"call: tried {tried(transfer)}. Escalation {transfer.escalation_id} was filed for the team. Say so "
            "honestly (never that someone is on the way unless a tool result says so), take the caller's message "
            "and confirm it will be passed on; it is added to that escalation when the call ends.")


def first_message(transfer: Transfer) -> str:
    """In the language the caller asked in (the reason holds their words)."""
    return FIRST.get(detect_language(transfer.reason), FIRST["en"])


async def keep_message(spine: Spine, transfer_id: str, transcript: list[TranscriptEntry]) -> bool:
    """The caller's words after the return, added to the transfer's escalation."""
    said = " ".join(t.text for t in transcript if t.role == "user")
    return await add_message(spine, transfer_id, said)


async def returned_start(spine: Spine, start: VoiceCallStart, transfer_id: str | None) -> VoiceCallStart:
    """The call's start as Clara gets it: unchanged, or for a return, told what happened."""
    transfer = await spine.get_transfer(transfer_id) if transfer_id else None
    if transfer is None:
        return start
    return start.model_copy(update={"prompt": start.prompt + return_note(transfer),
                                    "first_message": first_message(transfer)})
