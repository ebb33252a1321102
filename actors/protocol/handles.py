"""Small typed protocols for the Ray actor handles the runtime calls through: what the pool,
the reconciler and the gateway may call on a PersonActor host, the DispatcherActor and the
reconciler, and what each answers. A Ray `ActorHandle` satisfies them (its methods are called
as `handle.method.remote(...)`, which returns an awaitable ObjectRef); a test's in-process
stand-in can too. Everything crosses as bytes of spine.codec."""
from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

import ray

if TYPE_CHECKING:
    from ray.actor import ActorHandle

R_co = TypeVar("R_co", covariant=True)


class Remote(Protocol, Generic[R_co]):
    """One actor method, as a handle exposes it."""

    def remote(self, *args: Any, **kwargs: Any) -> Awaitable[R_co]: ...


class PersonHostHandle(Protocol):
    """A PersonActor host (actors.host.host.PersonHost as a Ray actor)."""

    @property
    def handle(self) -> Remote[bytes]: ...  # MessageEnvelope -> HostReply
    @property
    def session(self) -> Remote[bytes]: ...  # SessionRequest -> HostReply
    @property
    def list_actors(self) -> Remote[bytes]: ...  # -> list[ActorInfo]
    @property
    def ping(self) -> Remote[str]: ...
    @property
    def drain(self) -> Remote[int]: ...
    @property
    def retire(self) -> Remote[int]: ...
    @property
    def reconfigure(self) -> Remote[None]: ...  # (RuntimeConfig bytes, revoked host names)
    @property
    def config_bytes(self) -> Remote[bytes]: ...
    @property
    def lease_owner(self) -> Remote[str]: ...


class DispatcherHandle(Protocol):
    """The DispatcherActor (actors.dispatcher.dispatcher_actor.DispatcherService in its own Ray actor process)."""

    @property
    def run(self) -> Remote[bytes]: ...  # (ToolInvocation, Caller) -> ToolResult
    @property
    def authority(self) -> Remote[bytes]: ...  # (person_id, property_id, fresh) -> Authority
    @property
    def prefetch(self) -> Remote[bytes]: ...  # (list[ToolInvocation], Caller) -> how each lookup ended
    @property
    def prefetch_report(self) -> Remote[bytes]: ...  # interaction_id -> list[dict]
    @property
    def begin_turn(self) -> Any: ...  # (Caller, list[ToolInvocation], fresh) -> streams Authority, then statuses
    @property
    def ping(self) -> Remote[str]: ...
    @property
    def config_bytes(self) -> Remote[bytes]: ...


class ReconcilerHandle(Protocol):
    """The reconciler (actors.control.reconciler) that sizes the hosts and publishes the layout."""

    @property
    def apply(self) -> Remote[bytes]: ...  # RuntimeConfig bytes -> Layout
    @property
    def layout(self) -> Remote[bytes]: ...  # -> Layout
    @property
    def ping(self) -> Remote[str]: ...


def kill_actor(handle: PersonHostHandle | DispatcherHandle | ReconcilerHandle) -> None:
    """End the actor behind a handle for good (Ray's kill takes its own ActorHandle type)."""
    ray.kill(cast("ActorHandle[Any]", handle), no_restart=True)
