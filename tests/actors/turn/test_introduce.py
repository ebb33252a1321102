"""Clara's first reply to someone who wrote first says she is an AI assistant, once per person and
shared with the messages she starts; the warm turns after it read nothing for it. Real turns
(offline model, in-process Dispatcher) on a PersonHost, without Ray."""
from __future__ import annotations

import pytest

from desk.outbound.queue import NotificationKind, OutboundRequest, queue_outbound
from spine import keys
from spine.repo import Spine
from spine.store.counting import counting
from tests.support.actor_helpers import envelope, real_host
from tests.support.introduction_helpers import YALE_EN, YALE_ES

NEW_TEXTER = "+14155550123"


@pytest.fixture
def counted(spine) -> Spine:
    return Spine(counting(spine.store))


async def test_the_first_reply_to_a_new_texter_says_it_and_the_next_ones_do_not(counted, clock):
    host = real_host(counted, clock)
    first = await host.submit(envelope(None, "Hi, do you have any 2 bedroom apartments available?",
                                       from_address=NEW_TEXTER))
    assert first.person_id and first.reply.endswith(YALE_EN)
    assert await counted.is_marked(keys.introduced_marker(first.person_id))
    second = await host.submit(envelope(first.person_id, "what about parking?", from_address=NEW_TEXTER))
    assert second.reply and "AI assistant" not in second.reply
    third = await host.submit(envelope(first.person_id, "and pets?", from_address=NEW_TEXTER))
    assert "AI assistant" not in third.reply
    assert third.trace.store_reads.get("once", 0) == 0  # warm: the Opening knows, the store is not asked
    assert third.trace.reply == third.reply  # the trace keeps what was sent


async def test_a_spanish_speaker_is_told_in_spanish_at_the_end(spine, clock):
    host = real_host(spine, clock)
    reply = (await host.submit(envelope("p_marcus", "hola"))).reply
    assert reply.startswith("Hola Marcus") and reply.endswith(YALE_ES)


async def test_someone_clara_already_wrote_to_is_not_told_again_in_her_reply(spine, clock):
    started = await queue_outbound(spine, OutboundRequest(
        key="notify:first", kind=NotificationKind.NOTIFY, recipient_person_id="p_marcus", property_id="pf_yale",
        body="Update on WO-7: Mike is on his way."))
    assert (await spine.get_outbox(started.outbox_id)).body.endswith(YALE_EN)  # the started message came first
    reply = (await host_reply(spine, clock, "p_marcus", "when will Mike get here?"))
    assert reply and "AI assistant" not in reply and "asistente de IA" not in reply


async def test_ask_clara_is_no_message_to_the_person(spine, clock):
    host = real_host(spine, clock)
    asked = envelope("p_marcus", "what are the office hours?").model_copy(update={"origin": "admin"})
    result = await host.submit(asked)
    assert result.reply and "AI assistant" not in result.reply
    assert not await spine.is_marked(keys.introduced_marker("p_marcus"))  # his own first reply still says it


async def host_reply(spine, clock, person_id: str, body: str) -> str:
    return (await real_host(spine, clock).submit(envelope(person_id, body))).reply
