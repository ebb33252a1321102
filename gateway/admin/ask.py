"""Ask Clara (ADR-0022 admin origin): a PM talks to Clara as themselves, or as another person
(a tenant, say). Who is acting is the signed-in identity, never a field of the request: asking as
anyone else is impersonation, recorded as `impersonated_by` = the signed-in identity (a staff
Person's id, or `operator`). Staff ask only at a property in their scope and act only as a person
within it (403 otherwise); an impersonated turn can never do more than the impersonator may: the
tool gate derives both authorities from the store and allows only what both may (tools/gate.py).
The operator is not capped. The message goes through the same router and agent turn as any
inbound, on channel `admin` with origin `admin`, and its trace says so."""
from __future__ import annotations

import logging
import uuid
from typing import Annotated
from urllib.parse import parse_qs

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from pydantic import BaseModel, Field, StringConstraints, ValidationError, field_validator

import gateway.admin.html as html
from actors.protocol.turn import TurnResult
from desk.console.admin_scope import AdminScope
from gateway.admin.auth import (
    AdminIdentity,
    AdminPageRoute,
    require_admin,
    require_admin_page,
    signed_in,
    signed_in_scope,
)
from gateway.admin.trace_pages import trace_href
from gateway.channel_inbound import new_interaction_id
from gateway.context import GatewayContext
from gateway.errors import GatewayError
from spine.context import Channel
from spine.envelope import MessageEnvelope
from spine.participants import resolve_participant
from spine.repo import Spine

log = logging.getLogger("clara.admin.ask")
router = APIRouter(route_class=AdminPageRoute)

MAX_MESSAGE_CHARS = 1600
MAX_FORM_BYTES = 16_384


class AskRequest(BaseModel):
    as_person_id: str = Field(min_length=1, max_length=200)
    property_id: str = Field(min_length=1, max_length=200)
    message: Annotated[str, StringConstraints(strip_whitespace=True)] = Field(min_length=1,
                                                                          max_length=MAX_MESSAGE_CHARS)
    # Optional, and only ever the signed-in identity: a request naming anyone else is refused.
    impersonated_by: str | None = Field(default=None, max_length=200)

    @field_validator("as_person_id", "property_id", "impersonated_by", mode="before")
    @classmethod
    def _trim(cls, value: object) -> object:
        return (value.strip() or None) if isinstance(value, str) else value


class AskResponse(BaseModel):
    interaction_id: str
    participant_id: str | None
    reply: str
    suppressed: bool
    origin: str
    impersonated_by: str | None
    roles: list[str]
    trace_url: str


class AskRefused(GatewayError):
    """The request names something that does not exist, or an impersonator other than the signed-in identity (400)."""


class AskForbidden(GatewayError):
    """The signed-in identity may not ask at that property, or as that person: outside its scope (403)."""


def _impersonator(ask: AskRequest, identity: AdminIdentity) -> str | None:
    """None when the signed-in staff Person asks as themselves; else the signed-in identity."""
    if ask.impersonated_by is not None and ask.impersonated_by != identity.id:
        raise AskRefused(f"impersonated_by is always the signed-in identity ({identity.id}), "
                         f"not {ask.impersonated_by!r}")
    if not identity.is_operator and ask.as_person_id == identity.id:
        return None
    return identity.id


async def _in_scope(spine: Spine, ask: AskRequest, identity: AdminIdentity, scope: AdminScope) -> None:
    """Staff ask only at a property in their scope, and act only as a person within it: someone
    whose roles reach only properties in scope (so their context and records show nothing
    outside it). Checked before anything is looked up, so a refusal reads the same whether the
    property or person exists or not."""
    if not scope.sees(ask.property_id):
        raise AskForbidden(f"{ask.property_id} is not a property within {identity.id}'s scope; staff ask Clara "
                           "only at the properties their roles cover")
    if ask.as_person_id != identity.id and not await scope.covers_person(spine, ask.as_person_id):
        raise AskForbidden(f"{ask.as_person_id} is not a person within {identity.id}'s scope; staff may act only "
                           "as people whose roles reach no property outside their own")


async def build_envelope(spine: Spine, ask: AskRequest, identity: AdminIdentity, scope: AdminScope) -> MessageEnvelope:
    """The admin-origin envelope: from the asking person's phone to the property's SMS number.
    An impersonated turn carries the impersonator, and the tool gate caps it by their authority."""
    impersonator = _impersonator(ask, identity)
    await _in_scope(spine, ask, identity, scope)
    prop = await spine.get_property(ask.property_id)
    if prop is None:
        raise AskRefused(f"no property {ask.property_id!r}")
    person = await spine.get_person(ask.as_person_id)
    if person is None:
        raise AskRefused(f"no person {ask.as_person_id!r}")
    phones = person.phones()
    if not phones:
        raise AskRefused(f"{person.id} has no phone claim, so Clara cannot resolve them on the admin channel")
    return MessageEnvelope(
        message_id=f"admin_{uuid.uuid4().hex}", interaction_id=new_interaction_id(), channel=Channel.ADMIN,
        from_address=phones[0], to_address=prop.sms_number or prop.voice_number or "", body=ask.message,
        property_id=prop.id, participant_id=await resolve_participant(spine, Channel.ADMIN, phones[0]),
        origin="admin", impersonated_by=impersonator,
    )


async def ask_clara(ctx: GatewayContext, ask: AskRequest, identity: AdminIdentity, scope: AdminScope) -> AskResponse:
    """Run one admin-origin turn. Raises AskRefused (400), AskForbidden (403) or HTTPException 503
    when no reply came."""
    envelope = await build_envelope(ctx.spine, ask, identity, scope)
    try:
        result: TurnResult = await ctx.pool.submit(envelope)
    except Exception as exc:  # any runtime failure is reported, never a 500
        log.error("ask clara %s failed: %s", envelope.interaction_id, exc)
        raise HTTPException(503, f"Clara could not answer ({type(exc).__name__}: {exc}); "
                                 f"interaction {envelope.interaction_id}") from exc
    t = result.trace
    return AskResponse(interaction_id=result.interaction_id, participant_id=result.person_id, reply=result.reply,
                       suppressed=result.suppressed, origin=t.origin, impersonated_by=t.impersonated_by,
                       roles=list(t.routing.roles), trace_url=trace_href(result.interaction_id))


@router.post("/api/ask")
async def ask_json(ask: AskRequest, request: Request, ctx: GatewayContext = Depends(require_admin)) -> AskResponse:
    try:
        return await ask_clara(ctx, ask, signed_in(request), await signed_in_scope(ctx, request))
    except AskRefused as exc:
        raise HTTPException(400, str(exc)) from None
    except AskForbidden as exc:
        raise HTTPException(403, str(exc)) from None


def _field(label: str, name: str, value: str | None, **attrs: object) -> html.Safe:
    return html.tag("label", label, html.tag("input", name=name, value=value or "", **attrs))


async def ask_form(ctx: GatewayContext, values: dict[str, str], identity: AdminIdentity, scope: AdminScope) -> html.Safe:
    """The form; its property list holds only the properties in the signed-in scope."""
    chosen = values.get("property_id")
    options = [html.tag("option", f"{p.name} ({p.id})", value=p.id, selected=p.id == chosen)
               for p in await ctx.spine.list_properties() if scope.sees(p.id)]
    return html.tag(
        "form",
        html.tag("div", _field("as person id", "as_person_id", values.get("as_person_id"), required=True,
                               placeholder="p_marcus"),
                 html.tag("label", "property", html.tag("select", *options, name="property_id")), class_="inline"),
        html.tag("p", f"Signed in as {identity.id}: asking as anyone else is recorded as impersonated by "
                   f"{identity.id}.", class_="muted"),
        html.tag("label", "message", html.tag("textarea", values.get("message") or "", name="message", required=True,
                                              maxlength=MAX_MESSAGE_CHARS)),
        html.tag("p", html.tag("button", "Ask Clara", type="submit")),
        method="post", action="/admin/ask",
    )


@router.get("/ask", include_in_schema=False)
async def ask_page(request: Request, ctx: GatewayContext = Depends(require_admin_page)) -> Response:
    intro = html.tag("p", "Send a message through the same router and agent turn as any inbound (channel admin, "
                       "origin admin), as yourself or as the person named.", class_="muted")
    form = await ask_form(ctx, dict(request.query_params), signed_in(request), await signed_in_scope(ctx, request))
    return html.page("Ask Clara", intro, form)


def _answer(answer: AskResponse) -> html.Safe:
    who = (f"impersonated by {answer.impersonated_by}" if answer.impersonated_by else "as themselves")
    return html.card("Clara's reply", html.tag("pre", answer.reply or "— (reply suppressed)"), html.kv_table([
        ("interaction", html.link(answer.trace_url, answer.interaction_id)), ("participant", answer.participant_id or "—"),
        ("roles", html.join(html.pill(r) for r in answer.roles)), ("origin", f"{answer.origin}, {who}"),
    ]))


@router.post("/ask", include_in_schema=False)
async def ask_submit(request: Request, ctx: GatewayContext = Depends(require_admin_page)) -> Response:
    body = await request.body()
    if len(body) > MAX_FORM_BYTES:
        return html.page("Ask Clara", html.tag("div", "form too large", class_="alarm"), status_code=413)
    values = {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True).items()}
    identity, scope = signed_in(request), await signed_in_scope(ctx, request)
    try:
        ask = AskRequest.model_validate({k: v for k, v in values.items() if k in AskRequest.model_fields})
        answer = await ask_clara(ctx, ask, identity, scope)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        return await _refused(ctx, values, identity, scope, problems, 400)
    except AskRefused as exc:
        return await _refused(ctx, values, identity, scope, str(exc), 400)
    except AskForbidden as exc:
        return await _refused(ctx, values, identity, scope, str(exc), 403)
    except HTTPException as exc:
        return await _refused(ctx, values, identity, scope, exc.detail, exc.status_code)
    return html.page("Ask Clara", _answer(answer), await ask_form(ctx, values, identity, scope))


async def _refused(ctx: GatewayContext, values: dict[str, str], identity: AdminIdentity, scope: AdminScope,
                   why: str, status: int) -> Response:
    return html.page("Ask Clara", html.tag("div", why, class_="alarm"), await ask_form(ctx, values, identity, scope),
                     status_code=status)
