"""Admin tokens and sessions, voice caller verification and step-up, the PersonActor runtime's
leases and handoffs, and the store's health probes."""
from __future__ import annotations


# -- admin tokens and sessions -----------------------------------------------------------
def admin_token(token_hash: str) -> str:
    return f"ADMINTOKEN#{token_hash}"


def admin_tokens_of(person_id: str) -> str:
    return f"ADMINTOKENS#{person_id}"


def admin_session(session_hash: str) -> str:
    return f"ADMINSESSION#{session_hash}"


def admin_sessions_of(identity: str) -> str:
    return f"ADMINSESSIONS#{identity}"


# -- voice caller verification, step-up ----------------------------------------------------
def call_verification(interaction_id: str) -> str:
    return f"CALLVERIFY#{interaction_id}"


def call_caller(interaction_id: str) -> str:
    """The number an unknown caller's call came from (spine.verification.CallCaller)."""
    return f"CALLCALLER#{interaction_id}"


def step_up(person_id: str) -> str:
    """The latest one-time code texted to a Person's number on file (one per Person)."""
    return f"STEPUP#{person_id}"


def step_up_sends(person_id: str) -> str:
    """When codes were texted to a Person's number in the last day (the sliding-window budget)."""
    return f"STEPUPSENDS#{person_id}"


# -- the PersonActor runtime ---------------------------------------------------------------
def owner_lease(actor_key: str) -> str:
    """The lease naming the host that owns a PersonActor."""
    return f"OWNER#{actor_key}"


def handoff(actor_key: str) -> str:
    """A conversation handed to a PersonActor (a merge, a minted Person)."""
    return f"HANDOFF#{actor_key}"


# -- health probes (never written: a read of a missing item proves the store answers) ------
HEALTH_READY = "HEALTH#ready"
HEALTH_CHECK = "HEALTH#check"
