"""The paging call's TwiML: `POST /voice/oncall/{page_id}` reads the page and gathers one digit;
`POST /voice/oncall/{page_id}/gather` takes it: 1 accepts the page, 2 passes it to the next level.

Both are Twilio-signed (the call was placed by the outbox sender with this URL, the person it
rang in its query). Who pressed is the person the page rang, checked against the page itself;
a page already taken or ended is said so, and nothing here ever answers a call with a 500."""
from __future__ import annotations

import logging
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.datastructures import ImmutableMultiDict
from twilio.twiml.voice_response import Gather, VoiceResponse

import desk.oncall.texts as texts
import spine.keys as keys
from desk.oncall.ack import acknowledge, pass_page
from desk.oncall.voicemail import answered_by_machine, voicemail_script
from desk.outbound.queue import NotificationKind, OutboundRequest, queue_outbound
from gateway.context import GatewayContext
from gateway.errors import WebhookRejected
from gateway.twilio.params import TwilioWebhook
from gateway.twilio.webhook import signed_form
from gateway.xml_text import xml_safe
from spine.context import Channel
from spine.events import emit_event
from spine.oncall import Page, PageStatus, PageVia
from spine.records import EventKind
from spine.store.base import StoreError

log = logging.getLogger("clara.oncall")
router = APIRouter()
TWIML = "application/xml"
GATHER_TIMEOUT_S = 8
SORRY = "Sorry, this page cannot be read right now. Please reply ACK to the text if you can take it. Goodbye."


def _say(*lines: str) -> Response:
    response = VoiceResponse()
    for line in lines:
        response.say(xml_safe(line))
    response.hangup()
    return Response(str(response), media_type=TWIML)


async def _page_for(request: Request, page_id: str) -> tuple[GatewayContext, Page, str, ImmutableMultiDict] | Response:
    """The context, the page, the person it rang and Twilio's form; or what to answer instead."""
    context: GatewayContext = request.app.state.context
    try:
        form = await signed_form(request, context.settings, TwilioWebhook.VOICE)
    except WebhookRejected as exc:
        return Response(exc.reason + "\n", status_code=exc.status, media_type="text/plain")
    person_id = request.query_params.get("person_id", "")
    try:
        page = await context.spine.get_page(page_id)
    except StoreError as exc:
        log.warning("paging call for %s: store unavailable: %s", page_id, exc)
        return _say(SORRY)
    if page is None or person_id not in page.paged_person_ids:
        return _say(texts.CALL_GONE)
    return context, page, person_id, form


@router.post("/voice/oncall/{page_id}")
async def oncall_twiml(request: Request, page_id: str) -> Response:
    found = await _page_for(request, page_id)
    if isinstance(found, Response):
        return found
    context, page, person_id, form = found
    answered_by = str(form.get("AnsweredBy", ""))
    if answered_by_machine(answered_by):
        return await _voicemail(context, page, person_id, answered_by)
    if page.status == PageStatus.ACKNOWLEDGED:
        taker = await context.spine.get_person(page.acknowledged_by or "")
        return _say(texts.call_taken_by_other(taker.display_name if taker else "Someone"))
    prop = await context.spine.get_property(page.property_id)
    response = VoiceResponse()
    action = (f"{context.settings.public_url.rstrip('/')}/voice/oncall/{quote(page_id)}/gather"
              f"?person_id={quote(person_id)}")
    gather = Gather(num_digits=1, action=action, method="POST", timeout=GATHER_TIMEOUT_S)
    # The script carries the brief a tenant typed: no control character may break the TwiML.
    gather.say(xml_safe(texts.page_call_script(page, prop.name if prop else page.property_id)))
    gather.say(texts.CALL_PROMPT)
    response.append(gather)
    response.say(texts.CALL_NO_DIGIT)
    response.hangup()
    return Response(str(response), media_type=TWIML)


@router.post("/voice/oncall/{page_id}/gather")
async def oncall_gather(request: Request, page_id: str) -> Response:
    found = await _page_for(request, page_id)
    if isinstance(found, Response):
        return found
    context, _, person_id, form = found
    digits = form.get("Digits", "")
    try:
        if digits == "1":
            return await _accept(context, page_id, person_id)
        if digits == "2":
            passed = await pass_page(context.spine, page_id, person_id)
            return _say(texts.CALL_PASSED if passed else texts.CALL_GONE)
    except StoreError as exc:
        log.warning("paging call for %s: store unavailable: %s", page_id, exc)
        return _say(SORRY)
    return _say(texts.CALL_NO_DIGIT)


async def _voicemail(context: GatewayContext, page: Page, person_id: str, answered_by: str) -> Response:
    """A voicemail box answered: the page as a message, no <Gather> (nobody will press 1), and the
    step stays unanswered (the ladder goes on at its timeout); `oncall/voicemail`."""
    await emit_event(context.spine, EventKind.ONCALL_VOICEMAIL, answered_by[:40], channel=Channel.VOICE,
                     address=None, property_id=page.property_id, interaction_id=None,
                     detail={"page_id": page.id, "person_id": person_id})
    prop = await context.spine.get_property(page.property_id)
    return _say(voicemail_script(page, prop.name if prop else page.property_id))


async def _accept(context: GatewayContext, page_id: str, person_id: str) -> Response:
    outcome = await acknowledge(context.spine, page_id, person_id, PageVia.CALL)
    if not outcome.acknowledged or outcome.page is None:
        return _say(outcome.reply or texts.CALL_GONE)
    page = outcome.page
    await queue_outbound(context.spine, OutboundRequest(  # the details, in writing
        key=keys.page_taken_notice(page.id, person_id), kind=NotificationKind.PAGE, recipient_person_id=person_id,
        property_id=page.property_id, body=outcome.reply, channel=Channel.SMS, urgent=True))
    prop = await context.spine.get_property(page.property_id)
    return _say(texts.call_taken(prop.name if prop else page.property_id))
