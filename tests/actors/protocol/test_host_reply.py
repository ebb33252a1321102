"""What a host answers is a tagged union: each answer reads back from its bytes as its own type,
and an answer that lacks what its tag promises is refused, not taken for another."""
from __future__ import annotations

import pytest
from pydantic import ValidationError

from actors.protocol.host import CallAnswered, HostFailed, HostMoved, TurnAnswered, read_host_reply
from actors.protocol.session import SessionReply
from actors.protocol.turn import TurnResult
from spine.codec import pack
from spine.records import AgentTrace


def _result() -> TurnResult:
    trace = AgentTrace(interaction_id="int_1", channel="sms", participant_id="p_marcus")
    return TurnResult(interaction_id="int_1", person_id="p_marcus", reply="hi", trace=trace)


@pytest.mark.parametrize("answer", [
    TurnAnswered(result=_result()),
    CallAnswered(session=SessionReply(refreshed=True, person_id="p_marcus")),
    HostMoved(owner="pool/clara-host-1"),
    HostMoved(rekey="person:p_marcus"),
    HostFailed(error="TurnFailed: boom"),
])
def test_each_answer_reads_back_as_its_own_type(answer):
    back = read_host_reply(answer.to_bytes())
    assert type(back) is type(answer) and back == answer


def test_a_call_reply_is_never_taken_for_a_turn_result():
    # The session's fields are all optional: only the tag says which answer this is.
    back = read_host_reply(CallAnswered(session=SessionReply()).to_bytes())
    assert isinstance(back, CallAnswered) and not isinstance(back, TurnAnswered)


@pytest.mark.parametrize("data", [
    {"status": "ok"},  # a turn's answer without its result
    {"status": "failed"},  # a failure without its reason
    {"status": "maybe", "error": "x"},  # no such answer
])
def test_an_answer_missing_what_its_tag_promises_is_refused(data):
    with pytest.raises(ValidationError):
        read_host_reply(pack(data))
