"""Facility catalog: per-property facts, for every caller (unknown ones too). Read-only."""
from __future__ import annotations

from pydantic import BaseModel

from spine.property import ParkingRules, PetPolicy, PoolStatus, Property
from tools.handlers.base import HandlerContext, Tool, ToolFailure
from tools.schema import ToolInput


class NoInput(ToolInput):
    pass


async def _property(ctx: HandlerContext) -> Property:
    prop = await ctx.spine.get_property(ctx.target.property_id or ctx.caller.property_id)
    if prop is None:
        raise ToolFailure("this property is not on file")
    return prop


class AmenitiesOut(BaseModel):
    property_name: str
    amenities: list[str]


async def get_property_amenities(ctx: HandlerContext, args: NoInput) -> AmenitiesOut:
    prop = await _property(ctx)
    return AmenitiesOut(property_name=prop.name, amenities=prop.facility.amenities)


class HoursOut(BaseModel):
    office_hours: str
    pool_hours: str | None
    gym_hours: str | None
    quiet_hours: str | None
    timezone: str


async def get_property_hours(ctx: HandlerContext, args: NoInput) -> HoursOut:
    prop = await _property(ctx)
    f = prop.facility
    return HoursOut(office_hours=f.office_hours, pool_hours=f.pool_hours, gym_hours=f.gym_hours,
                    quiet_hours=f.quiet_hours, timezone=prop.timezone)


async def get_pet_policy(ctx: HandlerContext, args: NoInput) -> PetPolicy:
    return (await _property(ctx)).facility.pet_policy


class ParkingOut(BaseModel):
    available: bool
    rules: ParkingRules | None


async def get_parking_rules(ctx: HandlerContext, args: NoInput) -> ParkingOut:
    parking = (await _property(ctx)).facility.parking
    return ParkingOut(available=parking is not None, rules=parking)


class PoolOut(BaseModel):
    has_pool: bool
    status: PoolStatus | None


async def get_pool_status(ctx: HandlerContext, args: NoInput) -> PoolOut:
    status = (await _property(ctx)).facility.pool_status
    return PoolOut(has_pool=status is not None, status=status)


TOOLS = [
    Tool("get_property_amenities", "Amenities at this property.", NoInput, get_property_amenities),
    Tool("get_property_hours", "Office, pool, gym and quiet hours at this property.", NoInput, get_property_hours),
    Tool("get_pet_policy", "Pet policy: allowed species, deposit, pet rent, restrictions.", NoInput, get_pet_policy),
    Tool("get_parking_rules", "Parking: spots, monthly cost, guest parking, towing.", NoInput, get_parking_rules),
    Tool("get_pool_status", "Whether the pool is open right now, and why not.", NoInput, get_pool_status),
]
