"""One pydantic model per portfolio file: a CSV row once its cells are parsed (desk.portfolio.files
says which parser reads which column). References (`organization`, `unit`, `person` ...) are the
other file's external ids, resolved by the planner."""
from __future__ import annotations

from datetime import date

from pydantic import BaseModel, Field

from spine.identity import OccupancyKind
from spine.work import WorkOrderStatus


class Row(BaseModel):
    external_id: str


class OrganizationRow(Row):
    name: str


class PropertyRow(Row):
    organization: str
    name: str
    phone: str | None = None
    email: str | None = None
    timezone: str = "America/Los_Angeles"
    address: str = ""


class UnitRow(Row):
    property: str
    name: str
    bedrooms: int
    bathrooms: float = 1
    rent_usd: int
    available_on: date | None = None


class PersonRow(Row):
    first_name: str = ""
    last_name: str = ""
    phone: str | None = None
    email: str | None = None
    language: str | None = None
    deceased: bool = False

    @property
    def display_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


class ResidentRow(Row):
    person: str
    unit: str
    kind: OccupancyKind = OccupancyKind.PRIMARY
    move_in: date | None = None
    move_out: date | None = None


class StaffRow(Row):
    person: str
    role: str
    organization: str | None = None
    properties: list[str] = Field(default_factory=list)  # empty: org-wide


class VendorRow(Row):
    name: str
    phone: str | None = None
    email: str | None = None
    trades: list[str] = Field(default_factory=list)
    properties: list[str] = Field(default_factory=list)


class VendorContactRow(Row):
    vendor: str
    person: str


class WorkOrderRow(Row):
    display_id: str | None = None  # WO-<n>; empty: numbered from the gateway's sequence
    property: str
    unit: str | None = None
    brief: str
    description: str = ""
    status: WorkOrderStatus = WorkOrderStatus.OPEN
    priority: str = "normal"
    vendor: str | None = None
    reporter: str | None = None


class OnCallRow(Row):
    """oncall.csv has no external id: a row is keyed by (property, level, person)."""

    property: str
    level: int
    person: str
    ack_timeout_s: int | None = None
    repeats: int | None = None
