"""The faults bench/chaos.py injects, one at a time, while the load runs. Each returns when the
fault has cleared (a kill clears at once; a window after its seconds), with the moments it
started and cleared.

  replica     ray.kill of one GatewayIngress replica actor (Serve's controller replaces it)
  host        ray.kill of PersonActor host clara-host-0, for good (the reconciler replaces it)
  dispatcher  ray.kill of the DispatcherActor as a crash (Ray restarts it: max_restarts=-1)
  reconciler  ray.kill of the reconciler as a crash (Ray restarts it; the pools hand it their config)
  scheduler   ray.kill of the paging scheduler as a crash, when this build has one
  store       10 s of refused writes: SQLite locked by another process holding a write
              transaction (BEGIN IMMEDIATE); DynamoDB: the moto server stopped (its port closed)
  model       30 s of HTTP 529 overloaded_error from the Messages API stand-in
"""
from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from dataclasses import dataclass

import ray

from bench.chaos_rig import APP, Rig

STORE_DOWN_S, MODEL_DOWN_S = 10.0, 30.0
FAULTS = ("replica", "host", "dispatcher", "reconciler", "scheduler", "store", "model")

try:  # the paging scheduler (actors/control/scheduler.py), once it has landed
    from actors.control.scheduler import SCHEDULER_NAME  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # HOOK: no paging scheduler in this build; the 'scheduler' fault is skipped
    SCHEDULER_NAME = None


@dataclass
class Injected:
    fault: str
    started: float
    cleared: float
    note: str


def window_s(fault: str) -> float:
    return {"store": STORE_DOWN_S, "model": MODEL_DOWN_S}.get(fault, 0.0)


def _kill(name: str, namespace: str, *, restart: bool) -> None:
    ray.kill(ray.get_actor(name, namespace=namespace), no_restart=not restart)


def _replica() -> str:
    replicas = sorted(a["name"] for a in ray.util.list_named_actors(all_namespaces=True)
                      if a["name"].startswith(f"SERVE_REPLICA::{APP}#GatewayIngress"))
    ray.kill(ray.get_actor(replicas[0], namespace="serve"), no_restart=True)
    return f"killed {replicas[0].rsplit('#', 1)[-1]} of {len(replicas)} replicas"


async def _sqlite_locked(rig: Rig, seconds: float) -> tuple[float, float]:
    """Another process takes SQLite's write lock and holds it: every writer meets SQLITE_BUSY."""
    script = ("import sqlite3, sys, time\n"
              "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
              "c.execute('BEGIN IMMEDIATE'); print('locked', flush=True)\n"
              "time.sleep(float(sys.argv[2])); c.execute('ROLLBACK')\n")
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", script, str(rig.store_path), str(seconds),
                                                stdout=subprocess.PIPE)
    assert proc.stdout is not None
    await proc.stdout.readline()
    started = time.monotonic()
    await proc.wait()
    return started, time.monotonic()


async def _dynamo_stopped(rig: Rig, seconds: float) -> tuple[float, float]:
    assert rig.gate is not None
    started = time.monotonic()
    await asyncio.to_thread(rig.gate.close)
    await asyncio.sleep(seconds)
    await asyncio.to_thread(rig.gate.open)
    return started, time.monotonic()


async def inject(rig: Rig, fault: str) -> Injected:
    now = time.monotonic()
    if fault == "replica":
        note = await asyncio.to_thread(_replica)
    elif fault == "host":
        await asyncio.to_thread(_kill, "clara-host-0", rig.namespace, restart=False)
        note = "killed clara-host-0 for good"
    elif fault == "dispatcher":
        await asyncio.to_thread(_kill, "clara-dispatcher", rig.namespace, restart=True)
        note = "killed clara-dispatcher (Ray restarts it)"
    elif fault == "reconciler":
        await asyncio.to_thread(_kill, "clara-reconciler", rig.namespace, restart=True)
        note = "killed clara-reconciler (Ray restarts it)"
    elif fault == "scheduler":
        if SCHEDULER_NAME is None:
            return Injected(fault, now, now, "SKIPPED: no paging scheduler actor in this build (hook in bench/chaos_faults.py)")
        await asyncio.to_thread(_kill, SCHEDULER_NAME, rig.namespace, restart=True)
        note = f"killed {SCHEDULER_NAME} (Ray restarts it)"
    elif fault == "store":
        locked = _dynamo_stopped if rig.store == "dynamodb" else _sqlite_locked
        started, cleared = await locked(rig, STORE_DOWN_S)
        what = "moto server stopped" if rig.store == "dynamodb" else "SQLite write-locked by another process"
        return Injected(fault, started, cleared, f"{what} for {cleared - started:.1f}s")
    elif fault == "model":
        rig.policy.overloaded_until = now + MODEL_DOWN_S
        await asyncio.sleep(MODEL_DOWN_S)
        return Injected(fault, now, time.monotonic(), f"Messages API answered 529 for {MODEL_DOWN_S:.0f}s "
                                                       f"({rig.policy.overloaded} requests)")
    else:
        raise ValueError(f"unknown fault {fault!r}; known: {', '.join(FAULTS)}")
    return Injected(fault, now, now, note)
