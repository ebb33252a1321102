"""What an interaction leaves behind: the inbound log, outbox, opt-outs, events, traces,
once-markers, and the keys naming a reply's outbox rows."""
from __future__ import annotations

# -- interaction records: inbound log, outbox, opt-outs, events, traces, once-markers ------
TRACES = "TRACES"  # index of every trace, newest last


def inbound(message_id: str) -> str:
    return f"INBOUND#{message_id}"


def inbound_status(status: str) -> str:
    return f"INBOUND#{status}"


def outbox(outbox_id: str) -> str:
    return f"OUTBOX#{outbox_id}"


def outbox_position(due_at: str, outbox_id: str) -> str:
    """The sort key in the outbox status index: the rows due first come first."""
    return f"{due_at}#{outbox_id}"


def outbox_status(status: str) -> str:
    return f"OUTBOX#{status}"


def outbox_provider_id(provider_id: str) -> str:
    """A provider's message id (Twilio SM...) -> the outbox record it delivered."""
    return f"OUTBOXSID#{provider_id}"


def opt_out(channel: str, address: str) -> str:
    """An opt-out on one channel (STOP by SMS does not silence email)."""
    return f"OPTOUT#{channel}#{address}"


def legacy_opt_out(address: str) -> str:
    """Where opt-outs were kept before they named their channel: still read, never written, so a
    STOP recorded then still holds."""
    return f"OPTOUT#{address}"


def event(event_id: str) -> str:
    return f"EVENT#{event_id}"


def events_of_kind(kind: str) -> str:
    return f"EVENTS#{kind}"


def event_position(at: str, event_id: str) -> str:
    return f"{at}#{event_id}"


def trace_position(started_at: str, interaction_id: str) -> str:
    return f"{started_at}#{interaction_id}"


def trace(interaction_id: str) -> str:
    return f"TRACE#{interaction_id}"


def once(marker: str) -> str:
    """The create-if-absent item behind Spine.mark_once(marker)."""
    return f"ONCE#{marker}"


# The markers themselves (what is done once, and for which id):
def refresh_marker(person_id: str, interaction_id: str) -> str:
    """personContext refreshed for this interaction."""
    return f"refresh#{person_id}#{interaction_id}"


def introduced_marker(person_id: str) -> str:
    """Clara has said she is an AI assistant to this person (the first message she authored to
    them, started or a reply, whichever came first: desk.outbound.purpose)."""
    return f"clara-introduced#{person_id}"


def voice_end_marker(interaction_id: str) -> str:
    """A call's end handled (the stream closing and the post-call webhook are one end)."""
    return f"voice-end#{interaction_id}"


def voice_stream_marker(call_sid: str) -> str:
    """A Twilio call's media stream bridged (a second stream for the same call is refused)."""
    return f"voice-stream#{call_sid}"


def elevenlabs_webhook_marker(digest: str) -> str:
    """An ElevenLabs post-call webhook applied, by the digest of its signed body."""
    return f"elevenlabs-webhook#{digest}"


def inbound_abandoned_marker(inbound_id: str) -> str:
    """An abandoned inbound message settled (its event and apology), by one replica."""
    return f"inbound-abandoned#{inbound_id}"


def sms_deferred_marker(message_sid: str) -> str:
    """An SMS turn that missed the inline budget: its reply goes out later, through the REST API."""
    return f"sms-deferred#{message_sid}"


def twilio_status_marker(idempotency_token: str) -> str:
    """A Twilio status callback applied, by its I-Twilio-Idempotency-Token."""
    return f"twilio-idem#{idempotency_token}"


def mailgun_token_marker(token: str) -> str:
    """A Mailgun webhook token, bound (Spine.bind_once) to the Message-Id of the first POST that
    carried it: the same signature can carry no other message."""
    return f"mailgun-token#{token}"


# -- outbound deliveries: the key naming a reply's outbox rows (`{key}-{n}`) -----------------
def reply_part(key: str, n: int) -> str:
    """The outbox row of part `n` of a reply split to fit its channel (SMS, Telegram); an email
    is one row, named by its key alone."""
    return f"{key}-{n}"


def reply_delivery(inbound_id: str) -> str:
    """The reply to an inbound email or Telegram message."""
    return f"{inbound_id}-reply"


def apology_delivery(inbound_id: str) -> str:
    """The apology for an inbound message abandoned mid-turn."""
    return f"abandoned-{inbound_id}"
