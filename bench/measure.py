"""What the benches measure with: percentiles, CPU time from /proc, and the replica count the
operator configured. Shared by bench/sms.py, bench/voice.py and bench/voice_serve.py."""
from __future__ import annotations

import os
import statistics
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RAY_DAEMONS = ("raylet", "gcs_server")


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (q in 0-100), interpolated between samples."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=1000, method="inclusive")[int(q * 10) - 1]


def summary(values: list[float]) -> str:
    return f"p50 {pct(values, 50):6.2f} ms   p99 {pct(values, 99):6.2f} ms   max {max(values):6.2f} ms   n={len(values)}"


def _cpu_of(stat: Path) -> float:
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def cpu_ms(pids: list[int]) -> float:
    """User + system CPU of these processes so far (Linux /proc), in ms."""
    return sum(_cpu_of(Path(f"/proc/{pid}/stat")) for pid in pids)


def _descendants(root: int) -> set[int]:
    """The processes below `root` (Linux /proc): a bench's own Ray (its GCS, raylet and workers
    are started under the process that called ray.init), not another engineer's Ray."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
        children.setdefault(ppid, []).append(int(stat.parent.name))
    found, todo = set(), [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def ray_cpu_ms() -> dict[str, float]:
    """CPU (ms) so far of this bench's Ray processes, summed by role: workers by their title
    (`ray::ProxyActor.receive_asgi_messages` -> "ProxyActor"), and the raylet and GCS. Only
    processes below this one count: the machine is shared, other Ray instances run on it."""
    by_role: dict[str, float] = {}
    for pid in _descendants(os.getpid()):
        stat = Path(f"/proc/{pid}/stat")
        try:
            cmd = (stat.parent / "cmdline").read_bytes().split(b"\0")[0].decode()
            name = Path(cmd).name
            role = cmd[5:].split(".")[0].strip() if cmd.startswith("ray::") else name if name in RAY_DAEMONS else None
            if role:
                by_role[role] = by_role.get(role, 0.0) + _cpu_of(stat)
        except (OSError, IndexError):
            continue  # gone meanwhile
    return by_role


def configured_replicas() -> int:
    """GatewayIngress's min_replicas in ray_config.yaml: what a burst meets before any upscale."""
    import yaml

    config = yaml.safe_load((ROOT / "ray_config.yaml").read_text())
    [ingress] = [d for app in config["applications"] for d in app["deployments"] if d["name"] == "GatewayIngress"]
    return int(ingress.get("autoscaling_config", {}).get("min_replicas", ingress.get("num_replicas", 1)))


def configured_runtime() -> dict:
    """GatewayIngress's user_config runtime in ray_config.yaml (the hosts as deployed)."""
    import yaml

    config = yaml.safe_load((ROOT / "ray_config.yaml").read_text())
    [ingress] = [d for app in config["applications"] for d in app["deployments"] if d["name"] == "GatewayIngress"]
    return dict(ingress.get("user_config", {}).get("runtime", {}))
