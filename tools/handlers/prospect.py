"""Prospect catalog: qualification, tours, application links, availability and pricing."""
from __future__ import annotations

import secrets
from datetime import date, datetime
from zoneinfo import ZoneInfo

from pydantic import BaseModel, Field

from desk.followups.plans import plan_tour
from spine.escalation import ApplicationLink
from spine.notification import Notification
from spine.property import Property, Unit
from spine.work import Prospect, Tour
from tools.handlers.base import HandlerContext, Tool, ToolFailure
from tools.schema import ToolInput

# Where application links point. A fixed public form; the ref token ties a submission to the prospect.
APPLY_BASE_URL = "https://apply.clara.example"


async def _property(ctx: HandlerContext) -> Property:
    prop = await ctx.spine.get_property(ctx.caller.property_id)
    if prop is None:
        raise ToolFailure(f"property {ctx.caller.property_id} is not on file")
    return prop


async def _prospect(ctx: HandlerContext) -> Prospect:
    person_id = ctx.caller.person_id or ""
    return await ctx.spine.get_prospect(person_id, ctx.caller.property_id) or \
        Prospect(person_id=person_id, property_id=ctx.caller.property_id)


class SaveProspectIn(ToolInput):
    bedrooms: int | None = Field(None, ge=0, le=6)
    move_in: date | None = Field(None, description="Desired move-in date, YYYY-MM-DD")
    budget_usd: int | None = Field(None, ge=0, le=100000, description="Monthly budget")
    name: str | None = Field(None, max_length=120)
    notes: str | None = Field(None, max_length=1000)


async def save_prospect(ctx: HandlerContext, args: SaveProspectIn) -> Prospect:
    prospect = await _prospect(ctx)
    for field in ("bedrooms", "move_in", "budget_usd"):
        if getattr(args, field) is not None:
            setattr(prospect, field, getattr(args, field))
    if args.notes:
        prospect.notes = f"{prospect.notes}\n{args.notes}".strip()
    if prospect.stage == "inquiry" and prospect.bedrooms is not None and prospect.move_in is not None:
        prospect.stage = "qualified"
    prospect.updated_at = ctx.spine.clock()
    await ctx.spine.put_prospect(prospect)
    if args.name:
        person = await ctx.spine.get_person(prospect.person_id)
        if person is not None and person.display_name != args.name:
            person.display_name = args.name
            await ctx.spine.put_person(person)
    return prospect


async def _available_unit(ctx: HandlerContext, number: str) -> Unit:
    """The available unit of that number. An occupied unit and one that does not exist get the
    same answer, so a prospect learns nothing about who lives where."""
    for unit in await ctx.spine.units_of(ctx.caller.property_id):
        if unit.number == number.strip().lstrip("#") and unit.available:
            return unit
    raise ToolFailure(f"unit {number.strip()[:16]} is not one of the available units here; "
                      "get_available_units lists them")


class TourIn(ToolInput):
    when: datetime = Field(description="Tour time, ISO 8601 (property local time if no offset)")
    unit: str | None = Field(None, max_length=16, description="Unit number to see, if any")


class TourOut(BaseModel):
    tour_id: str
    scheduled_at: datetime
    unit: str | None
    property_name: str
    address: str
    # The reminders, no-show follow-up and application link planned (kind `followup`): the trace lists them.
    notifications: list[Notification] = Field(default_factory=list)


async def schedule_tour(ctx: HandlerContext, args: TourIn) -> TourOut:
    prop = await _property(ctx)
    when = args.when if args.when.tzinfo else args.when.replace(tzinfo=ZoneInfo(prop.timezone))
    if when <= ctx.spine.clock():
        raise ToolFailure(f"{when.isoformat()} is in the past; pick a future time")
    unit = await _available_unit(ctx, args.unit) if args.unit else None
    tour = Tour(id=f"tour_{secrets.token_hex(6)}", prospect_person_id=ctx.caller.person_id or "",
                property_id=prop.id, unit_id=unit.id if unit else None, scheduled_at=when)
    await ctx.spine.put_tour(tour)
    planned = await plan_tour(ctx.spine, tour, now=ctx.spine.clock(), interaction_id=ctx.caller.interaction_id)
    prospect = await _prospect(ctx)
    prospect.stage, prospect.updated_at = "touring", ctx.spine.clock()
    await ctx.spine.put_prospect(prospect)
    return TourOut(tour_id=tour.id, scheduled_at=when, unit=unit.number if unit else None,
                   property_name=prop.name, address=prop.address, notifications=planned)


class ApplicationIn(ToolInput):
    email: str | None = Field(None, max_length=200, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


class ApplicationOut(BaseModel):
    url: str
    email: str | None


async def send_application_link(ctx: HandlerContext, args: ApplicationIn) -> ApplicationOut:
    token = secrets.token_urlsafe(9)
    link = ApplicationLink(id=token, person_id=ctx.caller.person_id or "", property_id=ctx.caller.property_id,
                           url=f"{APPLY_BASE_URL}/{ctx.caller.property_id}?ref={token}", email=args.email)
    await ctx.spine.put_application_link(link)
    return ApplicationOut(url=link.url, email=link.email)


class AvailableIn(ToolInput):
    bedrooms: int | None = Field(None, ge=0, le=6)
    move_in_by: date | None = Field(None, description="Latest acceptable availability date, YYYY-MM-DD")


class UnitOffer(BaseModel):
    unit: str
    bedrooms: int
    bathrooms: float
    square_feet: int | None
    monthly_rent_usd: int
    available_from: date | None


class AvailableOut(BaseModel):
    property_name: str
    units: list[UnitOffer]


def _offer(unit: Unit) -> UnitOffer:
    return UnitOffer(unit=unit.number, bedrooms=unit.bedrooms, bathrooms=unit.bathrooms,
                     square_feet=unit.square_feet, monthly_rent_usd=unit.monthly_rent_usd,
                     available_from=unit.available_from)


async def get_available_units(ctx: HandlerContext, args: AvailableIn) -> AvailableOut:
    prop = await _property(ctx)
    units = [u for u in await ctx.spine.units_of(prop.id) if u.available
             and (args.bedrooms is None or u.bedrooms == args.bedrooms)
             and (args.move_in_by is None or (u.available_from is not None and u.available_from <= args.move_in_by))]
    units.sort(key=lambda u: (u.available_from, u.number))
    return AvailableOut(property_name=prop.name, units=[_offer(u) for u in units])


class PricingIn(ToolInput):
    bedrooms: int | None = Field(None, ge=0, le=6)
    unit: str | None = Field(None, max_length=16)


class PricingOut(BaseModel):
    units: list[UnitOffer]
    pet_deposit_usd: int | None
    monthly_pet_rent_usd: int | None
    monthly_parking_usd: int | None


async def get_pricing_details(ctx: HandlerContext, args: PricingIn) -> PricingOut:
    prop = await _property(ctx)
    if args.unit:
        units = [await _available_unit(ctx, args.unit)]
    else:
        units = [u for u in await ctx.spine.units_of(prop.id) if u.available
                 and (args.bedrooms is None or u.bedrooms == args.bedrooms)]
    pets = prop.facility.pet_policy
    return PricingOut(units=[_offer(u) for u in units],
                      pet_deposit_usd=pets.deposit_usd if pets.allowed else None,
                      monthly_pet_rent_usd=pets.monthly_pet_rent_usd if pets.allowed else None,
                      monthly_parking_usd=prop.facility.parking.monthly_cost_usd if prop.facility.parking else None)


TOOLS = [
    Tool("save_prospect", "Save what the prospect told us: bedrooms, move-in date, budget, name, notes.",
         SaveProspectIn, save_prospect),
    Tool("schedule_tour", "Book a tour of the property (optionally a unit) for the prospect.", TourIn, schedule_tour),
    Tool("send_application_link", "Create the prospect's rental application link.",
         ApplicationIn, send_application_link),
    Tool("get_available_units", "Units available to rent, optionally by bedrooms and move-in date.",
         AvailableIn, get_available_units),
    Tool("get_pricing_details", "Rent for available units (or one unit), plus pet and parking costs.",
         PricingIn, get_pricing_details),
]
