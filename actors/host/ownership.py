"""Owner leases: exactly one host runs a person's turns, across pool resizes and host restarts.

A lease is one store item `OWNER#{key}` written only by conditional puts: create-if-absent, or
compare-and-set on the version read. Whoever wins the write owns the person until `expires_at`
(wall-clock seconds, shared by every process). A host takes a lease that is absent, expired,
released, or already its own (a restarted host has the same id, and Ray never runs two live
instances of one named actor), or held by a revoked owner: a host the HostReconciler removed
and killed without a drain, whose leases would otherwise block its people until they lapse.
The epoch goes up on every take, so a stale holder's CAS fails.
"""
from __future__ import annotations

import time
from collections.abc import Callable

from pydantic import BaseModel

import actors.metrics as metrics
from actors.errors import ActorError
from spine import keys
from spine.store.base import ABSENT, ConditionFailed, Item, Store


class OwnershipHeld(ActorError):
    """Another live host owns this person; send the message there."""

    def __init__(self, key: str, owner: str, expires_at: float) -> None:
        super().__init__(f"{key} is owned by {owner} until {expires_at:.1f}")
        self.key, self.owner, self.expires_at = key, owner, expires_at


class OwnershipLost(ActorError):
    """Our lease moved on (it lapsed and someone else took it); our warm state is stale."""


class Ownership(BaseModel):
    key: str
    owner: str
    epoch: int
    expires_at: float
    version: int

    def remaining(self, now: float) -> float:
        return self.expires_at - now


def ownership_pk(key: str) -> str:
    return keys.owner_lease(key)


class Ownerships:
    """Takes, renews and releases the leases of one host (`owner`)."""

    def __init__(self, store: Store, owner: str, ttl_s: float, clock: Callable[[], float] = time.time) -> None:
        """`ttl_s`: how long each take or renewal holds the lease."""
        self.store, self.owner, self.ttl_s, self.clock = store, owner, ttl_s, clock
        self.revoked: frozenset[str] = frozenset()  # owners known dead for good (set by the host)

    async def acquire(self, key: str) -> Ownership:
        """Take the lease or raise OwnershipHeld naming the live owner. Losing a race re-reads once
        per loser, so this ends: someone won, and we either are them or see them."""
        while True:
            item = await self.store.get(ownership_pk(key))
            now = self.clock()
            if item is None:
                epoch, expect = 1, ABSENT
            else:
                owner, expires_at = item.data.get("owner", ""), float(item.data.get("expires_at", 0))
                if owner and owner != self.owner and expires_at > now and owner not in self.revoked:
                    raise OwnershipHeld(key, owner, expires_at)
                epoch, expect = int(item.data.get("epoch", 0)) + 1, item.version
            try:
                lease = await self._write(key, epoch, now + self.ttl_s, expect)
            except ConditionFailed:
                continue
            if item is not None and item.data.get("owner") not in ("", self.owner):
                metrics.count("clara_lease_takeovers")  # a lapsed lease of another owner
            return lease

    async def renew(self, lease: Ownership) -> Ownership:
        """Extend a lease we hold; OwnershipLost if anyone else took it since we did. Our own
        concurrent renewal (same owner, same epoch) is not a loss: we adopt what it wrote."""
        try:
            return await self._write(lease.key, lease.epoch, self.clock() + self.ttl_s, lease.version)
        except ConditionFailed:
            now = await self.current(lease.key)
            if now and (now.owner, now.epoch) == (self.owner, lease.epoch) and now.expires_at > self.clock():
                return now
            raise OwnershipLost(f"{lease.key} epoch {lease.epoch} is no longer ours") from None

    async def release(self, lease: Ownership) -> bool:
        """Give the lease up at once (deactivation), so a new placement need not wait for expiry.
        False if it had already moved on, which is fine: then it is not ours to release."""
        try:
            await self.store.put(Item(pk=ownership_pk(lease.key), data={"owner": "", "epoch": lease.epoch,
                                                                    "expires_at": 0.0}),
                                 expect_version=lease.version)
            return True
        except ConditionFailed:
            return False

    async def current(self, key: str) -> Ownership | None:
        item = await self.store.get(ownership_pk(key))
        if item is None:
            return None
        return Ownership(key=key, owner=item.data.get("owner", ""), epoch=int(item.data.get("epoch", 0)),
                     expires_at=float(item.data.get("expires_at", 0)), version=item.version)

    async def _write(self, key: str, epoch: int, expires_at: float, expect: int) -> Ownership:
        data = {"owner": self.owner, "epoch": epoch, "expires_at": expires_at}
        item = await self.store.put(Item(pk=ownership_pk(key), data=data), expect_version=expect)
        return Ownership(key=key, owner=self.owner, epoch=epoch, expires_at=expires_at, version=item.version)
