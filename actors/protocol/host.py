"""What a PersonActor host answers for one message or call op (msgpack across processes): a tagged
union, one type per answer, told apart by `status`, so the caller matches the answer by its type
(`match reply: case TurnAnswered(): ...`) and never by which optional field happens to be set."""
from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from actors.protocol.session import SessionReply
from actors.protocol.turn import TurnResult
from spine.codec import WireModel, unpack


class HostStatus(StrEnum):
    """The tag of each answer."""

    OK = "ok"  # a message's turn ran: TurnAnswered
    CALL_OK = "call_ok"  # a call's op ran: CallAnswered
    MOVED = "moved"  # another host owns the key, or the message belongs to another key: HostMoved
    FAILED = "failed"  # the turn failed: HostFailed


class TurnAnswered(WireModel):
    """A message's turn result."""

    status: Literal[HostStatus.OK] = HostStatus.OK
    result: TurnResult


class CallAnswered(WireModel):
    """A call op's reply."""

    status: Literal[HostStatus.CALL_OK] = HostStatus.CALL_OK
    session: SessionReply


class HostMoved(WireModel):
    """Not here: the live host that owns the key, and/or the key the message belongs to."""

    status: Literal[HostStatus.MOVED] = HostStatus.MOVED
    owner: str | None = None  # the live host that owns the key (None: ask the layout again)
    rekey: str | None = None  # the key the message belongs to (the Person an address resolved to)


class HostFailed(WireModel):
    """The turn (or op) failed, with a reason the gateway logs while it sends its fallback reply."""

    status: Literal[HostStatus.FAILED] = HostStatus.FAILED
    error: str


HostReply = Annotated[TurnAnswered | CallAnswered | HostMoved | HostFailed, Field(discriminator="status")]
Answered = TurnAnswered | CallAnswered  # what a caller waits for: the other two are the pool's to handle

_HOST_REPLY: TypeAdapter[HostReply] = TypeAdapter(HostReply)


def read_host_reply(data: bytes) -> TurnAnswered | CallAnswered | HostMoved | HostFailed:
    """The answer a host's bytes hold, as its own type."""
    return _HOST_REPLY.validate_python(unpack(data))
