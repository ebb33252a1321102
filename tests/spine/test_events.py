"""Observability events: one JSON line on `clara.events` per event, persisted for the status cards,
and a phone number only ever as its last four digits."""
from __future__ import annotations

import json
import logging
import random
import re

import pytest

from spine.context import Channel
from spine.events import ContextBuildReason, GracefulDegradeReason, emit_event, graceful_degrade
from spine.masking import mask_addresses
from spine.records import EventKind
from spine.repo import Spine
from spine.store.base import Item, StoreUnavailable
from tests.support.routing_helpers import YALE, route

FULL_NUMBERS = ["+13105557777", "3105557777", "310-555-7777", "+18885550199", "8885550199", "+12065551099",
                "2065551099", "+14155559876", "4155559876", "4155552233", "415-555-2233"]


def event_lines(caplog) -> list[dict]:
    return [json.loads(r.getMessage()) for r in caplog.records if r.name == "clara.events"]


async def test_every_other_exit_logs_json_and_persists_with_last4_only(spine, caplog):
    caplog.set_level(logging.INFO, logger="clara.events")
    await route(spine, "+13105557777", "yo what's up Trevor, call me at 415-555-2233")
    await route(spine, "+18885550199", "cheap meds")
    await route(spine, "+12065551099", "about my late mother's lease")
    await route(spine, "+14155559876", "do you have 2BR units next month?")  # minted: no degrade event
    lines = event_lines(caplog)
    assert [(e["kind"], e["reason"], e["phone_last4"]) for e in lines] == [
        ("agent/graceful-degrade", "no_person_resolved_no_intent_hints", "7777"),
        ("agent/graceful-degrade", "person_category_spam", "0199"),
        ("agent/graceful-degrade", "deceased_person", "1099"),
    ]
    assert all(e["persisted"] for e in lines)
    stored = await spine.events(EventKind.GRACEFUL_DEGRADE)
    assert sorted(e.reason for e in stored) == ["deceased_person", "no_person_resolved_no_intent_hints",
                                                 "person_category_spam"]
    everything = caplog.text + "".join(e.model_dump_json() for e in stored)
    for number in FULL_NUMBERS:
        assert number not in everything, number
    snippet = next(e for e in lines if e["phone_last4"] == "7777")["detail"]["first_message_snippet"]
    assert snippet == "yo what's up Trevor, call me at …2233"


async def test_closed_reason_vocabularies_reject_unknown_reasons(spine):
    with pytest.raises(ValueError, match="has no reason 'felt_like_it'"):
        await emit_event(spine, EventKind.GRACEFUL_DEGRADE, "felt_like_it", channel="sms", address=None,
                         property_id=YALE, interaction_id="i-1")
    with pytest.raises(ValueError, match="has no reason 'no_person_resolved_no_intent_hints'"):
        await emit_event(spine, EventKind.CONTEXT_BUILD, "no_person_resolved_no_intent_hints", channel="sms",
                         address=None, property_id=YALE, interaction_id="i-1")
    for reason in ContextBuildReason:
        await emit_event(spine, EventKind.CONTEXT_BUILD, reason, channel=Channel.VOICE, address="+12065551001",
                         property_id=YALE, interaction_id="i-2")
    stored = await spine.events(EventKind.CONTEXT_BUILD)
    assert {e.reason for e in stored} == {"personId_missing", "persisted_context_missing", "ghost_pointer_filtered",
                                          "tenant_or_prospect_query_failed"}
    assert {e.phone_last4 for e in stored} == {"1001"}


async def test_a_retried_interaction_does_not_double_count(spine):
    for _ in range(2):
        await graceful_degrade(spine, GracefulDegradeReason.PERSON_RESOLVED_NO_ROLES, channel="sms",
                               address="+13035551500", property_id=YALE, interaction_id="i-retry",
                               detail={"person_id": "p_mike"})
    assert len(await spine.events(EventKind.GRACEFUL_DEGRADE)) == 1


class DownStore:
    """A store whose writes fail as an unreachable backend's do."""

    async def put(self, item: Item, *, expect_version=None) -> Item:
        raise StoreUnavailable("store down")


async def test_a_store_outage_still_logs_and_never_raises(caplog):
    caplog.set_level(logging.INFO, logger="clara.events")
    event = await graceful_degrade(Spine(DownStore()), "person_category_spam", channel="sms",
                                   address="+18885550199", property_id=YALE, interaction_id="i-down")
    assert event.reason == "person_category_spam"
    [line] = event_lines(caplog)
    assert (line["persisted"], line["phone_last4"], line["persist_error"]) == (
        False, "0199", "StoreUnavailable")
    assert not re.search(r"8885550199", caplog.text)


def test_mask_addresses_keeps_a_first_character_and_domain_of_emails_and_four_digits_of_phones():
    assert mask_addresses("addr:email:marcus@example.com") == "addr:email:m…@example.com"
    assert mask_addresses("addr:sms:+14155559876") == "addr:sms:…9876"
    assert mask_addresses("person:p_marcus") == "person:p_marcus"
    assert mask_addresses("Marcus <marcus.j+x@mail.example.co.uk>") == "Marcus <m…@mail.example.co.uk>"


async def test_twilio_message_sids_in_event_details_are_kept_whole_and_phones_beside_them_masked(spine):
    """Real-shaped MessageSids (SM + 32 hex) often hold a run of 7+ digits; an id is not a phone."""
    rng = random.Random(27)
    sids = ["SM" + "".join(rng.choice("0123456789abcdef") for _ in range(32)) for _ in range(60)]
    assert sum(bool(re.search(r"\d{7}", sid)) for sid in sids) >= 10  # the case that used to be mangled
    for n, sid in enumerate(sids):
        await emit_event(spine, EventKind.INBOUND_FAILED, "turn_failed", channel="sms", address="+14155559876",
                         property_id=YALE, interaction_id=f"i-sid-{n}",
                         detail={"message_sid": sid, "error": f"from +14155559876 at {sid}"})
    stored = {e.interaction_id: e.detail for e in await spine.events(EventKind.INBOUND_FAILED)}
    assert [stored[f"i-sid-{n}"]["message_sid"] for n in range(len(sids))] == sids
    assert all(stored[f"i-sid-{n}"]["error"] == f"from …9876 at {sid}" for n, sid in enumerate(sids))
