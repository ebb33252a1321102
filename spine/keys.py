"""Every store key layout, once.

An item lives at (pk, sk) and may be indexed under gsi1pk (sorted by gsi1sk). The backends
(spine/store) store what they are given; this module is the only place that spells a key, so
two writers of one record cannot drift apart and a reader finds what a writer wrote. A record
kept under its own partition has the sort key `ITEM`; records kept beside a Person use their own.

    import spine.keys as keys
    await spine.store.get(keys.person(person_id))
"""
from __future__ import annotations

import zlib
from datetime import UTC, datetime

ITEM = "_"  # the sort key of a record that is alone in its partition

# -- people, claims, roles ---------------------------------------------------------------
ROLE_PREFIX = "ROLE#"  # sort keys of a Person's role rows
APPLINK_PREFIX = "APPLINK#"  # sort keys of a Person's application links
CONTEXT = "CONTEXT"  # the sort key of a Person's personContext
LAST_CONTACT = "LASTCONTACT"  # the sort key of the channel and address a Person last wrote from


def person(person_id: str) -> str:
    return f"PERSON#{person_id}"


def role(role_id: str) -> str:
    return f"{ROLE_PREFIX}{role_id}"


CLAIM_PREFIX = "CLAIM#"


def claim(kind: str, value: str) -> str:
    """A wire address (phone, email, Telegram user) claimed by one Person."""
    return f"{CLAIM_PREFIX}{kind}#{value}"


def unit_roles(unit_id: str) -> str:
    return f"UNITROLES#{unit_id}"


def vendor_roles(vendor_id: str) -> str:
    return f"VENDORROLES#{vendor_id}"


def property_roles(property_id: str) -> str:
    return f"PROPROLES#{property_id}"


def org_roles(org_id: str | None) -> str:
    return f"ORGROLES#{org_id}"


def prospect(property_id: str) -> str:
    """The sort key of a Person's prospect record at a property."""
    return f"PROSPECT#{property_id}"


def app_link(link_id: str) -> str:
    return f"{APPLINK_PREFIX}{link_id}"


# -- organizations, properties, units, leases, vendors -------------------------------------
PROPERTIES = "PROPERTIES"  # index of every property
VENDORS = "VENDORS"  # index of every vendor


def org(org_id: str) -> str:
    return f"ORG#{org_id}"


def property_(property_id: str) -> str:
    return f"PROPERTY#{property_id}"


def number(e164: str) -> str:
    """A phone number that reaches a property (SMS or voice)."""
    return f"NUMBER#{e164}"


def email(address: str) -> str:
    """An email address that reaches a property (case-insensitive)."""
    return f"EMAIL#{address.strip().lower()}"


def telegram_bot(bot_id: str) -> str:
    return f"TGBOT#{bot_id}"


def unit(unit_id: str) -> str:
    return f"UNIT#{unit_id}"


def property_units(property_id: str) -> str:
    return f"PROPUNITS#{property_id}"


def lease(lease_id: str) -> str:
    return f"LEASE#{lease_id}"


def unit_leases(unit_id: str) -> str:
    return f"UNITLEASE#{unit_id}"


def vendor(vendor_id: str) -> str:
    return f"VENDOR#{vendor_id}"


# -- work orders, tours, renewals, sequences -----------------------------------------------
def work_order(wo_id: str) -> str:
    return f"WO#{wo_id}"


def property_work_orders(property_id: str) -> str:
    return f"PROPWO#{property_id}"


def work_order_position(unit_id: str | None, wo_id: str = "") -> str:
    """The index sort key of a work order: by unit, so one unit's orders are one prefix."""
    return f"{unit_id or ''}#{wo_id}"


# The staff console's work-order board: a copy of each work order in its property's and its org's
# board, each all / of one status / of one priority / of both, sorted newest first by creation (a
# position that never changes), so every filter is one descending query. A status or priority
# change moves the copies that name it.
WORK_ORDER_BOARD = "WOBOARD#"


def work_order_board(scope: str, status: str | None = None, priority: str | None = None) -> str:
    """One board partition; `scope` is property_scope(...) or org_scope(...)."""
    return f"{WORK_ORDER_BOARD}{scope}#{status or '*'}#{priority or '*'}"


def property_scope(property_id: str) -> str:
    """What the console reads as one: a property's records (board, change feed)."""
    return f"p:{property_id}"


def org_scope(org_id: str) -> str:
    """What the console reads as one: a whole org's records (board, change feed)."""
    return f"o:{org_id}"


def work_order_board_position(created_at: str, wo_id: str) -> str:
    return f"{created_at}#{wo_id}"


def tour(tour_id: str) -> str:
    return f"TOUR#{tour_id}"


def person_tours(person_id: str) -> str:
    return f"PERSONTOURS#{person_id}"


def property_tours(property_id: str) -> str:
    """A property's tour index, sorted by tour_slot (local time)."""
    return f"PROPTOURS#{property_id}"


def tour_slot(local_minute: str, tour_id: str) -> str:
    """A tour's sort key in its property's index: `2026-12-01T15:00#<tour id>` (a day is a prefix)."""
    return f"{local_minute}#{tour_id}"


def renewal(renewal_id: str) -> str:
    return f"RENEWAL#{renewal_id}"


def unit_renewals(unit_id: str) -> str:
    return f"UNITRENEWAL#{unit_id}"


def sequence(name: str) -> str:
    return f"SEQ#{name}"


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


# -- what the gateway starts: the outbox row ids of desk.outbound.queue.queue_outbound -----------
def work_order_notice(work_order_id: str, person_id: str, slot: str) -> str:
    """A tenant's notice of a change to a work order; changes in one slot (a minute, or the night
    before the contact window) are one message."""
    return f"notify:{work_order_id}:{person_id}:{slot}"


def routine_batch(person_id: str, slot: str) -> str:
    """The new routine work orders one staff member is told of in one slot (15 minutes, or the night)."""
    return f"ROUTINEBATCH#{person_id}#{slot}"


def routine_batch_notice(person_id: str, slot: str) -> str:
    """The one message of a routine batch: a retry, or another work order of the slot, is the same row."""
    return f"routine:{person_id}:{slot}"


STEP_UP_TEXT_PREFIX = "stepup-"  # a verification code's text: sent by the call's gateway only, never swept


def step_up_text(token: str) -> str:
    return f"{STEP_UP_TEXT_PREFIX}{token}"


def dispatch_notice(dispatch_id: str, person_id: str) -> str:
    """A dispatch sent to one contact of the vendor."""
    return f"dispatch:{dispatch_id}:{person_id}"


def dispatch_staff_notice(dispatch_id: str, person_id: str, what: str) -> str:
    """What a manager is told of a dispatch: `declined`, or `overdue` (not accepted in time)."""
    return f"dispatch-{what}:{dispatch_id}:{person_id}"


def work_order_handoff(work_order_id: str, notes: int) -> str:
    """What `dispatch_staff_notice` is about when a vendor hands a work order back (one per note
    count: a second handoff of one work order is another message)."""
    return f"handoff_{work_order_id}_{notes}"


def page_step_notice(page_id: str, step: int, person_id: str, how: str) -> str:
    """A page's `sms` or `call` to one person of the level paged at `step` of the ladder."""
    return f"page-{page_id}-{step}-{person_id}-{how}"


def page_exhausted_notice(page_id: str, manager_id: str) -> str:
    """A manager told that nobody took the page."""
    return f"page-{page_id}-exhausted-{manager_id}"


def page_reporter_notice(page_id: str, what: str) -> str:
    """The reporter told that the page was `acknowledged` or `exhausted`."""
    return f"page-{page_id}-{what}-reporter"


def page_taken_notice(page_id: str, person_id: str) -> str:
    """The page's details, in writing, to whoever took it by a call's keypress."""
    return f"page-{page_id}-acknowledged-{person_id}"


def staff_message_notice(person_id: str, property_id: str, request_id: str) -> str:
    """What staff write to a person at a property from the console (one per request: a retried POST
    queues once)."""
    return f"staff-{person_id}-{property_id}-{request_id}"


def held_turn_notice(message_id: str) -> str:
    """Staff told of a message their taken-over conversation received."""
    return f"held-{message_id}"


# -- vendor dispatches --------------------------------------------------------------------
def dispatch(dispatch_id: str) -> str:
    return f"DISPATCH#{dispatch_id}"


def dispatch_position(sent_at: str, dispatch_id: str) -> str:
    return f"{sent_at}#{dispatch_id}"


def dispatches_with_status(status: str) -> str:
    """The dispatches index by status, oldest sent first: `pending` is what a YES may accept and
    what the reminder looks at."""
    return f"DISPATCHES#{status}"


# -- tool runs, escalations --------------------------------------------------------------
def tool_run(interaction_id: str, tool_use_id: str) -> str:
    """A side-effecting tool call, idempotent on (interaction_id, tool_use_id)."""
    return f"IDEMP#{interaction_id}#{tool_use_id}"


def escalation(escalation_id: str) -> str:
    return f"ESCALATION#{escalation_id}"


def org_escalations(org_id: str) -> str:
    return f"ESCALATIONS#{org_id}"


# The staff console's queue: a copy of each escalation in its property's and its org's queue,
# sorted so that one descending query reads open first, then acknowledged, then resolved, each
# newest first; a status is a sort-key prefix. A status change moves the copies.
_QUEUE_RANK = {"open": "3", "acknowledged": "2", "resolved": "1"}


def property_escalation_queue(property_id: str) -> str:
    return f"ESCQ#{property_id}"


def org_escalation_queue(org_id: str) -> str:
    return f"ORGESCQ#{org_id}"


def escalation_queue_status(status: str) -> str:
    """The sort-key prefix of one status in a queue."""
    return f"{_QUEUE_RANK[status]}#"


def escalation_position(created_at: str, escalation_id: str) -> str:
    """The sort key in the org's escalations index (oldest first)."""
    return f"{created_at}#{escalation_id}"


def escalation_queue_position(status: str, created_at: str, escalation_id: str) -> str:
    return f"{escalation_queue_status(status)}{created_at}#{escalation_id}"


# -- conversations: a person's messages at one property, and its head ------------------------
# A conversation is a person's at one property: what staff of that property read and take over,
# never what the person said at another property or another org.
CONVERSATION = "CONVERSATION#"  # the sort-key prefix of a Person's conversation heads (with takeover state)


def conversation_head(property_id: str) -> str:
    """The sort key (under keys.person) of a person's conversation head at one property."""
    return f"{CONVERSATION}{property_id}"


def conversation_messages(person_id: str, property_id: str) -> str:
    """A person's messages at one property, one partition, sorted by message_position (oldest first)."""
    return f"CONVO#{person_id}#{property_id}"


def message_position(at: str, message_id: str) -> str:
    return f"{at}#{message_id}"


def property_conversations(property_id: str) -> str:
    """The index of a property's conversation heads, sorted by conversation_position."""
    return f"PROPCONVOS#{property_id}"


def conversation_position(last_at: str, person_id: str) -> str:
    return f"{last_at}#{person_id}"


# -- the console's change feed: what changed, per scope (a property's, an org's), per second --------
# A partition per (scope, UTC second) sorted by change_position, so a live page's poll reads the
# few seconds since its last one, and a stream resumed by its Last-Event-ID reads from there on.
def change_feed(scope: str, second: str) -> str:
    """`second` is `YYYYmmddTHHMMSS` (UTC)."""
    return f"FEED#{scope}#{second}"


def change_position(at: str, change_id: str) -> str:
    return f"{at}#{change_id}"


# -- the reports' rollups: a counter per property, local day and key ---------------------------
def rollups(property_id: str) -> str:
    """A property's daily counters, sorted by rollup_position: a month is the prefix `2026-12-`."""
    return f"ROLLUP#{property_id}"


def rollup_position(day: str, key: str) -> str:
    return f"{day}#{key}"


# -- on-call plans and pages -------------------------------------------------------------
def oncall_plan(property_id: str) -> str:
    return f"ONCALL#{property_id}"


def page(page_id: str) -> str:
    return f"PAGE#{page_id}"


def pages_with_status(status: str) -> str:
    """The pages index by status, sorted by next_due: the `paging` partition is the scheduler's work."""
    return f"PAGES#{status}"


def page_due(next_due_iso: str, page_id: str) -> str:
    return f"{next_due_iso}#{page_id}"


def pages_held(person_id: str) -> str:
    """The pages a Person was paged by (sort key: the page id): what an `ACK` from them may name."""
    return f"PAGESHELD#{person_id}"


def escalation_page(escalation_id: str) -> str:
    """The page an escalation is part of (what the staff console shows beside it)."""
    return f"ESCPAGE#{escalation_id}"


def interaction_page(interaction_id: str) -> str:
    """The page an interaction started (a work order and an escalation in one turn page once)."""
    return f"PAGEOF#{interaction_id}"


def page_step_marker(page_id: str, pass_number: int, level: int) -> str:
    """One ladder step taken (its oncall/paged event emitted), whoever drove it."""
    return f"page-step#{page_id}#{pass_number}#{level}"


def outbox_send_marker(outbox_id: str) -> str:
    """An outbox row handed to its provider: whoever marks it first sends it, once."""
    return f"outbox-send#{outbox_id}"


def outbox_resend_marker(outbox_id: str) -> str:
    """An interrupted send that Twilio never got, sent again: whoever marks it first, once."""
    return f"outbox-resend#{outbox_id}"


# -- admin tokens and sessions -----------------------------------------------------------
def admin_token(token_hash: str) -> str:
    return f"ADMINTOKEN#{token_hash}"


def admin_tokens_of(person_id: str) -> str:
    return f"ADMINTOKENS#{person_id}"


def admin_session(session_hash: str) -> str:
    return f"ADMINSESSION#{session_hash}"


def admin_sessions_of(identity: str) -> str:
    return f"ADMINSESSIONS#{identity}"


# -- voice caller verification, step-up ----------------------------------------------------
def call_verification(interaction_id: str) -> str:
    return f"CALLVERIFY#{interaction_id}"


def call_caller(interaction_id: str) -> str:
    """The number an unknown caller's call came from (spine.verification.CallCaller)."""
    return f"CALLCALLER#{interaction_id}"


def step_up(person_id: str) -> str:
    """The latest one-time code texted to a Person's number on file (one per Person)."""
    return f"STEPUP#{person_id}"


def step_up_sends(person_id: str) -> str:
    """When codes were texted to a Person's number in the last day (the sliding-window budget)."""
    return f"STEPUPSENDS#{person_id}"


# -- the PersonActor runtime ---------------------------------------------------------------
def owner_lease(actor_key: str) -> str:
    """The lease naming the host that owns a PersonActor."""
    return f"OWNER#{actor_key}"


def handoff(actor_key: str) -> str:
    """A conversation handed to a PersonActor (a merge, a minted Person)."""
    return f"HANDOFF#{actor_key}"


# -- portfolio imports (desk/portfolio) ----------------------------------------------------
IMPORT_BUCKETS = 4  # partitions per (source, file kind): each a query of its own, none too large


def import_rows(source: str, kind: str, bucket: int) -> str:
    """One source's rows of one file kind (`people`, `residents`, ...) in one of IMPORT_BUCKETS
    partitions (desk.portfolio.record picks it from the external id), sort key `import_row`: an
    import reads a file kind's rows with one query per bucket, and no partition holds them all."""
    return f"IMPORT#{source}#{kind}#{bucket:02d}"


def import_row(external_id: str) -> str:
    """The sort key of one imported row: the source system's external id."""
    return f"ROW#{external_id}"


# -- property-management systems of record (desk/pms) -------------------------------------
def pms_state(system: str) -> str:
    """A PMS connector's sync state (last full and incremental sync, counts, errors, webhooks)."""
    return f"PMSSTATE#{system}"


def pms_links(system: str) -> str:
    """The gateway's side of a PMS's properties (phone, email, zone), sort key `pms_link`."""
    return f"PMSLINKS#{system}"


def pms_link(record_id: str) -> str:
    return f"LINK#{record_id}"


def pms_webhook_marker(system: str, event_id: str) -> str:
    """A PMS webhook delivery handled once (a `once` marker)."""
    return f"pms-webhook#{system}#{event_id}"


# -- a caller reaches a person (the office, call transfers) ---------------------------------
def office(property_id: str) -> str:
    return f"OFFICE#{property_id}"


def transfer(transfer_id: str) -> str:
    return f"TRANSFER#{transfer_id}"


def call_summary(interaction_id: str) -> str:
    """The post-call analysis's summary of a call."""
    return f"CALLSUMMARY#{interaction_id}"


def call_transfers(interaction_id: str) -> str:
    """The transfers of one call, sort key the transfer id (the console lists them with the call)."""
    return f"CALLTRANSFERS#{interaction_id}"


def pms_inbox(system: str) -> str:
    """A PMS's webhook deliveries accepted and not yet worked (sort key: the event id)."""
    return f"PMSINBOX#{system}"


def pms_writes(system: str) -> str:
    """A PMS's write-backs, one per gateway work order (sort key `pms_write`, or `pms_write_task`)."""
    return f"PMSWRITES#{system}"


def pms_write(work_order_id: str) -> str:
    return f"WO#{work_order_id}"


def pms_write_task(task_id: str) -> str:
    """The work order a PMS's task was written for (a status change made in the PMS finds it)."""
    return f"TASK#{task_id}"


# -- health probes (never written: a read of a missing item proves the store answers) ------
HEALTH_READY = "HEALTH#ready"
HEALTH_CHECK = "HEALTH#check"


# -- follow-ups (desk/followups): one item each, an index by status and due time -----------
def followup(followup_id: str) -> str:
    return f"FOLLOWUP#{followup_id}"


# The index of each status is spread over this many partitions, so no one DynamoDB partition takes
# every follow-up's write (each create, move and send writes the index); a tick reads each shard.
FOLLOWUP_SHARDS = 8


def followup_shard(followup_id: str) -> int:
    """A follow-up's shard: stable for its id (CRC-32, not Python's per-process salted hash)."""
    return zlib.crc32(followup_id.encode()) % FOLLOWUP_SHARDS


def followups_with_status(status: str, shard: int) -> str:
    """One index partition of follow-ups in `status`, sorted by due time. Shard 0 keeps the name the
    index had before it was sharded, so a follow-up written then is still found (in shard 0,
    until its next write moves it to its own)."""
    return f"FOLLOWUPS#{status}" if shard == 0 else f"FOLLOWUPS#{status}#{shard}"


def followup_position(due_at: datetime, followup_id: str) -> str:
    """Sortable as text: UTC, fixed width, then the id (two due at one instant stay apart)."""
    return due_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ") + "#" + followup_id


def followups_of(person_id: str) -> str:
    return f"FOLLOWUPSOF#{person_id}"


def followup_outbox(followup_id: str) -> str:
    """The outbox row of a follow-up's message: one per follow-up, so it is never sent twice."""
    return f"followup-{followup_id}"
