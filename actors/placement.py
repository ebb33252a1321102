"""Where a person lives: a placement key per participant and a stable hash of it onto hosts."""
from __future__ import annotations

import hashlib

from spine.envelope import MessageEnvelope
from spine.participants import normalize_address
from spine.phone import InvalidPhoneNumber


def placement_key(envelope: MessageEnvelope) -> str:
    """The participant id if the gateway resolved one, else the normalized wire address
    (an unknown caller is one actor until the router mints them a Person)."""
    if envelope.participant_id:
        return f"person:{envelope.participant_id}"
    try:
        address = normalize_address(envelope.channel, envelope.from_address)
    except InvalidPhoneNumber:
        address = envelope.from_address.strip()
    return f"addr:{address}"


def host_index(key: str, hosts: int) -> int:
    """Stable across processes and restarts (Python's hash() is salted per process)."""
    digest = hashlib.blake2b(key.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % hosts
