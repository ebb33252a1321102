"""Clara's introduction as the demo's first messages end with it (desk.outbound.introduction):
a person's first message from Clara, started or a reply, says she is an AI assistant."""
from __future__ import annotations

YALE_EN = " (Clara, the AI assistant at JP Yale Station)"
YALE_ES = " (Clara, la asistente de IA de JP Yale Station)"
