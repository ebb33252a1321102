"""The demo data of ARCHITECTURE.md: the ADR's people and a few more, so every router branch
and every scope has a case. Loaded by `gateway seed`; loading twice changes nothing."""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from desk.portfolio.run import ImportOptions, PortfolioError, import_portfolio
from desk.portfolio.staged import StagedStore
from spine.identity import Claim, ClaimKind, OccupancyKind, Person, PersonCategory, PersonRole, RoleScope
from spine.identity import PersonRoleSource as Src
from spine.identity import PersonRoleType as T
from spine.office import Office, parse_hours
from spine.oncall import OnCallPlan
from spine.property import (
    Appliance,
    FacilityFacts,
    Lease,
    Organization,
    ParkingRules,
    PetPolicy,
    PoolStatus,
    Property,
    Unit,
    Vendor,
)
from spine.repo import Spine
from spine.work import Prospect, RenewalOffer, RenewalWorkflow, Tour, WorkOrder, WorkOrderNote, WorkOrderStatus

YALE, CAPITOL, BEACON = "pf_yale", "pf_capitol", "pf_beacon"
YALE_NUMBER, CAPITOL_NUMBER, BEACON_NUMBER = "+12065550100", "+13035550200", "+12065550300"
YALE_EMAIL, CAPITOL_EMAIL, BEACON_EMAIL = "yale@clara.example", "capitol@clara.example", "beacon@clara.example"
YALE_TELEGRAM_BOT_ID = "7000000100"  # the demo bot (token "7000000100:..."), JP Yale Station's
AT = datetime(2026, 11, 20, 16, 30, tzinfo=UTC)


def _phone(number: str) -> list[Claim]:
    return [Claim(kind=ClaimKind.PHONE, value=number)]


def _email(address: str) -> list[Claim]:
    return [Claim(kind=ClaimKind.EMAIL, value=address)]


ORGS = [Organization(id="org_propflow", name="PropFlow Residential"),
        Organization(id="org_capitol", name="Capitol Living")]

PROPERTIES = [
    Property(
        id=YALE, org_id="org_propflow", name="JP Yale Station", address="1200 Yale Ave N, Seattle, WA",
        sms_number=YALE_NUMBER, voice_number=YALE_NUMBER, email=YALE_EMAIL, telegram_bot_id=YALE_TELEGRAM_BOT_ID,
        facility=FacilityFacts(
            amenities=["rooftop deck", "fitness center", "outdoor pool", "package lockers", "bike storage"],
            office_hours="Mon-Fri 9am-6pm, Sat 10am-4pm, closed Sunday",
            pool_hours="Daily 8am-9pm, Memorial Day to Labor Day", gym_hours="24/7 with key fob",
            quiet_hours="10pm-7am",
            pet_policy=PetPolicy(allowed=True, species=["dog", "cat"], deposit_usd=400, monthly_pet_rent_usd=45,
                                 restrictions="Two pets per home; dogs under 60 lb"),
            parking=ParkingRules(spots=120, monthly_cost_usd=175, guest_parking="Six visitor spots by the leasing office, 4 hours",
                                 towing_policy="Unregistered cars in resident stalls are towed after 24 hours"),
            pool_status=PoolStatus(open=False, reason="Closed for the season; reopens Memorial Day"),
        ),
    ),
    Property(
        id=CAPITOL, org_id="org_capitol", name="Capitol Flats", address="88 Grant St, Denver, CO",
        sms_number=CAPITOL_NUMBER, voice_number=CAPITOL_NUMBER, email=CAPITOL_EMAIL, timezone="America/Denver",
        facility=FacilityFacts(
            amenities=["fitness center", "co-working lounge"], office_hours="Mon-Fri 10am-5pm",
            gym_hours="6am-11pm", quiet_hours="10pm-8am",
            pet_policy=PetPolicy(allowed=False, restrictions="No pets; service and support animals welcome"),
            parking=ParkingRules(spots=40, monthly_cost_usd=95, guest_parking="Street parking only",
                                 towing_policy="Fire lanes are towed immediately"),
        ),
    ),
    # A second property of org_propflow, so a property-scoped staff role (Nora) has somewhere
    # it does not reach inside its own org.
    Property(
        id=BEACON, org_id="org_propflow", name="JP Beacon Hill", address="2500 Beacon Ave S, Seattle, WA",
        sms_number=BEACON_NUMBER, voice_number=BEACON_NUMBER, email=BEACON_EMAIL,
        facility=FacilityFacts(
            amenities=["courtyard", "package lockers"], office_hours="Mon-Fri 9am-5pm", quiet_hours="10pm-7am",
            pet_policy=PetPolicy(allowed=True, species=["cat"], deposit_usd=300, restrictions="Cats only"),
        ),
    ),
]

_FRIDGE = Appliance(kind="refrigerator", brand="Whirlpool", model="WRT318FZDW", installed=date(2022, 3, 1))
_DISHWASHER = Appliance(kind="dishwasher", brand="Bosch", model="SHE3AR75UC", installed=date(2022, 3, 1))
_DISPOSAL = Appliance(kind="garbage disposal", brand="InSinkErator", model="Badger 5", installed=date(2021, 6, 1))
_TOILET = Appliance(kind="toilet", brand="Kohler", model="Highline K-3999", installed=date(2020, 1, 15))

UNITS = [
    Unit(id="u_yale_204", property_id=YALE, number="204", bedrooms=2, bathrooms=1, monthly_rent_usd=2450,
         appliances=[_FRIDGE, _DISHWASHER, _DISPOSAL, _TOILET]),
    Unit(id="u_yale_110", property_id=YALE, number="110", bedrooms=1, monthly_rent_usd=1850,
         appliances=[_FRIDGE, _DISPOSAL]),
    Unit(id="u_yale_312", property_id=YALE, number="312", bedrooms=2, monthly_rent_usd=2500,
         appliances=[_FRIDGE, _DISHWASHER]),
    Unit(id="u_yale_305", property_id=YALE, number="305", bedrooms=1, monthly_rent_usd=1900),
    Unit(id="u_yale_401", property_id=YALE, number="401", bedrooms=2, bathrooms=2, square_feet=980,
         monthly_rent_usd=2695, available_from=date(2026, 12, 15), appliances=[_FRIDGE, _DISHWASHER]),
    Unit(id="u_yale_415", property_id=YALE, number="415", bedrooms=2, bathrooms=1, square_feet=910,
         monthly_rent_usd=2575, available_from=date(2027, 1, 1)),
    Unit(id="u_yale_502", property_id=YALE, number="502", bedrooms=1, square_feet=640,
         monthly_rent_usd=1995, available_from=date(2026, 12, 1)),
    Unit(id="u_capitol_12", property_id=CAPITOL, number="12", bedrooms=1, monthly_rent_usd=1500),
    Unit(id="u_beacon_501", property_id=BEACON, number="501", bedrooms=1, monthly_rent_usd=1750,
         appliances=[_FRIDGE]),
]

LEASES = [
    Lease(id="l_yale_204", unit_id="u_yale_204", start=date(2024, 1, 1), end=date(2027, 1, 31),
          monthly_rent_usd=2450, balance_usd=125.50, deposit_usd=2450),
    Lease(id="l_yale_110", unit_id="u_yale_110", start=date(2025, 3, 1), end=date(2027, 2, 28),
          monthly_rent_usd=1850, balance_usd=0.0, deposit_usd=1850),
]

RENEWALS = [
    RenewalWorkflow(id="rw_yale_204_2027", unit_id="u_yale_204", lease_id="l_yale_204",
                    offers=[RenewalOffer(term_months=12, monthly_rent_usd=2525),
                            RenewalOffer(term_months=6, monthly_rent_usd=2595)],
                    respond_by=date(2026, 12, 31)),
    RenewalWorkflow(id="rw_carlos_110_2026", unit_id="u_yale_110", lease_id="l_yale_110",
                    offers=[RenewalOffer(term_months=12, monthly_rent_usd=1895)], respond_by=date(2027, 1, 15)),
]

VENDORS = [
    Vendor(id="v_inhouse", name="JP Yale in-house maintenance", trade="general", in_house=True,
           services_property_ids=[YALE, BEACON]),
    Vendor(id="v_carlos", name="Carlos Plumbing", trade="plumbing", services_property_ids=[YALE, CAPITOL]),
    Vendor(id="v_sparks", name="Sparks Electric", trade="electrical", services_property_ids=[YALE]),
]

WORK_ORDERS = [
    WorkOrder(id="wo_7", display_id="WO-7", property_id=YALE, unit_id="u_yale_204",
              status=WorkOrderStatus.IN_PROGRESS, brief="running toilet, unit 204",
              description="Toilet in the hall bathroom runs constantly after flushing.",
              notes=[WorkOrderNote(at=AT, author_person_id="p_mike", text="Flapper worn; replacement part ordered.")],
              assigned_vendor_id="v_inhouse", eta="today 3pm", created_by_person_id="p_marcus", created_at=AT),
    WorkOrder(id="wo_42", display_id="WO-42", property_id=YALE, unit_id="u_yale_312",
              status=WorkOrderStatus.IN_PROGRESS, brief="leak under kitchen sink, unit 312",
              description="Tenant in 312 reported a leak under the kitchen sink on Tuesday.",
              assigned_vendor_id="v_carlos", created_at=AT),
    WorkOrder(id="wo_51", display_id="WO-51", property_id=CAPITOL, unit_id="u_capitol_12",
              status=WorkOrderStatus.DISPATCHED, brief="low water pressure, unit 12",
              description="Low water pressure in the shower.", assigned_vendor_id="v_carlos", created_at=AT),
    WorkOrder(id="wo_90", display_id="WO-90", property_id=BEACON, unit_id="u_beacon_501",
              status=WorkOrderStatus.OPEN, brief="broken window, unit 501",
              description="Bedroom window in 501 is cracked and will not latch.", assigned_vendor_id="v_inhouse",
              created_at=AT),
]


def _tenant(rid: str, pid: str, unit: str, occ: OccupancyKind) -> PersonRole:
    return PersonRole(id=rid, person_id=pid, role_type=T.TENANT, source=Src.PMS_SYNC, created_at=AT,
                      scope=RoleScope(org_id="org_propflow", property_id=YALE, unit_id=unit, occupancy=occ))


def _staff(rid: str, pid: str, role: T, property_id: str | None = None) -> PersonRole:
    """A staff role across org_propflow, or limited to one of its properties."""
    return PersonRole(id=rid, person_id=pid, role_type=role, source=Src.MANUAL_PM, created_at=AT,
                      scope=RoleScope(org_id="org_propflow", property_id=property_id))


def _vendor(rid: str, pid: str, vendor_id: str) -> PersonRole:
    return PersonRole(id=rid, person_id=pid, role_type=T.VENDOR_CONTACT, source=Src.PMS_SYNC, created_at=AT,
                      scope=RoleScope(vendor_id=vendor_id))


def _person(pid: str, name: str, phone: str, email: str | None = None, **extra: Any) -> Person:
    # A fixed created_at: a seed run in a new process must write the same bytes as the last one.
    claims = _phone(phone) + (_email(email) if email else [])
    return Person(id=pid, display_name=name, claims=claims, created_at=AT, **extra)


PEOPLE = [
    _person("p_marcus", "Marcus Johnson", "+12065551001", "marcus@example.com"),
    _person("p_jordan", "Jordan Lee", "+12065551002"),
    _person("p_ellen", "Ellen Johnson", "+12065551003"),
    _person("p_mike", "Mike Torres", "+13035551500", "mike@inhouse.example"),
    _person("p_carlos", "Carlos Reyes", "+13035552020", "carlos@carlosplumbing.example"),
    _person("p_priya", "Priya Shah", "+12065550150", "priya@propflow.example"),
    _person("p_sam", "Sam Ortiz", "+12065550151"),
    _person("p_lena", "Lena Park", "+12065550152"),
    _person("p_nora", "Nora Quinn", "+12065550154"),
    _person("p_ruth", "Ruth Alvarez", "+12065551099", deceased=True),
    _person("p_tess", "Tess Morgan", "+12065551044"),
    _person("p_spam", "Unknown (spam)", "+18885550199", category=PersonCategory.SPAM),
    _person("p_marcus_old", "Marcus Johnson (old number)", "+12065551088", merged_into_person_id="p_marcus"),
]

ROLES = [
    _tenant("tr_marcus_204", "p_marcus", "u_yale_204", OccupancyKind.PRIMARY),
    _tenant("tr_jordan_204", "p_jordan", "u_yale_204", OccupancyKind.ROOMMATE),
    _tenant("tr_ellen_204", "p_ellen", "u_yale_204", OccupancyKind.GUARANTOR),
    _tenant("tr_carlos_110", "p_carlos", "u_yale_110", OccupancyKind.PRIMARY),
    _tenant("tr_ruth_305", "p_ruth", "u_yale_305", OccupancyKind.PRIMARY),
    _vendor("vr_mike", "p_mike", "v_inhouse"),
    _vendor("vr_carlos", "p_carlos", "v_carlos"),
    _staff("sr_priya", "p_priya", T.PM),
    _staff("sr_sam", "p_sam", T.VIEWER),
    _staff("sr_lena", "p_lena", T.LEASING_AGENT),
    _staff("sr_nora", "p_nora", T.PM, property_id=BEACON),
    PersonRole(id="pr_tess_yale", person_id="p_tess", role_type=T.PROSPECT, source=Src.MANUAL_PM, created_at=AT,
               scope=RoleScope(org_id="org_propflow", property_id=YALE)),
]

# A prospect who already booked: her tours are today at 3pm and tomorrow at 11am, property time,
# so a leasing agent's "any tours today?" has an answer on the day the demo is seeded.
PROSPECTS = [Prospect(person_id="p_tess", property_id=YALE, stage="touring", bedrooms=2, move_in=date(2027, 1, 1),
                      updated_at=AT)]
TOUR_SLOTS = [(0, time(15, 0), "u_yale_401"), (1, time(11, 0), "u_yale_415")]  # (days from today, time, unit)


def demo_tours(today: date, zone: str) -> list[Tour]:
    """Tess's tours around `today` (the property's date); ids carry the day, so reseeding the same
    day writes the same tours and another day adds that day's."""
    return [Tour(id=f"tour_demo_{(today + timedelta(days=ahead)):%Y%m%d}_{unit.rsplit('_', 1)[-1]}",
                 prospect_person_id="p_tess", property_id=YALE, unit_id=unit,
                 scheduled_at=datetime.combine(today + timedelta(days=ahead), at, tzinfo=ZoneInfo(zone)))
            for ahead, at, unit in TOUR_SLOTS]

# Who is paged for an emergency, level by level (ARCHITECTURE.md "People in the loop").
ONCALL_PLANS = [OnCallPlan(property_id=YALE, levels=[["p_mike"], ["p_priya"]], updated_at=AT),
                OnCallPlan(property_id=BEACON, levels=[["p_mike"], ["p_nora"]], updated_at=AT),
                OnCallPlan(property_id=CAPITOL, levels=[["p_carlos"]], updated_at=AT)]

# Where a call is transferred in office hours (ARCHITECTURE.md "Voice: a caller reaches a person").
OFFICES = [Office(property_id=YALE, phone="+12065550190", hours=[parse_hours("mon-fri 09:00-17:00")], updated_at=AT)]

# Unknown numbers the demo replays; no Person exists for them until the router mints one.
UNKNOWN_PROSPECT = "+14155559876"
WRONG_NUMBER = "+13105557777"


DEMO_PORTFOLIO = Path(__file__).parent / "data" / "demo_portfolio"  # the CSV files of `gateway import`
DEMO_SOURCE = "demo"


async def seed(spine: Spine, now: datetime | None = None) -> None:
    """Import the demo portfolio folder (source `demo`, its external ids kept as internal ids),
    then complete it with what the CSV files cannot hold: the records below, which are the whole
    demo. Staged: each item is written once, in its final form, and only where it differs from
    the store, so a second run changes nothing (sequences are only raised, never lowered); the
    demo tours are the day's of `now` (default: the current time)."""
    staged = StagedStore(spine.store)
    imported = await import_portfolio(Spine(staged), DEMO_PORTFOLIO, ImportOptions(source=DEMO_SOURCE, keep_ids=True),
                                      now=AT)
    if imported.report.failed:
        raise PortfolioError("the demo portfolio did not import: " + "; ".join(
            f"{e.file}:{e.line}: {e.column}: {e.reason}" for e, _ in imported.failed_rows))
    await _complete(Spine(staged), now)
    await staged.commit()


async def _complete(spine: Spine, now: datetime | None) -> None:
    """The demo beyond its CSV files (facility facts, appliances, leases, renewals, the Telegram
    bot, a merged, a spam and a prospect Person, work orders with notes, tours), written over what
    the import made: every record of fixed id and fixed content."""
    reference: list[tuple[list[Any], Callable[[Any], Awaitable[None]]]] = [
        (ORGS, spine.put_org), (PROPERTIES, spine.put_property), (UNITS, spine.put_unit), (LEASES, spine.put_lease),
        (RENEWALS, spine.put_renewal), (VENDORS, spine.put_vendor), (PEOPLE, spine.put_person), (ROLES, spine.put_role),
    ]
    for records, put in reference:  # in this order: a role's person, a unit's property are there first
        for record in records:
            await put(record)
    for wo in WORK_ORDERS:
        if await spine.get_work_order(wo.id) is None:
            await spine.put_work_order(wo)
    await spine.ensure_sequence_at_least("work_order", 800)
    for plan in ONCALL_PLANS:  # only where none is set: a plan an operator set is kept
        if await spine.get_oncall_plan(plan.property_id) is None:
            await spine.put_oncall_plan(plan)
    for office in OFFICES:  # likewise: an office an operator set is kept
        if await spine.get_office(office.property_id) is None:
            await spine.put_office(office)
    for prospect in PROSPECTS:
        await spine.create_prospect(prospect)  # a prospect who moved on keeps her stage
    yale = next(p for p in PROPERTIES if p.id == YALE)
    today = (now or spine.clock()).astimezone(ZoneInfo(yale.timezone)).date()
    for tour in demo_tours(today, yale.timezone):
        if await spine.get_tour(tour.id) is None:
            await spine.put_tour(tour)
