"""The outbox sender: what the paging scheduler calls every tick to send the rows that are due.

Rows queued by `desk.outbound.queue.queue_outbound` (pages, notifications, dispatches) leave here, on
their channel: a text through Twilio's Messages API, a call through its Calls API (Twilio then
fetches /voice/oncall/{page_id}), an email through Mailgun, a Telegram message through sendMessage.
A reply row still pending after `REPLY_GRACE_S` (its replica died mid-send) is swept here too. Each
row is claimed before it is sent (gateway.outbox_delivery.send_claimed), so nothing leaves twice
whoever sends it. A text or call claimed `INTERRUPTED_AFTER_S` ago and never written back (its
sender died mid-send) is looked up in Twilio's Messages or Calls list (gateway.twilio.history):
found, its sid is recorded (it was sent, once); not found, it is sent now, once (a second claim).
A row whose `not_before` is in the future waits; a row of a page that has been acknowledged is
not sent; a channel without credentials keeps its rows pending.

The scheduler (actors.control.scheduler) knows none of this: the gateway hands it an `OutboxSenderFactory`.
"""
from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from urllib.parse import quote

import httpx
from pydantic import BaseModel

import spine.keys as keys
from desk.outbound.may_send import may_still_send
from desk.outbound.unsubscribe import unsubscribe_headers
from gateway.email.channel import mailgun_messages
from gateway.errors import ProviderError
from gateway.outbox_delivery import send_owned
from gateway.settings import Settings
from gateway.telegram.channel import bot_api
from gateway.telegram.delivery import REPLY_MARKUP
from gateway.twilio.client import status_callback_url, twilio_clients
from gateway.twilio.texts import send_text
from spine.context import Channel
from spine.oncall import PageStatus
from spine.records import OutboxMessage, OutboxStatus
from spine.repo import Spine

log = logging.getLogger("clara.outbox")
REPLY_GRACE_S = 30.0  # a reply's own replica sends it at once; one still pending this long was orphaned
INTERRUPTED_AFTER_S = 60.0  # claimed but never written back: the sender died mid-send
TWILIO_CHANNELS = frozenset({Channel.SMS, Channel.VOICE})  # whose sends Twilio's lists can confirm
BATCH = 200
Send = Callable[[OutboxMessage], Awaitable[str]]


def oncall_call_url(public_url: str, page_id: str, person_id: str | None) -> str:
    """Where Twilio fetches a paging call's TwiML (the route checks Twilio's signature over it)."""
    query = f"?person_id={quote(person_id)}" if person_id else ""
    return f"{public_url.rstrip('/')}/voice/oncall/{quote(page_id)}{query}"


class OutboxSenderFactory(BaseModel):
    """What the gateway hands the scheduler actor (pickled across to its process)."""

    settings: Settings

    def open(self, spine: Spine) -> OutboxSender:
        return OutboxSender(spine, self.settings)


class OutboxSender:
    def __init__(self, spine: Spine, settings: Settings, http: httpx.AsyncClient | None = None) -> None:
        self.spine, self.settings = spine, settings
        self.http = http or httpx.AsyncClient(timeout=httpx.Timeout(10.0, connect=5.0))
        self.senders: dict[Channel, Send] = {}
        if (twilio := twilio_clients(settings, self.http)) is not None:
            self.twilio = twilio
            self.senders[Channel.SMS], self.senders[Channel.VOICE] = self._text, self._call
        if (mailgun := mailgun_messages(settings, self.http)) is not None:
            self.mailgun = mailgun
            self.senders[Channel.EMAIL] = self._email
        if (telegram := bot_api(settings, self.http)) is not None:
            self.telegram = telegram
            self.senders[Channel.TELEGRAM] = self._telegram

    async def send_due(self, now: datetime | None = None) -> list[OutboxMessage]:
        """Send every row that is due now; the rows as they ended (sent, failed, blocked)."""
        now = now or self.spine.clock()
        rows = await self.spine.outbox(OutboxStatus.PENDING, limit=BATCH)
        due = [r for r in rows if r.due_at <= now and r.channel in self.senders
               and (r.kind is not None or r.created_at <= now - timedelta(seconds=REPLY_GRACE_S))]
        done = await asyncio.gather(*(self.send(r, now) for r in due))
        return [r for r in done if r.status != OutboxStatus.PENDING]

    async def send_queued(self, ids: list[str], now: datetime | None = None) -> list[OutboxMessage]:
        """Send these rows now if they are pending and due (a turn's, a ladder step's), not at the
        next sweep; the rows as they ended. A row sent elsewhere first is left as it is."""
        now = now or self.spine.clock()
        rows = [r for r in [await self.spine.get_outbox(i) for i in ids] if r is not None]
        due = [r for r in rows if r.status == OutboxStatus.PENDING and r.due_at <= now and r.channel in self.senders]
        done = await asyncio.gather(*(self.send(r, now) for r in due))
        return [r for r in done if r.status != OutboxStatus.PENDING]

    async def send(self, row: OutboxMessage, now: datetime | None = None) -> OutboxMessage:
        """Claim the row, then send it, or block it if it may no longer go. Only the claimant
        decides: a sender that read the row a moment ago never overwrites what another sent."""
        now = now or self.spine.clock()
        send = self.senders.get(row.channel)
        if send is None:
            return row  # no credentials for its channel: it waits
        marker = keys.outbox_send_marker(row.id)
        if not await self.spine.mark_once(marker):
            return await self._claimed_elsewhere(row, marker, now)
        current = await self.spine.get_outbox(row.id)  # the row as it is now that it is ours
        if current is None or current.status != OutboxStatus.PENDING:
            return current or row
        return await self._send_checked(current, send)

    async def _send_checked(self, current: OutboxMessage, send: Send) -> OutboxMessage:
        """Send a row this sender claimed, unless it may no longer go."""
        if current.page_id and (page := await self.spine.get_page(current.page_id)) \
                and page.status == PageStatus.ACKNOWLEDGED:
            return await self._end(current, OutboxStatus.BLOCKED, "the page was acknowledged before this left")
        if (refused := await may_still_send(self.spine, current)) is not None:  # e.g. a STOP since it was queued
            return await self._end(current, OutboxStatus.BLOCKED, refused)
        return await send_owned(self.spine, current, send, ProviderError)

    async def _claimed_elsewhere(self, row: OutboxMessage, marker: str, now: datetime) -> OutboxMessage:
        """Being sent by whoever claimed it, or, claimed long ago and still pending, interrupted."""
        claim = await self.spine.store.get(keys.once(marker))
        claimed_at = datetime.fromisoformat(claim.data["at"]) if claim else now
        current = await self.spine.get_outbox(row.id)
        if current is None or current.status != OutboxStatus.PENDING \
                or claimed_at > now - timedelta(seconds=INTERRUPTED_AFTER_S):
            return current or row
        if current.channel in TWILIO_CHANNELS and current.kind is not None:
            return await self._recover(current, claimed_at, now)
        return await self._end(current, OutboxStatus.FAILED, "its send was interrupted; not sent again "
                                                             "(it may have reached the person)")

    async def _recover(self, row: OutboxMessage, claimed_at: datetime, now: datetime) -> OutboxMessage:
        """An interrupted text or call: Twilio got it (its sid is recorded: sent once), or it is sent
        now by whoever claims the resend; a resend interrupted in turn is given up (failed)."""
        try:
            sid = await self._delivered(row, claimed_at)
        except ProviderError as exc:  # Twilio's list unreadable: the row waits for the next tick
            log.warning("outbox %s: interrupted send not looked up: %s", row.id, exc)
            return row
        if sid is not None:
            sent = row.model_copy(update={"status": OutboxStatus.SENT, "provider_id": sid,
                                          "error": "its send was interrupted; Twilio had it (recorded from its list)"})
            await self.spine.put_outbox(sent)
            return sent
        marker = keys.outbox_resend_marker(row.id)
        if await self.spine.mark_once(marker):
            return await self._send_checked(row, self.senders[row.channel])
        resend = await self.spine.store.get(keys.once(marker))
        if resend and datetime.fromisoformat(resend.data["at"]) <= now - timedelta(seconds=INTERRUPTED_AFTER_S):
            return await self._end(row, OutboxStatus.FAILED, "its send and its resend were interrupted; Twilio "
                                                             "has neither")
        return row

    async def _delivered(self, row: OutboxMessage, since: datetime) -> str | None:
        """The sid of the message or call Twilio created for this row since it was claimed, if any
        (one another row already holds is another send)."""
        if row.channel == Channel.SMS:
            sids = await self.twilio.history.message_sent(to=row.to_address, from_=row.from_address, body=row.body,
                                                   since=since)
        else:
            sids = await self.twilio.history.calls_placed(to=row.to_address, from_=row.from_address, since=since)
        for sid in sids:
            holder = await self.spine.outbox_by_provider_id(sid)
            if holder is None or holder.id == row.id:
                return sid
        return None

    async def _end(self, row: OutboxMessage, status: OutboxStatus, error: str) -> OutboxMessage:
        ended = row.model_copy(update={"status": status, "error": error})
        await self.spine.put_outbox(ended)
        return ended

    async def _text(self, row: OutboxMessage) -> str:
        return await send_text(self.spine, self.twilio.messages, row, status_callback=status_callback_url(self.settings))

    async def _call(self, row: OutboxMessage) -> str:
        if not row.page_id:
            raise ProviderError(f"outbox row {row.id} is a call with no page to read")
        url = oncall_call_url(self.settings.public_url, row.page_id, row.recipient_person_id)
        sid = await self.twilio.calls.create(to=row.to_address, from_=row.from_address, url=url, machine_detection=True)
        await self.spine.link_outbox_provider_id(sid, row.id)  # an interrupted call's lookup knows it is this row's
        return sid

    async def _email(self, row: OutboxMessage) -> str:
        headers, text = dict(row.headers), row.body
        if row.kind is not None:  # a started email (not a reply): one-click unsubscribe, RFC 8058
            headers.update(await unsubscribe_headers(self.spine, self.settings.public_url, row.to_address,
                                                     row.from_address))
            text += "\n\nTo stop these emails: " + headers["List-Unsubscribe"].split(">")[0].lstrip("<")
        return await self.mailgun.send(from_=row.from_address, to=row.to_address, subject=row.subject or "",
                                       text=text, headers=headers)

    async def _telegram(self, row: OutboxMessage) -> str:
        markup = row.headers.get(REPLY_MARKUP)  # a swept reply keeps its keyboard
        return await self.telegram.send_message(row.to_address, row.body, json.loads(markup) if markup else None)

    async def aclose(self) -> None:
        await self.http.aclose()
