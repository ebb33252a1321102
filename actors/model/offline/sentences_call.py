"""The offline model's sentence for a transfer's result (transfer_to_staff, on a call): "connecting"
only when the result says Twilio took the redirect, and otherwise what the caller can do."""
from __future__ import annotations

from typing import Any

from actors.model.offline.entities import Entities
from actors.model.offline.reading import ToolCall
from actors.model.offline.sentences_work import pick
from spine.intent.language import Language


def transferred(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    if out.status == "connecting":
        first = out.targets[0] if out.targets else ""
        office = first == "the office"
        return pick(lang, f"I'm connecting you now with {'the office' if office else 'the on-call team'}; "
                          "please hold.",
                    f"Le comunico ahora con {'la oficina' if office else 'el equipo de guardia'}; no cuelgue.")
    return pick(lang, "I couldn't put you through to a person just now. I can take a message for the team.",
                "No pude comunicarle con una persona ahora. Puedo tomarle un mensaje para el equipo.")


CALL_WRITERS = {"transfer_to_staff": transferred}
