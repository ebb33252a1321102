"""Buildium's records -> the portfolio import's rows (source `buildium`; ARCHITECTURE.md, "Buildium,
the property-management system of record").

Rentals are properties (their gateway side, phone, inbound email and zone, from `gateway buildium
link`); rental units are units, on the market only while listed (at the listing's rent and
available date); Active and Future leases give each tenant on them a resident role on the unit (a
tenant MovedOut, or a Past lease, ends it); active vendors serve every property of the account and
their own phone and email are a vendor-contact Person. External ids are Buildium's ids with the
record's kind (`rental-101`, `lease-3001-tenant-5001`), so each Buildium record keeps its row."""
from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel

from desk.pms.batch import Batch
from desk.pms.buildium.records import Lease, Listing, PhoneNumber, Rental, RentalUnit, Tenant, Vendor
from desk.pms.people import Candidate
from desk.pms.run import ORG_REF
from desk.portfolio.files import FileKind
from desk.portfolio.rows import PersonRow, PropertyRow, ResidentRow, UnitRow, VendorContactRow, VendorRow
from spine.identity import OccupancyKind
from spine.phone import InvalidPhoneNumber, normalize_phone_in_region

SOURCE = "buildium"
BEDROOMS = {"Studio": 0, "OneBed": 1, "TwoBed": 2, "ThreeBed": 3, "FourBed": 4, "FiveBed": 5, "SixBed": 6,
            "SevenBed": 7, "EightBed": 8, "NineBedPlus": 9}
BATHROOMS = {"OneBath": 1.0, "OnePointFiveBath": 1.5, "TwoBath": 2.0, "TwoPointFiveBath": 2.5, "ThreeBath": 3.0,
             "ThreePointFiveBath": 3.5, "FourBath": 4.0, "FourPointFiveBath": 4.5, "FiveBath": 5.0,
             "FivePlusBath": 5.0}
# A phone to reach a person by: a mobile first (it takes texts), never a fax.
PHONE_ORDER = {"Cell": 0, "Personal": 1, "Home": 2, "Office": 3, "Other": 4, "NotSet": 5}


class PropertyLink(BaseModel):
    """The gateway's side of a Buildium rental (`gateway buildium link`), kept across syncs."""

    rental_id: int
    phone: str
    email: str | None = None
    timezone: str | None = None


def rental_ext(rental_id: int) -> str:
    return f"rental-{rental_id}"


def unit_ext(unit_id: int) -> str:
    return f"unit-{unit_id}"


def tenant_ext(tenant_id: int) -> str:
    return f"tenant-{tenant_id}"


def vendor_ext(vendor_id: int) -> str:
    return f"vendor-{vendor_id}"


def resident_ext(lease_id: int, tenant_id: int) -> str:
    return f"lease-{lease_id}-tenant-{tenant_id}"


def resident_of(external_id: str, cells: dict[str, str], ids: dict[str, int]) -> bool:
    """Whether a resident row is the role of the lease and/or tenant `ids` names ("LeaseId",
    "TenantId"): what a deleted Buildium record ends."""
    lease, tenant = ids.get("LeaseId"), ids.get("TenantId")
    return (lease is not None or tenant is not None) and \
        (lease is None or external_id.startswith(f"lease-{lease}-tenant-")) and \
        (tenant is None or cells.get("person") == tenant_ext(tenant))


def best_phone(numbers: Iterable[PhoneNumber] | None) -> str | None:
    """The number to reach them on, in E.164 when it reads as one; else its own spelling, which
    the import then reports as unreadable (a bad record, never a silently dropped phone)."""
    usable = sorted((p for p in numbers or [] if p.Number and p.Type != "Fax"), key=lambda p: PHONE_ORDER.get(p.Type, 9))
    for p in usable:
        try:
            return normalize_phone_in_region(p.Number or "", "US")
        except InvalidPhoneNumber:
            continue
    return usable[0].Number if usable else None


def property_row(rental: Rental, link: PropertyLink | None) -> PropertyRow:
    extra = {"timezone": link.timezone} if link and link.timezone else {}
    return PropertyRow(external_id=rental_ext(rental.Id), organization=ORG_REF, name=rental.Name or f"Rental {rental.Id}",
                       phone=link.phone if link else None, email=link.email if link else None,
                       address=rental.Address.line() if rental.Address else "", **extra)


def unit_row(unit: RentalUnit, listing: Listing | None) -> UnitRow:
    """Whole dollars (Buildium keeps cents; the gateway quotes rents in dollars)."""
    rent = listing.Rent if listing and listing.Rent is not None else unit.MarketRent
    return UnitRow(external_id=unit_ext(unit.Id), property=rental_ext(unit.PropertyId),
                   name=unit.UnitNumber or str(unit.Id), bedrooms=BEDROOMS.get(unit.UnitBedrooms or "", 0),
                   bathrooms=BATHROOMS.get(unit.UnitBathrooms or "", 1.0), rent_usd=round(rent or 0),
                   available_on=listing.AvailableDate if listing else None)


def add_lease(batch: Batch, lease: Lease) -> set[int]:
    """Its tenants' resident rows (ended ones named to end); the ids of tenants it keeps active."""
    part, active = batch[FileKind.RESIDENTS], set()
    current = sorted(t.Id for t in lease.Tenants or [] if t.Status != "MovedOut")
    for tenant in lease.Tenants or []:
        ext = resident_ext(lease.Id, tenant.Id)
        if lease.LeaseStatus == "Past" or tenant.Status == "MovedOut":
            part.end(ext)
            continue
        kind = OccupancyKind.PRIMARY if tenant.Id == current[0] else OccupancyKind.ROOMMATE
        part.add(ResidentRow(external_id=ext, person=tenant_ext(tenant.Id), unit=unit_ext(lease.UnitId), kind=kind,
                             move_in=tenant.MoveInDate or lease.LeaseFromDate))
        active.add(tenant.Id)
    return active


def tenant_candidate(tenant: Tenant) -> Candidate:
    row = PersonRow(external_id=tenant_ext(tenant.Id), first_name=tenant.FirstName or "",
                    last_name=tenant.LastName or "", phone=best_phone(tenant.PhoneNumbers),
                    email=(tenant.Email or "").strip() or None)
    return Candidate(row=row, label=f"Buildium tenant {tenant.Id}")


def consent_of(tenants: Iterable[Tenant]) -> list[tuple[str, bool]]:
    """(phone, opted out of texts in Buildium) for each tenant with a phone (desk.pms.consent)."""
    return [(phone, t.SMSOptInStatus == "OptedOut") for t in tenants if (phone := best_phone(t.PhoneNumbers))]


def add_vendor(batch: Batch, vendor: Vendor, property_exts: list[str]) -> Candidate | None:
    """An active vendor: its row, serving every property, and its contact; an inactive one ends."""
    ext = vendor_ext(vendor.Id)
    if not vendor.IsActive:
        batch[FileKind.VENDORS].end(ext)
        batch[FileKind.VENDOR_CONTACTS].end(ext)
        return None
    person = " ".join(p for p in (vendor.FirstName, vendor.LastName) if p).strip()
    phone, email = best_phone(vendor.PhoneNumbers), (vendor.PrimaryEmail or "").strip() or None
    batch[FileKind.VENDORS].add(VendorRow(
        external_id=ext, name=vendor.CompanyName or person or f"Vendor {vendor.Id}", phone=phone, email=email,
        trades=[vendor.Category.Name] if vendor.Category and vendor.Category.Name else [], properties=property_exts))
    if not (phone or email):
        return None  # nobody to reach: a vendor without a contact Person
    batch[FileKind.VENDOR_CONTACTS].add(VendorContactRow(external_id=ext, vendor=ext, person=ext))
    first, last = (vendor.FirstName or "", vendor.LastName or "") if person else (vendor.CompanyName or "", "")
    return Candidate(row=PersonRow(external_id=ext, first_name=first, last_name=last, phone=phone, email=email),
                     label=f"Buildium vendor {vendor.Id}")
