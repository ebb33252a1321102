"""`gateway.pms.buildium.sync` against the Buildium stand-in: the account lands on the import's
keys (source buildium) with every rule of `gateway import`; the stand-in finds no contract violation."""
from __future__ import annotations

import asyncio

import pytest

import spine.keys as keys
from gateway.pms.buildium.client import BuildiumClient
from gateway.pms.buildium.sync import sync
from spine.identity import ClaimKind
from spine.repo import Spine
from tests.support.buildium_server import CLIENT_ID, CLIENT_SECRET

ORG = "org_buildium"


@pytest.fixture
async def client(stub):  # the folder's, without its 1 s timeout: a test here holds a page longer
    c = BuildiumClient(stub.url, CLIENT_ID, CLIENT_SECRET, retry_wait_s=0.05, rate_per_s=200)
    yield c
    await c.aclose()


async def roles_of(spine: Spine, phone: str) -> tuple[str, list[tuple[str, bool]]]:
    claim = await spine.store.get(keys.claim(ClaimKind.PHONE, phone))
    assert claim is not None, phone
    pid = claim.data["person_id"]
    items = await spine.store.query(keys.person(pid), keys.ROLE_PREFIX)
    return pid, sorted((i.data["role_type"], i.data["active"]) for i in items)


async def test_first_sync_maps_the_account_and_a_second_writes_nothing(spine, client):
    run = await sync(spine, client, organization=ORG)
    assert run.full and run.report.errors == []
    counts = run.report.counts()
    assert counts["properties"]["created"] == 2 and counts["units"]["created"] == 6
    # Dana and Luis on lease 3001, Mei and Sam on 3002 (Priya moved out), Noah on 3004, Ruth's future lease.
    assert counts["residents"]["created"] == 6
    assert counts["vendors"]["created"] == 2  # the inactive roofer is not imported
    unit = await spine.store.get(keys.unit("u_buildium_unit-1003"))
    assert unit.data["available_from"] == "2027-01-15" and unit.data["monthly_rent_usd"] == 2400
    vacant = await spine.store.get(keys.unit("u_buildium_unit-1004"))
    assert vacant.data["available_from"] is None  # unlisted vacant: not offered
    again = await sync(spine, client, organization=ORG, full=True)
    assert again.report.writes == 0
    assert all(c["created"] == c["updated"] == c["ended"] == 0 for c in again.report.counts().values())


async def test_phones_normalised_and_a_vendor_who_rents_is_one_person(spine, client):
    await sync(spine, client, organization=ORG)
    pid, roles = await roles_of(spine, "+12535551002")  # "206.555.1002" as Buildium stores it
    assert roles == [("tenant", True), ("vendor_contact", True)]
    dana, _ = await roles_of(spine, "+12535551001")  # "(253) 555-1001"
    assert dana == "p_buildium_tenant-5001" and pid == "p_buildium_tenant-5002"
    assert await spine.store.get(keys.claim(ClaimKind.PHONE, "+12535551004")) is None  # moved out, no active role


async def test_move_out_and_past_lease_end_roles_nothing_deleted(spine, client, stub):
    await sync(spine, client, organization=ORG)
    lease = stub.account.lease(3001)
    lease["Tenants"][1]["Status"] = "MovedOut"  # Luis moves out
    stub.account.touch("leases", 3001)
    lease4 = stub.account.lease(3004)
    lease4["LeaseStatus"] = "Past"
    stub.account.touch("leases", 3004)
    run = await sync(spine, client, organization=ORG)  # incremental
    assert not run.full and run.report.errors == []
    assert run.report.counts()["residents"]["ended"] == 2
    _, roles = await roles_of(spine, "+12535551002")
    assert roles == [("tenant", False), ("vendor_contact", True)]
    _, noah = await roles_of(spine, "+12535551007")
    assert noah == [("tenant", False)]


async def test_a_bad_record_is_reported_and_the_good_ones_apply(spine, client, stub):
    stub.account.tenant(5005)["PhoneNumbers"] = [{"Number": "555-12", "Type": "Cell"}]
    run = await sync(spine, client, organization=ORG)
    assert any("tenant-5005" in e and "phone" in e for e in run.report.errors), run.report.errors
    assert any("lease-3002-tenant-5005" in e for e in run.report.errors)  # its role names a person that failed
    _, mei = await roles_of(spine, "+12535551003")
    assert mei == [("tenant", True)]


async def test_two_people_on_one_number_is_an_error_not_a_merge(spine, client, stub):
    stub.account.tenant(5007)["PhoneNumbers"] = [{"Number": "(253) 555-1001", "Type": "Cell"}]  # Dana's number
    run = await sync(spine, client, organization=ORG)
    assert any("tenant-5007" in e and "two people" in e for e in run.report.errors), run.report.errors
    _, dana = await roles_of(spine, "+12535551001")
    assert dana == [("tenant", True)]


async def test_a_phone_another_source_holds_attaches_the_role_to_that_person(spine, client, stub):
    marcus = await spine.get_person("p_marcus")  # the demo's
    phone = marcus.phones()[0]
    first, last = marcus.display_name.split(" ", 1)
    stub.account.tenant(5007).update(FirstName=first, LastName=last, PhoneNumbers=[{"Number": phone, "Type": "Cell"}])
    run = await sync(spine, client, organization=ORG)
    assert run.report.errors == []
    items = await spine.store.query(keys.person("p_marcus"), keys.ROLE_PREFIX)
    assert any(i.data["scope"].get("unit_id") == "u_buildium_unit-1005" and i.data["active"] for i in items)
    assert await spine.get_person("p_buildium_tenant-5007") is None
    again = (await sync(spine, client, organization=ORG, full=True)).report
    assert again.writes == 0, again.counts()


@pytest.fixture
async def paged(stub):
    """Two records a page: a sync applies the account a page at a time."""
    c = BuildiumClient(stub.url, CLIENT_ID, CLIENT_SECRET, rate_per_s=200, page=2)
    yield c
    await c.aclose()


async def test_people_apply_while_the_later_tenant_pages_are_still_read(spine, stub, paged):
    """The second tenants page is held by the stand-in until the first page's people and their
    roles are in the store (applied as their page came, not after the last one)."""
    stub.hold = ("/v1/leases/tenants", 2)
    running = asyncio.create_task(sync(spine, paged, organization=ORG))
    try:
        assert await asyncio.to_thread(stub.held.wait, 10)
        for _ in range(500):  # applying runs beside the held request
            roles = await spine.store.query(keys.person("p_buildium_tenant-5001"), keys.ROLE_PREFIX)
            if roles:
                break
            await asyncio.sleep(0.01)
        assert [(r.data["role_type"], r.data["scope"].get("unit_id")) for r in roles] == \
            [("tenant", "u_buildium_unit-1001")]
        assert await spine.get_person("p_buildium_tenant-5002") is not None
        assert await spine.get_person("p_buildium_tenant-5003") is None  # on the held page
    finally:
        stub.release.set()
        run = await running
    assert run.report.errors == []
    assert run.report.counts()["residents"]["created"] == 6  # as in one page (the first test)


async def test_a_full_sync_in_pages_ends_exactly_what_it_no_longer_lists(spine, stub, paged):
    await sync(spine, paged, organization=ORG)
    stub.account.leases.remove(stub.account.lease(3004))  # Noah's lease gone from the account
    run = await sync(spine, paged, organization=ORG, full=True)
    assert run.report.errors == [] and run.report.counts()["residents"]["ended"] == 1
    _, noah = await roles_of(spine, "+12535551007")
    assert noah == [("tenant", False)]
    _, dana = await roles_of(spine, "+12535551001")
    assert dana == [("tenant", True)]
    again = (await sync(spine, paged, organization=ORG, full=True)).report
    assert again.writes == 0, again.counts()


async def test_two_people_on_one_number_on_different_pages_is_an_error_not_a_merge(spine, stub, paged):
    stub.account.tenant(5007)["PhoneNumbers"] = [{"Number": "(253) 555-1001", "Type": "Cell"}]  # Dana's, page 1
    run = await sync(spine, paged, organization=ORG)
    assert any("tenant-5007" in e and "two people" in e for e in run.report.errors), run.report.errors
    assert any("lease-3004-tenant-5007" in e for e in run.report.errors)  # its role fails with it
    dana, roles = await roles_of(spine, "+12535551001")
    assert dana == "p_buildium_tenant-5001" and roles == [("tenant", True)]
