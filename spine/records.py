"""What an interaction leaves behind: inbound log, outbox, opt-outs, events and the agent trace."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field

from spine.context import Channel
from spine.identity import utcnow
from spine.notification import Notification
from spine.notification import OutboxStatus as OutboxStatus  # the row's status, beside the other outbound words
from spine.toolspec import CallDecision


def last4(address: str | None) -> str | None:
    """Phone numbers leave the spine only as their last four digits (logs, events, traces)."""
    if not address:
        return None
    digits = "".join(ch for ch in address if ch.isdigit())
    return digits[-4:] if digits else None


class InboundStatus(StrEnum):
    """accepted, then answered | blocked | held | failed (gateway.inbound_log is the one writer)."""

    ACCEPTED = "accepted"
    ANSWERED = "answered"
    BLOCKED = "blocked"  # nothing was or may be sent: STOP, an opted-out sender, spam, an unserved number
    HELD = "held"  # a staff member has the conversation: recorded and told to them, Clara sends nothing
    FAILED = "failed"


class InboundMessage(BaseModel):
    """One accepted inbound, keyed by the provider's id (Twilio MessageSid). Written before
    the turn runs, so an accepted message is never lost: it ends answered, blocked or failed."""

    id: str
    channel: Channel
    from_address: str
    to_address: str
    body: str
    media_urls: list[str] = Field(default_factory=list)
    received_at: datetime = Field(default_factory=utcnow)
    interaction_id: str | None = None
    status: InboundStatus = InboundStatus.ACCEPTED
    reply: str | None = None
    failure: str | None = None


class OutboxMessage(BaseModel):
    id: str
    channel: Channel = Channel.SMS
    to_address: str
    from_address: str
    body: str
    # Email: the subject and threading headers (In-Reply-To, References) a reply goes out with,
    # kept so a reply waiting in the outbox can still be sent in its thread.
    subject: str | None = None
    headers: dict[str, str] = Field(default_factory=dict)
    created_at: datetime = Field(default_factory=utcnow)
    status: OutboxStatus = OutboxStatus.PENDING
    provider_id: str | None = None
    error: str | None = None
    # Rows the gateway starts (desk.outbound.queue.queue_outbound), not replies: what they are (a
    # NotificationKind value), for whom, from which property, and when they may leave. A row of
    # channel `voice` is a phone call (a page): placed through Twilio's Calls API, its TwiML
    # served by /voice/oncall/{page_id}. A row of a page is not sent once the page has stopped.
    kind: str | None = None
    recipient_person_id: str | None = None
    property_id: str | None = None
    page_id: str | None = None
    not_before: datetime | None = None  # a PENDING row waits until then (its contact window)

    @property
    def due_at(self) -> datetime:
        """When the row may leave: what the pending index is sorted by, so the sweep reads the due ones first."""
        return self.not_before or self.created_at


def channel_of_address(address: str) -> Channel:
    """The channel a bare wire address belongs to (opt-outs written before they named their
    channel): an email has an @, a Telegram user id is all digits, a phone number starts with +."""
    if "@" in address:
        return Channel.EMAIL
    return Channel.TELEGRAM if address.isdigit() else Channel.SMS


class OptOut(BaseModel):
    """STOP (SMS), unsubscribe (email) or /stop (Telegram): per channel, so a STOP by text does not
    silence email. Without a channel, the address's own (channel_of_address)."""

    address: str
    opted_out: bool
    keyword: str
    channel: Channel | None = None
    at: datetime = Field(default_factory=utcnow)
    # Who recorded it: None the person (STOP, unsubscribe); a PMS's name ("buildium") when it is the
    # consent the office keeps there. A PMS's opt-out stops what the gateway starts, not its
    # replies to what the person writes (they wrote first).
    source: str | None = None

    def model_post_init(self, context: Any) -> None:
        if self.channel is None:
            self.channel = channel_of_address(self.address)


class LastContact(BaseModel):
    """The channel and address a Person last wrote from (SMS, email or Telegram): where what the
    gateway starts for them goes when the request names no channel."""

    person_id: str
    channel: Channel
    address: str
    language: Literal["en", "es"] | None = None  # the language they last wrote in, when it leaned
    at: datetime = Field(default_factory=utcnow)


class EventKind(StrEnum):
    """Every event kind, in events (GET /admin/events?kind=...) and in trace events, once."""

    # the agent turn
    GRACEFUL_DEGRADE = "agent/graceful-degrade"
    CONTEXT_BUILD = "agent/context-build"
    SAFETY = "agent/safety-net"
    MODEL_FAILURE = "agent/model-failure"
    INTENT_PROMOTED = "router/intent-promoted"
    # the router's own notes in RoutingDecision.events ("<kind>:<reason>"; reason: the intent / who)
    ROUTER_MINT = "router_mint"
    WOULD_MINT_PROSPECT = "dry_run:would_mint_prospect"  # a dry run (`gateway explain`) wrote nothing
    PHOTOS_ATTACHED = "gateway/photos-attached"
    # every channel
    SPAM_DROPPED = "gateway/spam-dropped"
    REPLY_HELD = "gateway/reply-held"  # a message a takeover held: no reply from Clara (not spam)
    STORE_DEGRADED = "gateway/store-degraded"
    SENDER_VERIFIED = "gateway/sender-verified"
    SENDER_UNVERIFIED = "gateway/sender-unverified"
    INBOUND_FAILED = "gateway/inbound-failed"
    INBOUND_REPAIRED = "gateway/inbound-repaired"  # its turn ended but the end went unrecorded
    REPLY_DEFERRED = "gateway/reply-deferred"
    OPT_OUT = "gateway/opt-out"
    OPT_IN = "gateway/opt-in"
    OPTED_OUT_INBOUND = "gateway/opted-out-inbound"
    # email
    EMAIL_OPT_OUT = "gateway/email-opt-out"
    EMAIL_OPT_IN = "gateway/email-opt-in"
    # SMS
    UNKNOWN_NUMBER = "gateway/unknown-number"
    UNSUPPORTED_SENDER = "gateway/unsupported-sender"
    # Telegram
    TELEGRAM_LINKED = "gateway/telegram-linked"
    TELEGRAM_LINK_REFUSED = "gateway/telegram-link-refused"
    TELEGRAM_IGNORED = "gateway/telegram-ignored"
    # voice
    CALL_FAILED = "voice/call-failed"
    BRIDGE = "voice/bridge"
    STREAM_REFUSED = "voice/stream-refused"
    # people in the loop (ARCHITECTURE.md "People in the loop")
    ONCALL_PAGED = "oncall/paged"
    ONCALL_ACKNOWLEDGED = "oncall/acknowledged"
    ONCALL_EXHAUSTED = "oncall/exhausted"
    ONCALL_NO_PLAN = "oncall/no-plan"
    ONCALL_VOICEMAIL = "oncall/voicemail"  # a machine answered the paging call: the page left as a voicemail
    TRANSFER_STARTED = "transfer/started"
    TRANSFER_RINGING = "transfer/ringing"  # one target of a transfer rung (each ring is an event)
    TRANSFER_CONNECTED = "transfer/connected"
    TRANSFER_FAILED = "transfer/failed"
    NOTIFY_SENT = "notify/sent"
    NOTIFY_DEFERRED = "notify/deferred"
    NOTIFY_BLOCKED = "notify/blocked"
    DISPATCH_SENT = "dispatch/sent"
    DISPATCH_ACCEPTED = "dispatch/accepted"
    DISPATCH_DECLINED = "dispatch/declined"
    TAKEOVER_STARTED = "takeover/started"
    TAKEOVER_HELD = "takeover/held"
    TAKEOVER_ENDED = "takeover/ended"
    STAFF_MESSAGE = "takeover/staff-message"
    ESCALATION_ACKNOWLEDGED = "escalation/acknowledged"
    ESCALATION_RESOLVED = "escalation/resolved"
    # follow-ups (desk.followups)
    FOLLOWUP_SENT = "followup/sent"
    FOLLOWUP_STOPPED = "followup/stopped"
    WORK_ORDER_REOPENED = "work_order/reopened"
    TENANT_RATING = "tenant/rating"
    PMS_SYNCED = "pms/synced"  # a sync, a webhook's change or a PMS status change applied
    PMS_WRITTEN = "pms/written"  # a work order written back to the PMS
    PMS_FAILED = "pms/failed"  # a sync, webhook or write-back that failed
    WORK_ORDER_CHANGED = "work_order/changed"  # staff changed it in the console (who, which fields)
    WORK_ORDER_BATCHED = "work_order/batched"  # new routine work orders listed to the property's team
    TOUR_STATUS = "tour/status"  # staff set a tour's status (completed, no_show, cancelled)


class Event(BaseModel):
    """A structured observability event; counted by the admin status cards."""

    id: str
    kind: str
    reason: str
    channel: Channel | None = None
    phone_last4: str | None = None
    property_id: str | None = None
    interaction_id: str | None = None
    at: datetime = Field(default_factory=utcnow)
    detail: dict[str, Any] = Field(default_factory=dict)


class OtherClassification(BaseModel):
    description: str
    spine_category: str | None = None


class InferredIntent(BaseModel):
    kind: Literal["tour", "pricing", "availability", "general"]


# How the router knows who is talking: from the store (fact) or from the message (inferred).
Confidence = Literal["fact", "inferred"]


class TraceRouting(BaseModel):
    roles: list[str] = Field(default_factory=list)
    confidence: Confidence = "fact"
    other_classification: OtherClassification | None = None
    inferred_intent: InferredIntent | None = None


class PromptSection(BaseModel):
    layer: Literal["L0", "L2", "L3", "context", "L1"]
    name: str
    token_estimate: int


class TracePrompt(BaseModel):
    sections: list[PromptSection] = Field(default_factory=list)
    breakpoint_index: int | None = None


class TraceToolCall(BaseModel):
    tool_use_id: str
    name: str
    input: dict[str, Any] = Field(default_factory=dict)
    decision: CallDecision
    reason: str = ""
    prefetched: bool = False
    latency_ms: float = 0.0
    is_error: bool = False


class TracePrefetch(BaseModel):
    name: str
    input: dict[str, Any] = Field(default_factory=dict)
    status: Literal["hit", "unused", "refused", "failed"]


class Usage(BaseModel):
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_input_tokens: int = 0
    cache_creation_input_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cache_read_input_tokens=self.cache_read_input_tokens + other.cache_read_input_tokens,
            cache_creation_input_tokens=self.cache_creation_input_tokens + other.cache_creation_input_tokens,
        )


class TraceLatency(BaseModel):
    total: float = 0.0
    model: float = 0.0
    tools: float = 0.0


class TraceEvent(BaseModel):
    kind: str
    reason: str


class TranscriptEntry(BaseModel):
    """One thing said in an interaction, on any channel: by the caller (`user`) or Clara (`agent`)."""

    role: Literal["user", "agent"]
    text: str

    @classmethod
    def from_messages(cls, messages: Iterable[Mapping[str, Any]]) -> list[TranscriptEntry]:
        """From model-history messages ({role: user | assistant, content: text}), the form in which
        the PersonActor keeps its warm history; messages with no text are left out."""
        return [cls(role="user" if m.get("role") == "user" else "agent", text=m["content"])
                for m in messages if isinstance(m.get("content"), str) and m["content"].strip()]


class AgentTrace(BaseModel):
    """The one record of an interaction that operators and tests read (ARCHITECTURE.md)."""

    interaction_id: str
    channel: Channel
    origin: Literal["inbound", "admin"] = "inbound"
    # "keyword": an SMS keyword (ACK <code>, YES / NO to a dispatch) the gateway answered without
    # an agent turn; its trace has the reply, the events and what it queued, no prompt or model.
    answered_by: Literal["agent", "keyword"] = "agent"
    impersonated_by: str | None = None
    participant_id: str | None = None
    property_id: str | None = None
    wire_address_last4: str | None = None
    routing: TraceRouting = Field(default_factory=TraceRouting)
    prompt: TracePrompt = Field(default_factory=TracePrompt)
    tools_offered: list[str] = Field(default_factory=list)
    tool_calls: list[TraceToolCall] = Field(default_factory=list)
    prefetch: list[TracePrefetch] = Field(default_factory=list)
    inbound: str = ""
    reply: str = ""
    model: str = ""
    usage: Usage = Field(default_factory=Usage)
    cost_usd: float = 0.0
    latency_ms: TraceLatency = Field(default_factory=TraceLatency)
    events: list[TraceEvent] = Field(default_factory=list)
    transcript: list[TranscriptEntry] | None = None
    # Store reads the turn made, by record kind (person, roles, context, ...), its tool calls'
    # reads in the DispatcherActor included (spine.store.counting).
    store_reads: dict[str, int] = Field(default_factory=dict)
    # Calls from the turn (its PersonActor's preparation included) to the DispatcherActor:
    # at most 1 + N for N tool calls (bench/sms.py prints it).
    dispatcher_round_trips: int = 0
    # What the turn's tools queued for other people (pages, notifications, dispatches) and how it
    # stood: queued, sent, deferred to the contact window or blocked (ARCHITECTURE.md).
    notifications: list[Notification] = Field(default_factory=list)
    started_at: datetime = Field(default_factory=utcnow)
