"""Buildium's records at the wire, typed: the fields the mapping reads, named as Buildium's Open
API names them (RentalMessage, RentalUnitMessage, ListingMessage, LeaseMessage, TenantMessage,
VendorMessage). Fields the mapping does not read are ignored, so a field Buildium adds later
breaks nothing; a field it reads with the wrong type fails that record, not the sync."""
from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Wire(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class PostalAddress(Wire):
    AddressLine1: str | None = None
    AddressLine2: str | None = None
    City: str | None = None
    State: str | None = None
    PostalCode: str | None = None

    def line(self) -> str:
        parts = [self.AddressLine1, self.AddressLine2, self.City, " ".join(p for p in (self.State, self.PostalCode) if p)]
        return ", ".join(p for p in parts if p)


class PhoneNumber(Wire):
    Number: str | None = None
    Type: str = "NotSet"


class Rental(Wire):
    Id: int
    Name: str | None = None
    IsActive: bool = True
    Address: PostalAddress | None = None


class RentalUnit(Wire):
    Id: int
    PropertyId: int
    UnitNumber: str | None = None
    MarketRent: float | None = None
    UnitBedrooms: str | None = None
    UnitBathrooms: str | None = None
    IsUnitListed: bool | None = None
    IsUnitOccupied: bool | None = None


class ListingUnit(Wire):
    Id: int


class Listing(Wire):
    Rent: float | None = None
    AvailableDate: date | None = None
    Unit: ListingUnit | None = None


LeaseStatus = Literal["Active", "Past", "Future"]
TenantStatus = Literal["MovedOut", "Current", "Future"]


class LeaseTenant(Wire):
    Id: int
    Status: TenantStatus = "Current"
    MoveInDate: date | None = None


class MoveOut(Wire):
    TenantId: int
    MoveOutDate: date | None = None


class LeaseAccount(Wire):
    SecurityDeposit: float | None = None
    Rent: float | None = None


class Lease(Wire):
    Id: int
    PropertyId: int
    UnitId: int
    LeaseStatus: LeaseStatus
    LeaseFromDate: date | None = None
    LeaseToDate: date | None = None
    LastUpdatedDateTime: datetime | None = None
    Tenants: list[LeaseTenant] | None = None
    MoveOutData: list[MoveOut] | None = None
    AccountDetails: LeaseAccount | None = None


class Tenant(Wire):
    Id: int
    FirstName: str | None = None
    LastName: str | None = None
    Email: str | None = None
    PhoneNumbers: list[PhoneNumber] | None = None
    SMSOptInStatus: str | None = None


class Lookup(Wire):
    Id: int = 0
    Name: str | None = None


class Vendor(Wire):
    Id: int
    IsActive: bool = True
    IsCompany: bool = False
    FirstName: str | None = None
    LastName: str | None = None
    CompanyName: str | None = None
    PrimaryEmail: str | None = None
    PhoneNumbers: list[PhoneNumber] | None = None
    Category: Lookup | None = None


class ResidentRequest(Wire):
    """ResidentRequestTaskMessage, as far as write-back reads it."""

    Id: int
    Title: str | None = None
    TaskStatus: str = "New"
    Priority: str = "Normal"
    LastUpdatedDateTime: datetime | None = None


class ResidentRequestPost(BaseModel):
    """ResidentRequestTaskPostMessage: what write-back sends (its five required fields and a description)."""

    model_config = ConfigDict(extra="forbid")
    Title: str = Field(max_length=127)
    Description: str | None = None
    UnitAgreementId: int
    RequestedByEntityId: int
    TaskStatus: Literal["New", "InProgress", "Completed", "Deferred", "Closed"] = "New"
    Priority: Literal["Low", "Normal", "High"] = "Normal"


TaskStatusName = Literal["New", "InProgress", "Completed", "Deferred", "Closed"]
TaskPriorityName = Literal["Low", "Normal", "High"]


class ResidentRequestPut(BaseModel):
    """ResidentRequestTaskPutMessage: a task's status and priority, and a Message added to its history."""

    model_config = ConfigDict(extra="forbid")
    Title: str = Field(max_length=127)
    TaskStatus: TaskStatusName
    Priority: TaskPriorityName
    Message: str | None = None


class WorkOrderTask(Wire):
    Id: int


class BuildiumWorkOrder(Wire):
    """WorkOrderMessage, as far as write-back reads it."""

    Id: int
    Task: WorkOrderTask | None = None
    VendorId: int | None = None


class WorkOrderPost(BaseModel):
    """WorkOrderPostMessage: the vendor's work order on an existing task."""

    model_config = ConfigDict(extra="forbid")
    TaskId: int
    VendorId: int
    EntryAllowed: Literal["Unknown", "Yes", "No"] = "Unknown"
    Title: str | None = Field(default=None, max_length=127)
    WorkDetails: str | None = None


class OutstandingBalance(Wire):
    """LeaseOutstandingBalanceMessage: a lease that owes (a lease not listed owes nothing)."""

    LeaseId: int
    UnitId: int | None = None
    TotalBalance: float = 0.0


class LeaseRenewal(Wire):
    """LeaseRenewalMessage: a renewal offered to the tenants of a lease."""

    Id: int
    LeaseFromDate: date | None = None
    LeaseToDate: date | None = None
    Rent: float | None = None
    TenantIds: list[int] | None = None


class RentalAppliance(Wire):
    """RentalApplianceMessage."""

    Id: int
    UnitId: int | None = None
    Name: str | None = None
    Make: str | None = None
    Model: str | None = None
