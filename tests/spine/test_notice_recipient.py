"""Issue 40 item 13: who a work order's visit notices go to. The reporter when they live in the
unit (primary or roommate); a guarantor who reported it does not live there, so the unit's primary
resident is told (the vendor is coming to Marcus's door, not Ellen's)."""
from __future__ import annotations

import pytest

from desk.dispatch.dispatch import answer_dispatch, start_dispatch
from desk.dispatch.notices import tenant_to_tell
from spine.work import WorkOrder, WorkOrderStatus


def _wo(reporter: str, unit_id: str | None = "u_yale_204") -> WorkOrder:
    return WorkOrder(id="wo_t1", display_id="WO-901", property_id="pf_yale", unit_id=unit_id, brief="leak",
                     created_by_person_id=reporter)


@pytest.mark.parametrize("reporter, told", [("p_ellen", "p_marcus"), ("p_jordan", "p_jordan"),
                                            ("p_marcus", "p_marcus")])
async def test_the_person_who_lives_there_is_told(spine, reporter, told):
    assert await tenant_to_tell(spine, _wo(reporter)) == told


async def test_a_guarantors_common_area_report_tells_no_resident_by_her(spine):
    assert await tenant_to_tell(spine, _wo("p_ellen", unit_id=None)) is None


async def test_a_vendors_yes_to_ellens_report_tells_marcus(spine):
    wo = _wo("p_ellen")
    wo.assigned_vendor_id, wo.status = "v_inhouse", WorkOrderStatus.DISPATCHED
    await spine.put_work_order(wo)
    await start_dispatch(spine, wo, "v_inhouse", by_person_id="p_priya")
    answer = await answer_dispatch(spine, "p_mike", accept=True, work_order="WO-901")
    assert [n.recipient_person_id for n in answer.notifications] == ["p_marcus"]
