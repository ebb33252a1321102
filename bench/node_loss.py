"""Lose a node under steady SMS load: nothing lost, nothing answered twice, people served again fast.

A Ray cluster of several nodes on this machine (ray.cluster_utils.Cluster: a head that runs
Serve's proxy, the GatewayIngress replicas and the DispatcherActor, and worker nodes for the
PersonActor hosts), the DynamoDB store on a moto server on loopback, Twilio's REST API on the
local stand-in. Closed-loop senders (each its own tenant) text steadily; after the warm-up the
raylet of a worker node that holds hosts is killed. A sender whose request fails at the HTTP
level redelivers it with the same MessageSid, as Twilio does. After the load the run waits for
the abandoned-message sweep, then audits every MessageSid in the store and the Twilio stand-in.

Reports sent, answered, failed (apology delivered), lost (accepted but neither), duplicated
(more than one reply delivered for one message) and, for the people whose host was on the lost
node, the time from the kill to their first answered message. Criteria: 0 lost, 0 duplicated,
recovery within 10 s.

    .venv/bin/python bench/node_loss.py [--senders 12] [--workers 3] [--before-s 10] [--after-s 30]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.sms import AUTH_TOKEN, BODY, YALE, seed_tenants  # noqa: E402
from gateway.channel_inbound import APOLOGY  # noqa: E402

ABANDONED_AFTER_S, SWEEP_EVERY_S = 30.0, 3.0
RECOVERY_MAX_S = 10.0
NAMESPACE = "bench-node-loss"
# Ray notices a dead node after `period x threshold` of failed health checks (defaults 3 s x 5).
HEALTH = {"health_check_period_ms": 1000, "health_check_timeout_ms": 1000, "health_check_failure_threshold": 3}


@dataclass
class Sent:
    sid: str
    phone: str
    sent_at: float
    done_at: float = 0.0
    inline: str = ""  # the TwiML reply body, '' for an empty <Response/>
    attempts: int = 0


@dataclass
class Load:
    base_url: str
    account_sid: str
    sent: list[Sent] = field(default_factory=list)
    stop: bool = False

    async def sender(self, http, phone: str, think_s: float) -> None:
        from gateway.cli.sms import inbound_form
        from gateway.twilio.signature import sign

        while not self.stop:
            record = Sent(sid="SM" + uuid.uuid4().hex, phone=phone, sent_at=time.monotonic())
            self.sent.append(record)
            form = inbound_form(from_=phone, to=YALE, body=BODY, message_sid=record.sid, account_sid=self.account_sid)
            headers = {"X-Twilio-Signature": sign(AUTH_TOKEN, self.base_url + "/sms/twilio", form)}
            for record.attempts in range(1, 4):  # Twilio-like redelivery of the same MessageSid
                try:
                    response = await http.post("/sms/twilio", data=form, headers=headers)
                    if response.status_code == 200:
                        record.inline = _messages(response.text)
                        break
                except Exception:  # noqa: BLE001 - connection reset by a dying proxy hop
                    pass
                await asyncio.sleep(1.0)
            record.done_at = time.monotonic()
            await asyncio.sleep(think_s)


def _messages(twiml: str) -> str:
    import re

    return " / ".join(re.findall(r"<Message>(.*?)</Message>", twiml, re.S))


async def seed(store_url: str, senders: int) -> dict[str, str]:
    from spine.repo import Spine
    from spine.store.url import open_store

    spine = Spine(open_store(store_url))
    try:
        await spine.store.ensure_table()
        return await seed_tenants(spine, senders)
    finally:
        await spine.store.close()


def start_cluster(workers: int):
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 1, "resources": {"gateway_head": 1}, "_system_config": HEALTH, "include_dashboard": False})
    nodes = [cluster.add_node(num_cpus=1) for _ in range(workers)]
    cluster.wait_for_nodes()
    return cluster, nodes


def deploy(store_url: str, port: int, twilio) -> None:
    from ray import serve

    from gateway.app import GatewayIngress
    from gateway.settings import GatewayArgs

    env = {"GATEWAY_STORE": store_url, "GATEWAY_MODEL": "offline", "TWILIO_AUTH_TOKEN": AUTH_TOKEN,
           "TWILIO_ACCOUNT_SID": twilio.account_sid, "TWILIO_API_BASE": twilio.url,
           "GATEWAY_PUBLIC_URL": f"http://127.0.0.1:{port}"}
    runtime = {"namespace": NAMESPACE, "hosts": 4, "host_num_cpus": 0.5, "dispatcher_num_cpus": 0.25,
               "detached": False, "lease_ttl_s": 10}
    sms = {"abandoned_after_s": ABANDONED_AFTER_S, "sweep_every_s": SWEEP_EVERY_S}
    args = GatewayArgs.model_validate({"runtime": runtime, "sms": sms, "env": env}).to_args()
    ingress = GatewayIngress.options(
        ray_actor_options={"num_cpus": 0.1, "resources": {"gateway_head": 0.1}}, user_config={"runtime": runtime},
        autoscaling_config={"min_replicas": 2, "initial_replicas": 2, "max_replicas": 2})
    serve.run(ingress.bind(args), name="clara", route_prefix="/")


def placements() -> dict[str, str]:
    """Actor name -> node id, for the hosts and the dispatcher. From the GCS actor table (the
    public state API needs the dashboard, which this cluster does without)."""
    from ray._private import state

    return {a["Name"]: a["Address"]["NodeID"] for a in state.actors().values()
            if a["State"] == "ALIVE" and a["Name"].startswith(("clara-host", "clara-dispatcher", "clara-reconciler"))}


async def audit(store_url: str, load: Load, twilio) -> dict:
    from spine.records import InboundStatus
    from spine.repo import Spine
    from spine.store.url import open_store

    spine = Spine(open_store(store_url))
    counts = {"sent": len(load.sent), "answered": 0, "failed": 0, "lost": 0, "duplicated": 0, "unaccepted": 0}
    try:
        for record in load.sent:
            inbound = await spine.get_inbound(record.sid)
            if inbound is None:
                counts["unaccepted"] += 1  # never reached a replica (all three attempts failed)
                continue
            late = [m for m in (await spine.get_outbox(f"{record.sid}-0"), await spine.get_outbox(f"abandoned-{record.sid}-0"))
                    if m is not None and m.status.value == "sent"]
            delivered = int(bool(record.inline)) + len(late)
            if delivered > 1:
                counts["duplicated"] += 1
            if inbound.status == InboundStatus.ANSWERED and delivered:
                counts["answered"] += 1
            elif inbound.status == InboundStatus.FAILED and delivered:
                counts["failed"] += 1
            else:
                counts["lost"] += 1
    finally:
        await spine.store.close()
    return counts


def recovery(load: Load, twilio, phones_on_lost: set[str], killed_at: float) -> list[float | None]:
    """For each person of the lost node, seconds from the kill until a reply (not the apology)
    was delivered to them again: inline as TwiML, or late through Twilio's REST API."""
    firsts: list[float | None] = []
    for phone in sorted(phones_on_lost):
        inline = [r.done_at for r in load.sent if r.phone == phone and r.done_at > killed_at
                  and r.inline and APOLOGY not in r.inline]
        late = [sent.at for sent in twilio.accepted() if sent.to == phone and sent.at > killed_at
                and APOLOGY not in sent.body]
        firsts.append(min(inline + late) - killed_at if inline or late else None)
    return firsts


def phones_on(hosts: set[int], phones: dict[str, str], total_hosts: int) -> set[str]:
    from actors.protocol.keys import host_index

    return {phone for phone, person in phones.items() if host_index(f"person:{person}", total_hosts) in hosts}


async def watch_layout(changes: list[tuple[float, list[str]]], stop: asyncio.Event) -> None:
    """The reconciler's layout every 0.1 s, each change with its time: when the lost host left
    the layout (detection) and when its successor rejoined."""
    import ray

    from actors.control.reconciler import RECONCILER_NAME, Layout

    while not stop.is_set():
        try:  # the reconciler itself may be restarting (its node lost): ask again
            reconciler = ray.get_actor(RECONCILER_NAME, namespace=NAMESPACE)
            hosts = Layout.from_bytes(await asyncio.wait_for(reconciler.layout.remote(), 1.0)).hosts
        except (ValueError, TimeoutError, ray.exceptions.RayActorError):
            hosts = ["(reconciler unreachable)"]
        if not changes or changes[-1][1] != hosts:
            changes.append((time.monotonic(), hosts))
        await asyncio.sleep(0.1)


async def run_load(port: int, phones: list[str], args, cluster, lost_node, lost_hosts,
                   account_sid: str) -> tuple[Load, float, list[tuple[float, list[str]]]]:
    import httpx

    load = Load(f"http://127.0.0.1:{port}", account_sid)
    changes: list[tuple[float, list[str]]] = []
    stop = asyncio.Event()
    async with httpx.AsyncClient(base_url=load.base_url, timeout=30.0) as http:
        senders = [asyncio.create_task(load.sender(http, phone, args.think_s)) for phone in phones]
        watcher = asyncio.create_task(watch_layout(changes, stop))
        await asyncio.sleep(args.before_s)
        killed_at = time.monotonic()
        print(f"killing the raylet of node {lost_node.node_id[:8]} (hosts {sorted(lost_hosts)})", flush=True)
        await asyncio.to_thread(cluster.remove_node, lost_node, False)
        await asyncio.sleep(args.after_s)
        load.stop = True
        await asyncio.gather(*senders)
        stop.set()
        await watcher
    return load, killed_at, changes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--senders", type=int, default=12)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--before-s", type=float, default=10.0)
    parser.add_argument("--after-s", type=float, default=30.0)
    parser.add_argument("--think-s", type=float, default=0.5)
    args = parser.parse_args()

    import ray
    from ray import serve

    from tests.support.moto_server import start_moto_server
    from tests.support.ray_fixtures import free_port
    from tests.support.twilio_server import TwilioStandIn

    moto = start_moto_server()
    with moto.credentials(), TwilioStandIn(auth_token=AUTH_TOKEN) as twilio:
        store_url = moto.store_url("clara-node-loss")
        people = asyncio.run(seed(store_url, args.senders))
        os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
        # Four Ray nodes on two shared cores start slowly: give Serve's proxy time to come up.
        os.environ.setdefault("RAY_SERVE_PROXY_READY_CHECK_TIMEOUT_S", "60")
        cluster, workers = start_cluster(args.workers)
        try:
            ray.init(address=cluster.address, log_to_driver=False, configure_logging=False)
            port = free_port()
            serve.start(http_options={"host": "127.0.0.1", "port": port, "location": "HeadOnly"})
            deploy(store_url, port, twilio)
            where = placements()
            print("placement:", {name: node[:8] for name, node in sorted(where.items())}, flush=True)
            by_node = {n: {int(name.rsplit("-", 1)[1]) for name, node in where.items()
                           if node == n.node_id and name.startswith("clara-host")} for n in workers}
            lost_node = max(workers, key=lambda n: len(by_node[n]))
            lost_hosts = by_node[lost_node]
            affected = phones_on(lost_hosts, people, 4)
            load, killed_at, changes = asyncio.run(run_load(port, list(people), args, cluster, lost_node, lost_hosts,
                                                            twilio.account_sid))
            print(f"load stopped; waiting {ABANDONED_AFTER_S + 2 * SWEEP_EVERY_S:.0f}s for the abandoned sweep", flush=True)
            time.sleep(ABANDONED_AFTER_S + 2 * SWEEP_EVERY_S)
            counts = asyncio.run(audit(store_url, load, twilio))
            per_person = recovery(load, twilio, affected, killed_at)
            took = None if None in per_person or not per_person else max(per_person)
            print("placement after:", {name: node[:8] for name, node in sorted(placements().items())})
        finally:
            serve.shutdown()
            ray.shutdown()
            cluster.shutdown()
            moto.stop()
    print(f"\nnode loss under SMS load: {args.senders} senders, {args.workers} worker nodes, 4 hosts; "
          f"{len(affected)} people on the lost node")
    for key, value in counts.items():
        print(f"  {key:12} {value}")
    for at, hosts in changes:
        if at > killed_at:
            print(f"  layout at +{at - killed_at:5.2f}s: {', '.join(hosts)}")
    print("  each affected person answered again at: "
          + ", ".join("never" if t is None else f"+{t:.2f}s" for t in per_person))
    print(f"  recovery     {'never' if took is None else f'{took:.2f}s'} (kill -> every affected person answered again)")
    ok = counts["lost"] == 0 and counts["duplicated"] == 0 and took is not None and took <= RECOVERY_MAX_S
    print(f"criteria (0 lost, 0 duplicated, recovery <= {RECOVERY_MAX_S:.0f}s): {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
