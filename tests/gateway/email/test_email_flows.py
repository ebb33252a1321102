"""Email on the same identity-driven path as SMS: the ADR's K-1..K-5 by email, through the real
turn (router, prompts, tools, offline model), replies through the Mailgun stand-in, threaded."""
from __future__ import annotations

from actors.host.context_refresh import refresh_person_context
from actors.model.offline import OfflineModel
from spine.context import Channel, PersonContext
from spine.identity import ClaimKind
from spine.records import EventKind, OutboxStatus, TranscriptEntry


def _events(trace) -> dict[str, str]:
    return {e.kind: e.reason for e in trace.events}


async def test_k1_marcus_by_verified_email_is_the_tenant_and_gets_a_threaded_plain_reply(make_channels):
    ch = await make_channels()
    r = await ch.email("Marcus Johnson <marcus@example.com>", "my toilet is overflowing!",
                       subject="Toilet", message_id="k1@example.com", references=["<older@example.com>"])
    assert r.status_code == 200, r.text
    assert r.json()["outcome"] == "answered" and r.json()["sender_verified"] is True
    trace = await ch.trace(r)
    assert trace.channel == Channel.EMAIL and trace.participant_id == "p_marcus"
    assert trace.routing.roles == ["tenant"]
    assert "create_work_order" in [c.name for c in trace.tool_calls if c.decision == "allowed"]
    assert "SPF pass for example.com" in _events(trace)[EventKind.SENDER_VERIFIED]
    [sent] = ch.mailgun.wait_for_sends(1)
    assert sent.form["to"] == "marcus@example.com" and sent.form["from"] == "yale@clara.example"
    assert sent.form["subject"] == "Re: Toilet" and "html" not in sent.form
    assert sent.form["text"] == trace.reply
    assert sent.header("In-Reply-To") == "<k1@example.com>"
    assert sent.header("References") == "<older@example.com> <k1@example.com>"
    assert sent.header("List-Unsubscribe") == "<mailto:yale@clara.example?subject=unsubscribe>"


async def test_a_forged_from_is_an_unknown_address_and_the_trace_says_why(make_channels):
    ch = await make_channels()
    r = await ch.email("marcus@example.com", "my toilet is overflowing!", sender="mallory@evil.example",
                       spf="pass", dkim="none")
    trace = await ch.trace(r)
    assert r.json()["sender_verified"] is False
    assert trace.participant_id is None and trace.routing.roles == ["other"]
    assert trace.routing.other_classification.description == "unverified sender"
    assert "create_work_order" not in trace.tools_offered
    why = _events(trace)[EventKind.SENDER_UNVERIFIED]
    assert "no SPF or DKIM pass aligned with example.com" in why and "evil.example" in why
    assert ch.pool.submitted[-1].participant_id is None and ch.pool.submitted[-1].sender_verified is False


async def test_a_forged_from_with_a_rental_question_never_takes_the_known_address(make_channels):
    ch = await make_channels()
    r = await ch.email("marcus@example.com", "do you have 2BR units next month?", spf="fail", dkim="fail")
    trace = await ch.trace(r)
    assert trace.participant_id is None and trace.routing.roles == ["other"]
    assert await ch.spine.find_person_id_by_claim(ClaimKind.EMAIL, "marcus@example.com") == "p_marcus"


async def test_k2_mike_by_email_is_the_vendor_on_wo_7(make_channels):
    ch = await make_channels()
    trace = await ch.trace(await ch.email("mike@inhouse.example", "I'm 10 min out from WO-7", spf="none"))
    assert trace.participant_id == "p_mike" and trace.routing.roles == ["vendor"]
    assert "DKIM pass for inhouse.example" in _events(trace)[EventKind.SENDER_VERIFIED]


async def test_k3_an_unknown_address_asking_about_units_becomes_a_prospect(make_channels):
    ch = await make_channels()
    trace = await ch.trace(await ch.email("dana@newmail.example", "do you have 2BR units next month?"))
    assert trace.routing.roles == ["prospect"] and trace.routing.confidence == "inferred"
    assert trace.participant_id and trace.participant_id.startswith("p_new_email_")
    assert await ch.spine.find_person_id_by_claim(ClaimKind.EMAIL, "dana@newmail.example") == trace.participant_id


async def test_k4_carlos_by_email_gets_both_catalogs(make_channels):
    ch = await make_channels()
    trace = await ch.trace(await ch.email("carlos@carlosplumbing.example", "check on WO-42"))
    assert trace.participant_id == "p_carlos" and trace.routing.roles == ["tenant", "vendor"]
    assert {"create_work_order", "update_work_order"} <= set(trace.tools_offered)


async def test_k5_a_wrong_address_gets_the_other_lane(make_channels):
    ch = await make_channels()
    trace = await ch.trace(await ch.email("trevor.friend@mail.example", "yo what's up Trevor"))
    assert trace.participant_id is None and trace.routing.roles == ["other"]
    assert trace.tools_offered and "create_work_order" not in trace.tools_offered


async def test_yesterdays_text_is_in_todays_email_and_the_last_channel_becomes_email(make_channels, spine):
    await spine.put_context(PersonContext(person_id="p_marcus", summary="Texted yesterday about a dripping tap.",
                                          refreshed_at="2026-11-30T09:00:00Z"))
    ch = await make_channels()
    r = await ch.email("marcus@example.com", "any news?")
    trace = await ch.trace(r)
    assert trace.participant_id == "p_marcus"
    assert any(s.layer == "context" for s in trace.prompt.sections)
    assert await refresh_person_context(spine, OfflineModel(), "p_marcus", trace.interaction_id,
                                        [TranscriptEntry(role="user", text="any news?")]) is not None
    assert (await spine.get_context("p_marcus")).active.last_channel == Channel.EMAIL


async def test_quoted_history_is_stripped_from_what_clara_reads(make_channels):
    ch = await make_channels()
    quoted = ("my toilet is overflowing!\n\nOn Mon, Nov 30, 2026 at 9:00 AM Clara <yale@clara.example> wrote:\n"
              "> Do you have a 2BR unit? yo what's up\n> older text")
    await ch.email("marcus@example.com", "", body_plain=quoted)  # no stripped-text: the parser cuts it
    body = ch.pool.submitted[-1].body
    assert "my toilet is overflowing!" in body and "older text" not in body and "wrote:" not in body


async def test_without_mailgun_credentials_the_reply_waits_in_the_outbox_with_its_thread(make_channels, spine):
    ch = await make_channels(with_credentials=False)
    r = await ch.email("marcus@example.com", "is the gym open?", subject="Gym", message_id="gym@example.com")
    assert r.json()["outcome"] == "answered"
    row = await spine.get_outbox("email:gym@example.com-reply")
    assert row.status == OutboxStatus.PENDING and row.channel == Channel.EMAIL
    assert row.subject == "Re: Gym" and row.headers["In-Reply-To"] == "<gym@example.com>"
    assert ch.mailgun.sent == []


async def test_the_status_card_and_the_trace_list_show_the_channel(make_channels, spine):
    from desk.console.status_cards import graceful_degrade_card
    from gateway.admin.status_page import degrade_card_html
    from spine.identity import utcnow

    ch = await make_channels()
    trace = await ch.trace(await ch.email("trevor.friend@mail.example", "yo what's up Trevor"))
    events = await spine.events(EventKind.GRACEFUL_DEGRADE)
    card = graceful_degrade_card(events, utcnow())
    assert [s.channel for s in card.recent if s.interaction_id == trace.interaction_id] == [Channel.EMAIL]
    assert "<td>email</td>" in str(degrade_card_html(card))
    listed = await ch.client.get("/admin/traces", params={"channel": "email"},
                                 headers={"Authorization": "Bearer admin-test-token"})
    assert [t["channel"] for t in listed.json()["traces"]] == ["email"]


async def test_a_forged_email_never_speaks_as_a_prospect_minted_for_that_address(make_channels):
    ch = await make_channels()
    minted = await ch.trace(await ch.email("dana@newmail.example", "do you have 2BR units next month?"))
    assert minted.routing.roles == ["prospect"]
    forged = await ch.trace(await ch.email("dana@newmail.example", "do you have 2BR units next month? book a tour",
                                           spf="fail", dkim="fail"))
    assert forged.participant_id is None and forged.routing.roles == ["other"]
