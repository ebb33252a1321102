"""Ask Clara (ADR-0022 admin origin): a PM talks to Clara as themselves, or as another person
(a tenant, say) with `impersonated_by` naming the PM. The message goes through the same router
and agent turn as any inbound, on channel `admin` with origin `admin`, and its trace says so."""
from __future__ import annotations

import logging
import uuid
from urllib.parse import parse_qs

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from pydantic import BaseModel, Field, ValidationError, field_validator

from actors.turn_types import TurnResult
from gateway.admin import html as h
from gateway.admin.auth import AdminPageRoute, require_admin, require_admin_page
from gateway.admin.trace_pages import trace_href
from gateway.context import GatewayContext
from gateway.sms.handler import new_interaction_id
from spine.context import Channel
from spine.envelope import MessageEnvelope
from spine.identity import STAFF_ROLE_TYPES
from spine.participants import resolve_participant
from spine.repo import Spine
from tools.caller import authoritative_roles

log = logging.getLogger("clara.admin.ask")
router = APIRouter(route_class=AdminPageRoute)

MAX_MESSAGE_CHARS = 1600
MAX_FORM_BYTES = 16_384


class AskRequest(BaseModel):
    as_person_id: str = Field(min_length=1, max_length=200)
    property_id: str = Field(min_length=1, max_length=200)
    message: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)
    impersonated_by: str | None = Field(default=None, max_length=200)

    @field_validator("as_person_id", "property_id", "impersonated_by", mode="before")
    @classmethod
    def _trim(cls, value: object) -> object:
        return (value.strip() or None) if isinstance(value, str) else value

    @field_validator("message", mode="before")
    @classmethod
    def _strip(cls, value: object) -> object:
        return value.strip() if isinstance(value, str) else value


class AskResponse(BaseModel):
    interaction_id: str
    participant_id: str | None
    reply: str
    suppressed: bool
    origin: str
    impersonated_by: str | None
    roles: list[str]
    trace_url: str


class AskRefused(Exception):
    """The request names something that does not exist or may not impersonate (400)."""


async def _impersonator(spine: Spine, ask: AskRequest) -> str | None:
    """The PM's person id when impersonating (None when acting as themselves); only staff at the
    property may impersonate."""
    if ask.impersonated_by is None or ask.impersonated_by == ask.as_person_id:
        return None
    if await spine.get_person(ask.impersonated_by) is None:
        raise AskRefused(f"no person {ask.impersonated_by!r} (impersonated_by)")
    roles = await authoritative_roles(spine, ask.impersonated_by, ask.property_id)
    if not any(r.role_type in STAFF_ROLE_TYPES for r in roles):
        raise AskRefused(f"{ask.impersonated_by} has no staff role at {ask.property_id}; only staff may impersonate")
    return ask.impersonated_by


async def build_envelope(spine: Spine, ask: AskRequest) -> MessageEnvelope:
    """The admin-origin envelope: from the asking person's phone to the property's SMS number."""
    prop = await spine.get_property(ask.property_id)
    if prop is None:
        raise AskRefused(f"no property {ask.property_id!r}")
    person = await spine.get_person(ask.as_person_id)
    if person is None:
        raise AskRefused(f"no person {ask.as_person_id!r}")
    phones = person.phones()
    if not phones:
        raise AskRefused(f"{person.id} has no phone claim, so Clara cannot resolve them on the admin channel")
    impersonator = await _impersonator(spine, ask)
    return MessageEnvelope(
        message_id=f"admin_{uuid.uuid4().hex}", interaction_id=new_interaction_id(), channel=Channel.ADMIN,
        from_address=phones[0], to_address=prop.sms_number or prop.voice_number or "", body=ask.message,
        property_id=prop.id, participant_id=await resolve_participant(spine, Channel.ADMIN, phones[0]),
        origin="admin", impersonated_by=impersonator,
    )


async def ask_clara(ctx: GatewayContext, ask: AskRequest) -> AskResponse:
    """Run one admin-origin turn. Raises AskRefused (400) or HTTPException 503 when no reply came."""
    envelope = await build_envelope(ctx.spine, ask)
    try:
        result: TurnResult = await ctx.pool.submit(envelope)
    except Exception as exc:  # noqa: BLE001 - any runtime failure is reported, never a 500
        log.error("ask clara %s failed: %s", envelope.interaction_id, exc)
        raise HTTPException(503, f"Clara could not answer ({type(exc).__name__}: {exc}); "
                                 f"interaction {envelope.interaction_id}") from exc
    t = result.trace
    return AskResponse(interaction_id=result.interaction_id, participant_id=result.person_id, reply=result.reply,
                       suppressed=result.suppressed, origin=t.origin, impersonated_by=t.impersonated_by,
                       roles=list(t.routing.roles), trace_url=trace_href(result.interaction_id))


@router.post("/api/ask")
async def ask_json(ask: AskRequest, ctx: GatewayContext = Depends(require_admin)) -> AskResponse:
    try:
        return await ask_clara(ctx, ask)
    except AskRefused as exc:
        raise HTTPException(400, str(exc)) from None


def _field(label: str, name: str, value: str | None, **attrs: object) -> h.Safe:
    return h.tag("label", label, h.tag("input", name=name, value=value or "", **attrs))


async def ask_form(ctx: GatewayContext, values: dict[str, str]) -> h.Safe:
    chosen = values.get("property_id")
    options = [h.tag("option", f"{p.name} ({p.id})", value=p.id, selected=p.id == chosen)
               for p in await ctx.spine.list_properties()]
    return h.tag(
        "form",
        h.tag("div", _field("as person id", "as_person_id", values.get("as_person_id"), required=True,
                            placeholder="p_marcus"),
              h.tag("label", "property", h.tag("select", *options, name="property_id")),
              _field("impersonated by (your person id, when impersonating)", "impersonated_by",
                     values.get("impersonated_by"), placeholder="p_priya", size=34), class_="inline"),
        h.tag("label", "message", h.tag("textarea", values.get("message") or "", name="message", required=True,
                                        maxlength=MAX_MESSAGE_CHARS)),
        h.tag("p", h.tag("button", "Ask Clara", type="submit")),
        method="post", action="/admin/ask",
    )


@router.get("/ask", include_in_schema=False)
async def ask_page(request: Request, ctx: GatewayContext = Depends(require_admin_page)) -> Response:
    intro = h.tag("p", "Send a message through the same router and agent turn as any inbound (channel admin, "
                       "origin admin). To impersonate, put the person's id above and your own below.", class_="muted")
    return h.page("Ask Clara", intro, await ask_form(ctx, dict(request.query_params)))


def _answer(answer: AskResponse) -> h.Safe:
    who = (f"impersonated by {answer.impersonated_by}" if answer.impersonated_by else "as themselves")
    return h.card("Clara's reply", h.tag("pre", answer.reply or "— (reply suppressed)"), h.kv_table([
        ("interaction", h.link(answer.trace_url, answer.interaction_id)), ("participant", answer.participant_id or "—"),
        ("roles", h.join(h.pill(r) for r in answer.roles)), ("origin", f"{answer.origin}, {who}"),
    ]))


@router.post("/ask", include_in_schema=False)
async def ask_submit(request: Request, ctx: GatewayContext = Depends(require_admin_page)) -> Response:
    body = await request.body()
    if len(body) > MAX_FORM_BYTES:
        return h.page("Ask Clara", h.tag("div", "form too large", class_="alarm"), status_code=413)
    values = {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True).items()}
    try:
        ask = AskRequest.model_validate({k: v for k, v in values.items() if k in AskRequest.model_fields})
        answer = await ask_clara(ctx, ask)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        return h.page("Ask Clara", h.tag("div", problems, class_="alarm"), await ask_form(ctx, values), status_code=400)
    except AskRefused as exc:
        return h.page("Ask Clara", h.tag("div", str(exc), class_="alarm"), await ask_form(ctx, values), status_code=400)
    except HTTPException as exc:
        return h.page("Ask Clara", h.tag("div", exc.detail, class_="alarm"), await ask_form(ctx, values),
                      status_code=exc.status_code)
    return h.page("Ask Clara", _answer(answer), await ask_form(ctx, values))
