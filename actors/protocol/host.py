"""What a PersonActor host answers for one message or call op (msgpack across processes)."""
from __future__ import annotations

from enum import StrEnum

from actors.protocol.session import SessionReply
from actors.protocol.turn import TurnResult
from spine.codec import WireModel


class HostStatus(StrEnum):
    OK = "ok"  # the turn result, or a call op's reply
    MOVED = "moved"  # another host owns the key, or the message belongs to another key
    FAILED = "failed"  # the turn failed; `error` says why


class HostReply(WireModel):
    """What a host answers for one message: the turn result, or 'moved' to the live owner,
    or 'failed' with a reason the gateway can log while it sends its fallback reply."""

    status: HostStatus
    result: TurnResult | None = None
    session: SessionReply | None = None  # ok, for a call's op
    owner: str | None = None  # moved: the live host that owns the key
    rekey: str | None = None  # moved: the key the message belongs to (the Person an address resolved to)
    error: str | None = None
