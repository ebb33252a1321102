"""When the HostReconciler gives up on a PersonActor host: the rule, and the GCS facts it reads.

Recovery after a lost node is bounded by how soon this says "lost" (deploy/README.md, "Losing
a node"): at once when Ray declares the host's node dead (Ray's node health check:
`health_check_period_ms` x `health_check_failure_threshold`), else after `host_dead_after_s`
without an answer to the reconciler's pings (every `host_health_check_s`).
"""
from __future__ import annotations

from typing import Any

import ray
from ray.core.generated import gcs_pb2
from ray.exceptions import ActorDiedError

from actors.config import RuntimeConfig

RESTART_GRACE_S = 4.0  # extra patience while Ray restarts a crashed host process on its own (live) node
RAY_RESTARTING = ("RESTARTING", "PENDING_CREATION", "DEPENDENCIES_UNREADY")
GCS: Any = gcs_pb2  # generated protobuf code, no type stubs


def lost_because(config: RuntimeConfig, ping: BaseException, state: str, node_lost: bool,
                 silent_s: float) -> str | None:
    """Why a host that missed its ping is lost, or None while it may still come back.

    Lost at once: Ray says the process is dead, or Ray has declared its node dead (the process
    went with it; Ray's restart elsewhere would be no faster than ours and would hold the host's
    people meanwhile). Lost after `host_dead_after_s` without an answer: a hung process, or a
    node Ray has not declared dead yet. Ray restarting a crashed process on its own live node
    gets RESTART_GRACE_S more, since that restart keeps the host's leases."""
    if isinstance(ping, ActorDiedError) or state == "DEAD":
        return "its process died"
    if node_lost:
        return "Ray declared its node dead"
    in_place = state in RAY_RESTARTING
    if silent_s >= config.host_dead_after_s + (RESTART_GRACE_S if in_place else 0.0):
        return f"no answer for {silent_s:.1f}s"
    return None


def _gcs() -> Any:
    """The GCS client this worker process opened when it joined Ray. The GCS reads below go
    through it: `ray.nodes()` and `ray._private.state` open a second client (its own io thread,
    epoll, eventfd and timerfd) the first time a host misses a ping, which the 30-minute soak saw
    as the reconciler's descriptors growing 55 -> 58 long after its start."""
    worker: Any = ray._private.worker.global_worker
    return worker.gcs_client


async def dead_nodes(timeout_s: float) -> set[str]:
    """The Ray nodes the GCS has declared dead (its node health check: see deploy/README.md)."""
    try:
        nodes, _ = await _gcs().async_get_all_node_info(timeout=timeout_s)
        return {node_id.hex() for node_id, info in nodes.items() if info.state != GCS.GcsNodeInfo.GcsNodeState.ALIVE}
    except Exception:  # noqa: BLE001 - the ping timeout decides without it
        return set()


async def ray_actor_state(handle: Any, timeout_s: float) -> str:
    """The GCS's view of an actor (ALIVE, RESTARTING, DEAD, ...); '' when it does not know."""
    try:
        actors = await _gcs().async_get_all_actor_info(actor_id=handle._actor_id, timeout=timeout_s)
        return str(GCS.ActorTableData.ActorState.Name(actors[handle._actor_id].state))
    except Exception:  # noqa: BLE001 - a developer API; the ping timeout decides without it
        return ""
