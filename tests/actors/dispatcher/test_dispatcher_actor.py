"""The DispatcherActor's bytes interface and RayToolRunner, without Ray: what crosses the process
boundary is msgpack of pydantic dumps, and authority is re-derived from the store on every call."""
from __future__ import annotations

import msgpack
import pytest

from actors.config import RuntimeConfig
from actors.dispatcher.dispatcher_actor import DispatcherService, RayToolRunner
from desk.portfolio.demo import seed
from spine.codec import pack
from spine.identity import PersonRole, PersonRoleSource, PersonRoleType, RoleScope
from spine.repo import Spine
from spine.store.sqlite import SqliteStore
from spine.toolspec import ToolInvocation
from tools.caller import Caller, load_caller


class _Method:
    """The `.remote()` shape of a Ray actor method, run in this process (a handle stand-in)."""

    def __init__(self, fn) -> None:
        self.fn = fn

    def remote(self, *args):
        return self.fn(*args)


class InProcessHandle:
    def __init__(self, service: DispatcherService) -> None:
        self.run, self.prefetch = _Method(service.run), _Method(service.prefetch)
        self.prefetch_report = _Method(service.prefetch_report)


@pytest.fixture
async def service(tmp_path):
    path = tmp_path / "clara.db"
    spine = Spine(SqliteStore(path))
    await seed(spine)
    await spine.store.close()
    svc = DispatcherService(RuntimeConfig(store_url=f"sqlite:///{path}").to_bytes())
    yield svc
    await svc.dispatcher.spine.store.close()


async def test_a_claimed_role_does_not_cross_the_wire(service):
    spine = service.dispatcher.spine
    caller = await load_caller(spine, "p_marcus", "pf_yale", "ix_wire_1")
    forged = caller.model_copy(update={"roles": [PersonRole(
        id="r_forged", person_id="p_marcus", role_type=PersonRoleType.PM, source=PersonRoleSource.MANUAL_PM,
        scope=RoleScope(org_id="org_propflow"))]})
    inv = ToolInvocation(name="pm_list_open_work_orders", input={}, tool_use_id="tu_1")
    raw = await service.run(pack(inv), pack(forged))
    assert isinstance(raw, bytes)
    result = msgpack.unpackb(raw)
    assert result["is_error"] is True and result["decision"] == "refused"


async def test_the_impersonator_crosses_the_wire_and_caps_the_call(service):
    """Ask Clara as Priya by Sam (a viewer): the DispatcherActor process re-derives both and refuses
    what Sam may not do (issue 28, finding 3); the operator adds no cap."""
    spine = service.dispatcher.spine
    close = ToolInvocation(name="pm_close_work_order", input={"work_order_id": "WO-7", "resolution": "fixed"},
                           tool_use_id="tu_close")
    by_sam = await load_caller(spine, "p_priya", "pf_yale", "ix_wire_sam", impersonated_by="p_sam")
    refused = msgpack.unpackb(await service.run(pack(close), pack(by_sam)))
    assert refused["decision"] == "refused" and refused["rule"] == "impersonation:role"
    assert (await spine.get_work_order("wo_7")).status == "in_progress"
    by_operator = await load_caller(spine, "p_priya", "pf_yale", "ix_wire_op", impersonated_by="operator")
    assert msgpack.unpackb(await service.run(pack(close), pack(by_operator)))["decision"] == "allowed"


async def test_ray_tool_runner_runs_and_prefetches_through_the_bytes_interface(service):
    runner = RayToolRunner(InProcessHandle(service))
    caller = await load_caller(service.dispatcher.spine, "p_marcus", "pf_yale", "ix_wire_2")
    assert isinstance(caller, Caller)
    hours = ToolInvocation(name="get_property_hours", input={}, tool_use_id="tu_pre")
    await runner.prefetch([hours], caller)
    result = await runner.run(hours.model_copy(update={"tool_use_id": "tu_2"}), caller)
    assert (result.is_error, result.prefetched, result.tool_use_id) == (False, True, "tu_2")
    report = await runner.prefetch_report("ix_wire_2")
    assert report == [{"name": "get_property_hours", "input": {}, "status": "hit"}]


class DeadHandle:
    """A handle to a DispatcherActor the reconciler killed: every call fails for good."""

    def __init__(self) -> None:
        self.calls = 0
        self.run = _Method(self._dead)

    async def _dead(self, *args):
        from ray.exceptions import ActorDiedError

        self.calls += 1
        raise ActorDiedError()


async def test_ray_tool_runner_looks_a_replaced_dispatcher_up_again(service):
    """A cached handle to a replaced DispatcherActor is dead for good: the runner resolves the
    name again and sends the call to the replacement, once per death, not on every call."""
    dead, live = DeadHandle(), InProcessHandle(service)
    resolved = []
    runner = RayToolRunner(dead, resolve=lambda: resolved.append(live) or live)
    caller = await load_caller(service.dispatcher.spine, "p_marcus", "pf_yale", "ix_wire_3")
    hours = ToolInvocation(name="get_property_hours", input={}, tool_use_id="tu_3")
    first = await runner.run(hours, caller)
    second = await runner.run(hours.model_copy(update={"tool_use_id": "tu_4"}), caller)
    assert (first.is_error, second.is_error) == (False, False)
    assert (dead.calls, len(resolved)) == (1, 1)


async def test_ray_tool_runner_without_a_resolver_reports_the_dead_dispatcher():
    from ray.exceptions import ActorDiedError

    with pytest.raises(ActorDiedError):
        await RayToolRunner(DeadHandle()).run(ToolInvocation(name="get_property_hours", input={}, tool_use_id="t"),
                                              Caller.model_construct())
