"""Organizations, properties, units, leases, vendors: the facts that scopes are checked against."""
from __future__ import annotations

from datetime import date

from pydantic import BaseModel, Field


class Organization(BaseModel):
    id: str
    name: str


class PetPolicy(BaseModel):
    allowed: bool
    species: list[str] = Field(default_factory=list)
    deposit_usd: int = 0
    monthly_pet_rent_usd: int = 0
    restrictions: str = ""


class ParkingRules(BaseModel):
    spots: int
    monthly_cost_usd: int
    guest_parking: str
    towing_policy: str


class PoolStatus(BaseModel):
    open: bool
    reason: str | None = None


class FacilityFacts(BaseModel):
    """Per-property facts. They reach Clara through facility tools, never L2 prose."""

    amenities: list[str] = Field(default_factory=list)
    office_hours: str = ""
    pool_hours: str | None = None
    gym_hours: str | None = None
    quiet_hours: str | None = None
    pet_policy: PetPolicy = Field(default_factory=lambda: PetPolicy(allowed=False))
    parking: ParkingRules | None = None
    pool_status: PoolStatus | None = None


class Property(BaseModel):
    id: str
    org_id: str
    name: str
    address: str = ""
    sms_number: str | None = None
    voice_number: str | None = None
    # The address tenants email (Mailgun routes it to /email/inbound) and the Telegram bot (its
    # numeric id, the part of the bot token before ':') that answers for this property.
    email: str | None = None
    telegram_bot_id: str | None = None
    timezone: str = "America/Los_Angeles"
    facility: FacilityFacts = Field(default_factory=FacilityFacts)


class Appliance(BaseModel):
    kind: str
    brand: str
    model: str = ""
    installed: date | None = None


class Unit(BaseModel):
    id: str
    property_id: str
    number: str
    bedrooms: int
    bathrooms: float = 1
    square_feet: int | None = None
    monthly_rent_usd: int
    available_from: date | None = None  # set only while the unit is on the market
    appliances: list[Appliance] = Field(default_factory=list)
    active: bool = True  # False: the property-management system no longer lists it

    @property
    def available(self) -> bool:
        """On the market: the only units prospects may price, see or tour."""
        return self.active and self.available_from is not None


class Lease(BaseModel):
    id: str
    unit_id: str
    start: date
    end: date
    monthly_rent_usd: int
    balance_usd: float = 0.0
    deposit_usd: int = 0


class Vendor(BaseModel):
    """Org-independent: one vendor may service properties of several organizations."""

    id: str
    name: str
    trade: str
    in_house: bool = False
    services_property_ids: list[str] = Field(default_factory=list)
    phone: str | None = None  # the company's own number (E.164): not a Person's claim
    email: str | None = None
    active: bool = True  # False: the property-management system no longer lists it
