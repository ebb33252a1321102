"""RuntimeConfig: how the actor runtime is sized and what it talks to.

The gateway builds it from Settings plus the `runtime` section of the GatewayIngress
`user_config` in ray_config.yaml, where operators scale the pool. It crosses to Ray actors as
msgpack bytes of its dump. Unknown keys are refused: a misspelt setting must not be ignored.

Fields fall in three groups by what a change costs on a running cluster (`serve deploy`):
live ones reach the running hosts in place; a host-process field replaces each host process
(one at a time, each drained first); a dispatcher-process field replaces the DispatcherActor.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ConfigDict, Field

from spine.codec import WireModel
from spine.store.url import DEFAULT_STORE_URL

# The model ids a turn and the fast calls (refresh, intent confirm) use unless GATEWAY_TURN_MODEL /
# GATEWAY_FAST_MODEL say otherwise: spelled here only (gateway/settings.py, the backends read them).
DEFAULT_TURN_MODEL = "claude-sonnet-4-6"
DEFAULT_FAST_MODEL = "claude-haiku-4-5"


@dataclass
class TurnBudget:
    """How long and how many model rounds one turn may take (RuntimeConfig.turn_budget)."""

    max_rounds: int = 4
    total_s: float = 12.0   # safely below Twilio's 15 s webhook limit
    model_call_s: float = 8.0


# Fields a running host process cannot take in place (Ray resources and concurrency are fixed
# at actor creation; the store connection and the model client, with its call timeout, are
# built once per process).
HOST_PROCESS_FIELDS = ("namespace", "detached", "host_num_cpus", "host_max_concurrency", "max_task_retries",
                       "store_url", "store_timeout_s", "model", "anthropic_api_key", "anthropic_base_url",
                       "anthropic_turn_model", "anthropic_fast_model", "model_call_s")
DISPATCHER_PROCESS_FIELDS = ("namespace", "detached", "dispatcher_num_cpus", "dispatcher_max_concurrency",
                             "store_url", "store_timeout_s")


class RuntimeConfig(WireModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    # What the actors talk to (field names match gateway Settings so make_model can read either).
    store_url: str = DEFAULT_STORE_URL
    store_timeout_s: float = 5.0
    model: str = "offline"  # anthropic | offline
    anthropic_api_key: str | None = None
    anthropic_base_url: str | None = None
    anthropic_turn_model: str = DEFAULT_TURN_MODEL
    anthropic_fast_model: str = DEFAULT_FAST_MODEL

    # The pool: a few host processes, each holding many PersonActors.
    namespace: str = "clara"
    hosts: int = Field(default=2, ge=1)
    host_num_cpus: float = Field(default=0.25, ge=0)
    dispatcher_num_cpus: float = Field(default=0.25, ge=0)
    host_max_concurrency: int = Field(default=1000, ge=1)  # concurrent turns per host process
    dispatcher_max_concurrency: int = Field(default=1000, ge=1)
    max_task_retries: int = 3  # a turn in flight on a host that died is retried on its restart
    detached: bool = True  # hosts outlive the Serve replica that created them

    # Host health, watched by the one HostReconciler: a host that does not answer a ping for
    # `host_dead_after_s` (process gone for good, node lost) is replaced at once, and the new
    # process takes over the dead one's leases (same owner id) instead of waiting them out.
    host_health_check_s: float = Field(default=1.0, gt=0)
    host_dead_after_s: float = Field(default=3.0, gt=0)

    # PersonActor lifecycle.
    idle_deactivate_s: float = Field(default=300.0, gt=0)  # idle this long = end of interaction
    # A lease holds for the idle window plus this margin from a person's last turn, so it covers
    # the whole warm life of a PersonActor with about one store write per margin/2 of activity.
    # It bounds how long a host that died for good (and was not drained) blocks its people.
    lease_ttl_s: float = Field(default=30.0, gt=0)
    transcript_turns: int = Field(default=10, ge=0)  # user/assistant pairs kept warm
    transcript_chars: int = Field(default=1600, ge=1)  # per entry; one long SMS

    # The turn function as "module:function"; None is actors.turn.interaction.run_interaction. Lets
    # benchmarks and tests run the runtime with a trivial turn, without patching anything.
    turn_function: str | None = None

    # Speculative prefetch (tools.prefetch): the read-only lookups a message suggests start beside
    # the turn's first model call, so a matching tool call is served from the DispatcherActor's
    # cache (bench/prefetch.py measures what it hides). Off: every tool call is a lookup of its own.
    prefetch: bool = True

    # One turn (TurnBudget, above).
    max_rounds: int = 4
    turn_total_s: float = 12.0
    model_call_s: float = 8.0

    @property
    def submit_timeout_s(self) -> float:
        """How long the pool waits for a host's answer: the turn budget plus activation slack."""
        return self.turn_total_s + 8.0

    @property
    def sweep_interval_s(self) -> float:
        """One sweeper per host: often enough to renew leases and deactivate on time."""
        return max(0.05, min(self.idle_deactivate_s / 4, self.lease_ttl_s / 4, 5.0))

    def host_process(self) -> tuple[Any, ...]:
        """What a host process is built with; a change needs a new process."""
        return tuple(getattr(self, name) for name in HOST_PROCESS_FIELDS)

    def dispatcher_process(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in DISPATCHER_PROCESS_FIELDS)

    def budget(self) -> TurnBudget:
        return TurnBudget(max_rounds=self.max_rounds, total_s=self.turn_total_s, model_call_s=self.model_call_s)

    @classmethod
    def from_settings(cls, settings: Any, runtime: dict[str, Any] | None = None) -> RuntimeConfig:
        """From gateway Settings (any object with the same field names) and ray_config.yaml's
        runtime section; the yaml wins for sizing, Settings for endpoints and keys."""
        shared = {name: getattr(settings, name) for name in
                  ("store_url", "model", "anthropic_api_key", "anthropic_base_url",
                   "anthropic_turn_model", "anthropic_fast_model") if hasattr(settings, name)}
        return cls.model_validate({**shared, **(runtime or {})})

