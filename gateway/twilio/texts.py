"""The one way an outbox row's text reaches Twilio: the Messages API, then the sid linked to the
row, so a status callback and an interrupted send's lookup find it. Replies (gateway.sms.delivery),
the outbox sender and the step-up's code (gateway.voice.texts) all send through here."""
from __future__ import annotations

from gateway.twilio.rest import TwilioRest
from spine.records import OutboxMessage
from spine.repo import Spine


async def send_text(spine: Spine, rest: TwilioRest, row: OutboxMessage, *, body: str | None = None,
                    status_callback: str | None = None) -> str:
    """Text `row` (its `body`, unless given: a step-up code's row keeps its words masked); the sid."""
    sent = await rest.send(to=row.to_address, from_=row.from_address, body=row.body if body is None else body,
                           status_callback=status_callback)
    await spine.link_outbox_provider_id(sent.sid, row.id)
    return sent.sid
