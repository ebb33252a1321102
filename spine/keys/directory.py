"""People, their claims and roles, and the places: organizations, properties, units, leases, vendors."""
from __future__ import annotations

ITEM = "_"  # the sort key of a record that is alone in its partition

# -- people, claims, roles ---------------------------------------------------------------
ROLE_PREFIX = "ROLE#"  # sort keys of a Person's role rows
APPLINK_PREFIX = "APPLINK#"  # sort keys of a Person's application links
CONTEXT = "CONTEXT"  # the sort key of a Person's personContext
LAST_CONTACT = "LASTCONTACT"  # the sort key of the channel and address a Person last wrote from


def person(person_id: str) -> str:
    return f"PERSON#{person_id}"


def role(role_id: str) -> str:
    return f"{ROLE_PREFIX}{role_id}"


CLAIM_PREFIX = "CLAIM#"


def claim(kind: str, value: str) -> str:
    """A wire address (phone, email, Telegram user) claimed by one Person."""
    return f"{CLAIM_PREFIX}{kind}#{value}"


def unit_roles(unit_id: str) -> str:
    return f"UNITROLES#{unit_id}"


def vendor_roles(vendor_id: str) -> str:
    return f"VENDORROLES#{vendor_id}"


def property_roles(property_id: str) -> str:
    return f"PROPROLES#{property_id}"


def org_roles(org_id: str | None) -> str:
    return f"ORGROLES#{org_id}"


def prospect(property_id: str) -> str:
    """The sort key of a Person's prospect record at a property."""
    return f"PROSPECT#{property_id}"


def app_link(link_id: str) -> str:
    return f"{APPLINK_PREFIX}{link_id}"


# -- organizations, properties, units, leases, vendors -------------------------------------
PROPERTIES = "PROPERTIES"  # index of every property
VENDORS = "VENDORS"  # index of every vendor


def org(org_id: str) -> str:
    return f"ORG#{org_id}"


def property_(property_id: str) -> str:
    return f"PROPERTY#{property_id}"


def number(e164: str) -> str:
    """A phone number that reaches a property (SMS or voice)."""
    return f"NUMBER#{e164}"


def email(address: str) -> str:
    """An email address that reaches a property (case-insensitive)."""
    return f"EMAIL#{address.strip().lower()}"


def telegram_bot(bot_id: str) -> str:
    return f"TGBOT#{bot_id}"


def unit(unit_id: str) -> str:
    return f"UNIT#{unit_id}"


def property_units(property_id: str) -> str:
    return f"PROPUNITS#{property_id}"


def lease(lease_id: str) -> str:
    return f"LEASE#{lease_id}"


def unit_leases(unit_id: str) -> str:
    return f"UNITLEASE#{unit_id}"


def vendor(vendor_id: str) -> str:
    return f"VENDOR#{vendor_id}"
