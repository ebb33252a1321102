"""A Buildium account as Buildium's API spells it (the records the stand-in serves): rentals,
rental units, listings, leases with their tenants, vendors. `small_account()` is the realistic one
the tests read (phones in national spelling, several tenants on a lease, a moved-out tenant, a past
lease, a future lease, a vendor who rents from the company, an inactive vendor); `large_account()`
is the bench's (10,000 units)."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

Record = dict[str, Any]
BEDS = ["Studio", "OneBed", "TwoBed", "ThreeBed"]
BATHS = ["OneBath", "OnePointFiveBath", "TwoBath"]


@dataclass
class Account:
    rentals: list[Record] = field(default_factory=list)
    units: list[Record] = field(default_factory=list)
    listings: list[Record] = field(default_factory=list)
    leases: list[Record] = field(default_factory=list)
    tenants: list[Record] = field(default_factory=list)
    vendors: list[Record] = field(default_factory=list)
    tasks: list[Record] = field(default_factory=list)
    work_orders: list[Record] = field(default_factory=list)
    balances: list[Record] = field(default_factory=list)
    renewals: list[Record] = field(default_factory=list)
    appliances: list[Record] = field(default_factory=list)
    history: dict[int, list[str]] = field(default_factory=dict)  # task id -> the Messages PUT on it
    # When each record last changed (Buildium filters `lastupdatedfrom` by it; not every message shows it).
    updated: dict[tuple[str, int], datetime] = field(default_factory=dict)

    def touch(self, kind: str, record_id: int, at: datetime | None = None) -> None:
        self.updated[(kind, record_id)] = at or datetime.now(UTC)

    def tenant(self, tenant_id: int) -> Record:
        return next(t for t in self.tenants if t["Id"] == tenant_id)

    def lease(self, lease_id: int) -> Record:
        return next(lease for lease in self.leases if lease["Id"] == lease_id)


def address(line1: str, city: str = "Seattle", state: str = "WA", postal: str = "98101") -> Record:
    return {"AddressLine1": line1, "AddressLine2": None, "AddressLine3": None, "City": city, "State": state,
            "PostalCode": postal, "Country": "UnitedStates"}


def rental(rental_id: int, name: str, line1: str, units: int) -> Record:
    return {"Id": rental_id, "Name": name, "StructureDescription": None, "NumberUnits": units, "IsActive": True,
            "OperatingBankAccountId": 1, "Reserve": 0.0, "Address": address(line1), "YearBuilt": 1968,
            "RentalType": "Residential", "RentalSubType": "MultiFamily", "RentalManager": None}


def unit(unit_id: int, rental_id: int, number: str, beds: int, rent: float, *, occupied: bool) -> Record:
    return {"Id": unit_id, "PropertyId": rental_id, "BuildingName": None, "UnitNumber": number, "Description": None,
            "MarketRent": rent, "Address": address("1 Main St"), "UnitBedrooms": BEDS[beds % len(BEDS)],
            "UnitBathrooms": BATHS[beds % len(BATHS)], "UnitSize": 700 + 100 * beds, "IsUnitListed": False,
            "IsUnitOccupied": occupied}


def listing(u: Record, rental_name: str, rent: float, available: str) -> Record:
    return {"ListingDate": "2026-11-01", "Rent": rent, "Deposit": rent, "LeaseTerms": "12 months",
            "AvailableDate": available, "IsManagedExternally": False, "RentalApplicationUrl": None, "Contact": None,
            "Property": {"Id": u["PropertyId"], "Name": rental_name, "Address": None, "NumberUnits": 1,
                         "StructureDescription": None, "YearBuilt": None, "Features": [], "IncludedInRent": [],
                         "Files": []},
            "Unit": {"Id": u["Id"], "UnitNumber": u["UnitNumber"], "Address": None, "UnitBedrooms": u["UnitBedrooms"],
                     "UnitBathrooms": u["UnitBathrooms"], "UnitSize": u["UnitSize"], "Description": None,
                     "MarketRent": u["MarketRent"], "Features": [], "Files": []}}


def phone(number: str, kind: str = "Cell") -> Record:
    return {"Number": number, "Type": kind}


def tenant(tenant_id: int, first: str, last: str, phones: list[Record], email: str | None,
           sms: str = "OptedIn") -> Record:
    return {"Id": tenant_id, "UserLeaseId": tenant_id, "FirstName": first, "LastName": last, "Email": email,
            "AlternateEmail": None, "PhoneNumbers": phones, "CreatedDateTime": "2025-01-10T09:00:00Z",
            "EmergencyContact": None, "DateOfBirth": None, "SMSOptInStatus": sms, "Address": None,
            "AlternateAddress": None, "MailingPreference": "PrimaryAddress", "Leases": None, "Comment": None,
            "TaxId": None}


def lease(lease_id: int, u: Record, status: str, start: str, end: str | None,
          tenants: list[tuple[int, str]]) -> Record:
    return {"Id": lease_id, "PropertyId": u["PropertyId"], "UnitId": u["Id"], "UnitNumber": u["UnitNumber"],
            "LeaseFromDate": start, "LeaseToDate": end, "LeaseType": "Fixed", "LeaseStatus": status,
            "IsEvictionPending": False, "TermType": "Standard", "RenewalOfferStatus": "NotSet", "CurrentTenants": [],
            "CurrentNumberOfOccupants": len(tenants),
            "AccountDetails": {"SecurityDeposit": u["MarketRent"], "Rent": u["MarketRent"]}, "Cosigners": [],
            "AutomaticallyMoveOutTenants": False, "CreatedDateTime": f"{start}T00:00:00Z",
            "LastUpdatedDateTime": f"{start}T00:00:00Z", "MoveOutData": [], "PaymentDueDay": 1,
            "Tenants": [{"Id": t, "Status": s, "MoveInDate": start} for t, s in tenants]}


def vendor(vendor_id: int, first: str, last: str, company: str, phones: list[Record], email: str | None,
           category: str, *, active: bool = True) -> Record:
    return {"Id": vendor_id, "IsCompany": bool(company), "IsActive": active, "FirstName": first, "LastName": last,
            "PrimaryEmail": email, "AlternateEmail": None, "CompanyName": company or None, "PhoneNumbers": phones,
            "Website": None, "Category": {"Id": 1, "Name": category}, "Address": None, "VendorInsurance": None,
            "Comments": None, "AccountNumber": None, "ExpenseGLAccountId": None, "TaxInformation": None}


def balance(lease_id: int, unit_id: int, total: float) -> Record:
    return {"LeaseId": lease_id, "PropertyId": 101, "UnitId": unit_id, "Balance0To30Days": total, "Balance31To60Days": 0.0,
            "Balance61To90Days": 0.0, "BalanceOver90Days": 0.0, "TotalBalance": total, "Balances": [],
            "PastDueEmailSentDate": None, "EvictionPendingDate": None, "IsNoticeGiven": False}


def renewal(renewal_id: int, start: str, end: str, rent: float, tenants: list[int]) -> Record:
    return {"Id": renewal_id, "LeaseStatus": "Future", "LeaseFromDate": start, "LeaseToDate": end, "LeaseType": "Fixed",
            "Rent": rent, "RentId": None, "TenantIds": tenants}


def appliance(appliance_id: int, unit_id: int, name: str, make: str, model: str) -> Record:
    return {"Id": appliance_id, "PropertyId": 101, "UnitId": unit_id, "Name": name, "Make": make, "Model": model,
            "Description": None, "WarrantyEndDate": None}


def small_account() -> Account:
    """Two rentals, six units (one listed and vacant, one unlisted and vacant), five leases."""
    a = Account()
    a.rentals = [rental(101, "Alder Court", "100 Alder St", 4), rental(102, "Birch House", "200 Birch Ave", 2)]
    a.units = [unit(1001, 101, "1A", 1, 1850.0, occupied=True), unit(1002, 101, "1B", 2, 2450.0, occupied=True),
               unit(1003, 101, "2A", 2, 2395.5, occupied=False), unit(1004, 101, "2B", 0, 1495.0, occupied=False),
               unit(1005, 102, "101", 3, 3100.0, occupied=True), unit(1006, 102, "102", 1, 1900.0, occupied=True)]
    a.units[2]["IsUnitListed"] = True
    a.listings = [listing(a.units[2], "Alder Court", 2400.0, "2027-01-15")]
    a.tenants = [
        tenant(5001, "Dana", "Whitfield", [phone("(253) 555-1001")], "Dana.Whitfield@example.com"),
        tenant(5002, "Luis", "Ortega", [phone("253.555.1002"), phone("(253) 555-1902", "Home")], None),
        tenant(5003, "Mei", "Chen", [phone("+1 253-555-1003")], "mei.chen@example.com", sms="OptedOut"),
        tenant(5004, "Priya", "Natarajan", [phone("(253) 555-1004")], "priya@example.com"),
        tenant(5005, "Sam", "Okafor", [phone("(253) 555-1005")], "sam.okafor@example.com"),
        tenant(5006, "Ruth", "Baker", [phone("(253) 555-1006")], "ruth.baker@example.com"),
        tenant(5007, "Noah", "Kim", [phone("(253) 555-1007")], None),
    ]
    a.leases = [
        lease(3001, a.units[0], "Active", "2025-06-01", "2026-05-31", [(5001, "Current"), (5002, "Current")]),
        lease(3002, a.units[1], "Active", "2025-09-01", "2026-08-31",
              [(5003, "Current"), (5004, "MovedOut"), (5005, "Current")]),
        lease(3003, a.units[4], "Past", "2023-01-01", "2024-12-31", [(5006, "MovedOut")]),
        lease(3004, a.units[4], "Active", "2025-01-01", None, [(5007, "Current")]),
        lease(3005, a.units[5], "Future", "2027-02-01", "2028-01-31", [(5006, "Future")]),
    ]
    a.vendors = [
        # Luis Ortega fixes the plumbing and rents 1A: one Person with both roles.
        vendor(7001, "Luis", "Ortega", "Ortega Plumbing", [phone("(253) 555-1002", "Office")], "luis@ortegaplumbing.com",
               "Plumbing"),
        vendor(7002, "Ada", "Greene", "", [phone("(253) 555-2002")], "ada@greene-electric.com", "Electrical"),
        vendor(7003, "Old", "Roofer", "Gone Roofing", [phone("(253) 555-2003")], None, "Roofing", active=False),
    ]
    a.balances = [balance(3001, 1001, 125.5)]  # Dana and Luis owe $125.50
    a.renewals = [renewal(3101, "2026-06-01", "2027-05-31", 1925.0, [5001, 5002])]  # 12 months offered on 3001
    a.appliances = [appliance(601, 1001, "Dishwasher", "Bosch", "SHX78"), appliance(602, 1001, "Range", "GE", "JB645")]
    for kind, records in (("rentals", a.rentals), ("units", a.units), ("leases", a.leases), ("tenants", a.tenants),
                          ("vendors", a.vendors)):
        for r in records:
            a.touch(kind, r["Id"], datetime(2025, 12, 1, tzinfo=UTC))
    return a


def large_account(units: int = 10_000, *, per_rental: int = 20, vendors: int = 300) -> Account:
    """The bench's account: `units` units in rentals of `per_rental`, a lease on each (one of five
    with a second tenant: 1.2 tenants a unit), `vendors` vendors."""
    a = Account()
    at = datetime(2025, 12, 1, tzinfo=UTC)
    tenant_id = 500_000
    for n in range(units):
        rental_id, unit_id = 100_000 + n // per_rental, 200_000 + n
        if n % per_rental == 0:
            a.rentals.append(rental(rental_id, f"Building {rental_id}", f"{n} Pine St", per_rental))
        u = unit(unit_id, rental_id, f"{n % per_rental + 1}", n % 4, 1500.0 + (n % 20) * 50, occupied=True)
        a.units.append(u)
        people = [tenant_id] if n % 5 else [tenant_id, tenant_id + 1]
        for t in people:
            a.tenants.append(tenant(t, "Tenant", f"N{t}", [phone(f"(206) {200 + t // 10000 % 700:03d}-{t % 10000:04d}")],
                                    f"t{t}@example.com"))
            a.touch("tenants", t, at)
        tenant_id += len(people)
        a.leases.append(lease(300_000 + n, u, "Active", "2025-06-01", "2026-05-31", [(t, "Current") for t in people]))
    for v in range(vendors):
        a.vendors.append(vendor(700_000 + v, "Vendor", f"V{v}", f"Vendor Co {v}", [phone(f"(425) 555-{v:04d}")],
                                f"v{v}@vendors.example.com", "General"))
    for kind, records in (("rentals", a.rentals), ("units", a.units), ("leases", a.leases), ("vendors", a.vendors)):
        for r in records:
            a.touch(kind, r["Id"], at)
    return a
