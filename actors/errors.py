"""The exceptions the actors layer raises, under one base its callers catch: `ActorError`.

    ActorError
    ├── ModelUnavailable   the model could not answer (overloaded past retries, timeout,
    │                      malformed answer; actors.model.base)
    ├── TurnFailed         no reply for this message; the gateway answers with its fallback
    │                      text (actors.client.pool)
    ├── Moved              not this host's person: another host owns the key, or the message
    │                      belongs to another key; the pool resends (actors.host.person_runtime)
    ├── OwnershipHeld          another live host holds the person's lease (actors.host.ownership)
    └── OwnershipLost          our lease lapsed and was taken; our warm state is stale (actors.host.ownership)

Moved, OwnershipHeld and OwnershipLost are the runtime's own control flow and never leave actors/;
callers above it (gateway/) catch ActorError. Store errors pass through as spine.errors.SpineError.
"""
from __future__ import annotations

__all__ = ["ActorError"]


class ActorError(Exception):
    """Base of every exception the actors layer raises."""
