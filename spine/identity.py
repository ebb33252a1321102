"""Person and PersonRole: the identity data model the router keys on (ADR-0029, ADR-0020)."""
from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field


def utcnow() -> datetime:
    return datetime.now(UTC)


class ClaimKind(StrEnum):
    PHONE = "phone"
    EMAIL = "email"
    TELEGRAM = "telegram"


class Claim(BaseModel):
    """A wire address that belongs to a Person. Phones are stored E.164."""

    kind: ClaimKind
    value: str


class PersonCategory(StrEnum):
    RANDOM_CALLER = "random_caller"
    WRONG_NUMBER = "wrong_number"
    ADVERTISER = "advertiser"
    SPAM = "spam"
    WRONG_PROPERTY = "wrong_property"
    UNCLASSIFIED = "unclassified"


class Person(BaseModel):
    id: str
    display_name: str
    claims: list[Claim] = Field(default_factory=list)
    category: PersonCategory | None = None
    deceased: bool = False
    language: str | None = None  # as the property-management system records it ("en", "es")
    merged_into_person_id: str | None = None
    created_at: datetime = Field(default_factory=utcnow)

    def phones(self) -> list[str]:
        return [c.value for c in self.claims if c.kind == ClaimKind.PHONE]


def carries_authority(person: Person | None) -> bool:
    """A deceased Person, a merged-away one, or one classified as spam / wrong number carries
    none, whatever role rows still exist (the tool gate and the admin scope both ask this)."""
    return person is not None and not person.deceased and not person.merged_into_person_id and person.category is None


class PersonRoleType(StrEnum):
    """The nine role types of ADR-0020. The tool matrix keys on these."""

    TENANT = "tenant"
    PROSPECT = "prospect"
    PM = "pm"
    ORG_ADMIN = "org_admin"
    LEASING_AGENT = "leasing_agent"
    MAINTENANCE = "maintenance"
    VIEWER = "viewer"
    PLATFORM_ADMIN = "platform_admin"
    VENDOR_CONTACT = "vendor_contact"


STAFF_ROLE_TYPES: frozenset[PersonRoleType] = frozenset(
    {
        PersonRoleType.PM,
        PersonRoleType.ORG_ADMIN,
        PersonRoleType.LEASING_AGENT,
        PersonRoleType.MAINTENANCE,
        PersonRoleType.VIEWER,
        PersonRoleType.PLATFORM_ADMIN,
    }
)


class PersonRoleSource(StrEnum):
    PHASE6A_BACKFILL = "phase6a-backfill"
    AUTH_HOOK = "auth-hook"
    MANUAL_PM = "manual_pm"
    PMS_SYNC = "pms_sync"
    ROUTER_MINT = "router_mint"


VERIFIED_SOURCES: frozenset[PersonRoleSource] = frozenset(
    {
        PersonRoleSource.PHASE6A_BACKFILL,
        PersonRoleSource.AUTH_HOOK,
        PersonRoleSource.MANUAL_PM,
        PersonRoleSource.PMS_SYNC,
    }
)


class OccupancyKind(StrEnum):
    PRIMARY = "primary"
    ROOMMATE = "roommate"
    GUARANTOR = "guarantor"


class RoleScope(BaseModel):
    """Where a role applies. A tenant role names its unit and occupancy kind; a
    vendor_contact names its vendor (vendor roles are vendor-scoped, not org-scoped);
    staff roles name their org."""

    model_config = ConfigDict(frozen=True)

    org_id: str | None = None
    property_id: str | None = None
    unit_id: str | None = None
    occupancy: OccupancyKind | None = None
    vendor_id: str | None = None


class PersonRole(BaseModel):
    # Frozen: a role read from the store is shared (the gate trusts a Caller's roles while they
    # are the very objects load_caller read); a change is a new role, written through the Spine.
    model_config = ConfigDict(frozen=True)

    id: str
    person_id: str
    role_type: PersonRoleType
    source: PersonRoleSource
    scope: RoleScope = Field(default_factory=RoleScope)
    active: bool = True
    created_at: datetime = Field(default_factory=utcnow)

    @property
    def verified(self) -> bool:
        return self.source in VERIFIED_SOURCES
