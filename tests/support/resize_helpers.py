"""A resize run: the gateway under steady SMS load while `serve deploy` resizes its hosts.

Shared by tests/actors/control/test_resize.py (short) and bench/resize.py (longer). It deploys the real
ray_config.yaml the way `serve deploy` does (the controller's declarative `apply_config`,
which is what the dashboard's REST endpoint calls), with the test's store, tokens, namespace
and host count laid over it, and drives it over real HTTP with signed Twilio webhooks:
regulars (demo people texting again and again) and newcomers (a fresh number each message,
so new people keep arriving while hosts come and go). The turn is tests.support.turn_helpers:counted_turn,
which leaves one store item per run of a message, so a message answered twice is counted.
"""
from __future__ import annotations

import asyncio
import copy
import itertools
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import ray
import yaml
from ray.serve.schema import ServeDeploySchema

from actors.control.reconciler import RECONCILER_NAME, Layout
from actors.host.host import host_name
from gateway.cli.sms import send_sms
from spine.repo import Spine

REPO_ROOT = Path(__file__).resolve().parents[2]
COUNTED_TURN = "tests.support.turn_helpers:counted_turn"
REGULARS = ["+12065551001", "+12065551002", "+12065551003", "+13035551500", "+13035552020", "+12065550150",
            "+12065550151", "+12065550152"]
_fresh = itertools.count(1)


def newcomer() -> str:
    return f"+1415556{next(_fresh) % 10000:04d}"


def deploy_schema(*, app: str, env: dict[str, str], runtime: dict[str, Any], replicas: int = 2) -> ServeDeploySchema:
    """ray_config.yaml's application with this run's settings, as `serve deploy` would send it."""
    config = yaml.safe_load((REPO_ROOT / "ray_config.yaml").read_text())
    [clara] = copy.deepcopy(config["applications"])
    clara["name"] = app
    clara["args"]["env"] = env
    clara["args"]["sms"] = {**clara["args"].get("sms", {}), "sweep_every_s": 1}
    [ingress] = clara["deployments"]
    ingress["user_config"]["runtime"].update(runtime)
    ingress["autoscaling_config"].update(min_replicas=replicas, initial_replicas=replicas, max_replicas=replicas)
    ingress["ray_actor_options"]["num_cpus"] = 0.1
    return ServeDeploySchema.model_validate({"applications": [clara]})


def serve_deploy(schema: ServeDeploySchema) -> None:
    from ray.serve.context import _get_global_client

    _get_global_client().deploy_apps(schema)


def hosts_alive(namespace: str) -> list[str]:
    """The PersonActor hosts Ray holds alive in the namespace (what the dashboard lists)."""
    prefix = host_name(0)[:-1]
    return sorted(a["name"] for a in ray.util.list_named_actors(all_namespaces=True)
                  if a["namespace"] == namespace and a["name"].startswith(prefix))


async def settled(app: str, namespace: str, hosts: int, timeout_s: float = 180.0) -> float:
    """Wait until the app is RUNNING, its reconciler lays out `hosts` hosts with none still
    retiring, and Ray holds exactly those; returns the seconds it took."""
    from ray import serve

    started = time.monotonic()
    wanted = [host_name(i) for i in range(hosts)]
    seen: tuple = ()
    while time.monotonic() - started < timeout_s:
        status = serve.status().applications.get(app)
        try:
            reconciler = ray.get_actor(RECONCILER_NAME, namespace=namespace)
            layout = Layout.from_bytes(await reconciler.layout.remote())
            seen = (status and status.status, layout.hosts, await reconciler.retired.remote(), hosts_alive(namespace))
        except ValueError:
            seen = (status and status.status, "no reconciler yet")
        if seen == ("RUNNING", wanted, 0, wanted):
            return time.monotonic() - started
        await asyncio.sleep(0.2)
    raise AssertionError(f"{app} did not settle on {hosts} hosts: (status, layout, retiring, alive) = {seen}")


@dataclass
class Sent:
    sender: int
    number: str
    body: str
    message_sid: str
    replies: list[str]
    status_code: int
    sent_at: float  # time.monotonic()
    answered_at: float | None  # when the expected reply came back inline



@dataclass
class SteadyLoad:
    """Senders texting one message after another (as people do), `pause_s` apart."""

    base_url: str
    auth_token: str
    account_sid: str  # Twilio's webhooks carry the account's SID; the gateway refuses others
    regulars: int = 6
    newcomers: int = 2
    pause_s: float = 0.1
    turn_s: float = 0.02  # each turn holds this long, so resizes meet turns in flight
    sent: list[Sent] = field(default_factory=list)
    _stop: asyncio.Event = field(default_factory=asyncio.Event)
    _tasks: list[asyncio.Task] = field(default_factory=list)

    def start(self) -> None:
        senders = [lambda n=n: n for n in REGULARS[: self.regulars]] + [newcomer] * self.newcomers
        self._tasks = [asyncio.create_task(self._sender(i, pick)) for i, pick in enumerate(senders)]

    async def stop(self) -> None:
        self._stop.set()
        await asyncio.gather(*self._tasks)

    async def _sender(self, index: int, number_for) -> None:
        async with httpx.AsyncClient(timeout=30.0) as http:
            for n in itertools.count():
                if self._stop.is_set():
                    return
                number, body = number_for(), f"s{index} m{n} sleep={self.turn_s}"
                sent_at = time.monotonic()
                try:
                    exchange = await send_sms(http, base_url=self.base_url, auth_token=self.auth_token,
                                              from_=number, body=body, account_sid=self.account_sid)
                    answered_at = time.monotonic() if f"re: {body}" in exchange.messages else None
                    self.sent.append(Sent(index, number, body, exchange.message_sid, exchange.messages,
                                          exchange.status_code, sent_at, answered_at))
                except httpx.HTTPError as exc:
                    self.sent.append(Sent(index, number, body, f"unsent-{index}-{n}", [f"error: {exc}"], 0, sent_at, None))
                await asyncio.sleep(self.pause_s)


def served_again_after(sent: list[Sent], since: float) -> float:
    """Seconds from `since` until every sender had a reply again: the longest any person went
    unanswered after `since` (a host killed then)."""
    senders = {s.sender for s in sent}
    firsts = [min((s.answered_at for s in sent if s.sender == who and (s.answered_at or 0) > since), default=None)
              for who in senders]
    return max((f - since if f is not None else float("inf")) for f in firsts)


@dataclass
class Tally:
    sent: int
    answered: int
    lost: int
    duplicated: int

    def line(self) -> str:
        return f"sent {self.sent}, answered {self.answered}, lost {self.lost}, duplicated {self.duplicated}"


async def tally(spine: Spine, sent: list[Sent], rest_bodies: list[str]) -> Tally:
    """answered: the reply came back once (inline TwiML, or later by REST); lost: no reply;
    duplicated: the turn ran more than once, or the reply went out more than once."""
    rest = {}
    for body in rest_bodies:
        rest[body] = rest.get(body, 0) + 1
    answered = lost = duplicated = 0
    for message in sent:
        expected = f"re: {message.body}"
        delivered = message.replies.count(expected) + rest.get(expected, 0)
        runs = len(await spine.store.query(f"TURNRUN#{message.message_sid}"))
        if delivered == 0:
            lost += 1
        else:
            answered += 1
        if delivered > 1 or runs > 1:
            duplicated += 1
    return Tally(len(sent), answered, lost, duplicated)
