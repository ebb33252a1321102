"""One Person per human across sources, for a PMS sync.

A PMS holds the same human more than once (a tenant who is also a vendor's contact, a tenant on
two leases) and the store may already hold them from another source (`gateway import`, the demo).
A person record whose phone or email another one holds is the same human when the names agree:
it becomes an alias of that Person (its roles attach there, nothing of the Person is rewritten).
When the names differ, it is two people on one number or address: a reported error for the
record, never a merge. Phones and emails are compared in their normalised spelling."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import spine.keys as keys
from desk.portfolio.rows import PersonRow
from spine.identity import ClaimKind
from spine.store.base import Store


@dataclass(frozen=True)
class Candidate:
    row: PersonRow
    label: str  # how the PMS names the record ("tenant 5001"), for an error

    def addresses(self) -> list[tuple[ClaimKind, str]]:
        return [(k, v) for k, v in ((ClaimKind.PHONE, self.row.phone), (ClaimKind.EMAIL, self.row.email)) if v]


@dataclass
class Resolution:
    rows: list[PersonRow] = field(default_factory=list)  # the people to import
    alias_of_row: dict[str, str] = field(default_factory=dict)  # external id -> the row's external id it is
    alias_of_person: dict[str, str] = field(default_factory=dict)  # external id -> a stored Person's id
    conflicts: dict[str, tuple[str, str]] = field(default_factory=dict)  # external id -> (column, reason)


def same_name(a: str, b: str) -> bool:
    def norm(s: str) -> str:
        return re.sub(r"\s+", " ", s).strip().casefold()
    return bool(norm(a)) and norm(a) == norm(b)


def _label(kind: ClaimKind, value: str) -> str:
    return f"phone ending {value[-4:]}" if kind == ClaimKind.PHONE else f"email {value}"


def resolve_in_run(candidates: list[Candidate]) -> Resolution:
    """Within one sync: the first record holding an address keeps it; a later one with the same
    name is its alias, with another name a conflict. Candidates come in a stable order (tenants,
    then vendors, by id), so the same records resolve the same way every sync."""
    out = Resolution()
    holders: dict[tuple[ClaimKind, str], Candidate] = {}
    for cand in candidates:
        held = {holders[a].row.external_id: (a, holders[a]) for a in cand.addresses() if a in holders}
        if not held:
            out.rows.append(cand.row)
            holders.update(dict.fromkeys(cand.addresses(), cand))
            continue
        (address, other), *rest = held.values()
        if rest or not same_name(cand.row.display_name, other.row.display_name):
            out.conflicts[cand.row.external_id] = (address[0].value, (
                f"{_label(*address)} is also {other.label}'s ({other.row.display_name}), not "
                f"{cand.row.display_name}: two people on one {address[0].value}, not merged; fix it in the PMS"))
            continue
        out.alias_of_row[cand.row.external_id] = other.row.external_id
    return out


async def resolve_in_store(store: Store, res: Resolution, own_ids: dict[str, str]) -> None:
    """Against the store: a row whose address a Person other than its own (`own_ids`: external id
    -> the id its Person has or will have) holds is that Person's alias, or a conflict."""
    wanted = {(keys.claim(k, v), keys.ITEM): (row, k, v) for row in res.rows
              for k, v in ((ClaimKind.PHONE, row.phone), (ClaimKind.EMAIL, row.email)) if v}
    claims = await store.get_many(list(wanted))
    holders = {item.data["person_id"] for item in claims.values()}
    people = await store.get_many([(keys.person(p), keys.ITEM) for p in sorted(holders)])
    keep: list[PersonRow] = []
    decided: dict[str, str] = {}
    for row in res.rows:
        others = {claims[k].data["person_id"]: (kind, value) for k, (r, kind, value) in wanted.items()
                  if r is row and k in claims and claims[k].data["person_id"] != own_ids[row.external_id]}
        if not others:
            keep.append(row)
            continue
        (pid, (kind, value)), *rest = others.items()
        person = people.get((keys.person(pid), keys.ITEM))
        name = person.data.get("display_name", "") if person else ""
        if rest or not same_name(row.display_name, name):
            res.conflicts[row.external_id] = (kind.value, (
                f"{_label(kind, value)} already belongs to Person {pid} ({name}), not {row.display_name}: two "
                f"people on one {kind.value}, not merged; fix it in the PMS or merge them in the store"))
            continue
        decided[row.external_id] = pid
    res.rows = keep
    res.alias_of_person.update(decided)
    for alias, target in list(res.alias_of_row.items()):  # an alias of a row that is itself a Person's alias
        if target in decided:
            res.alias_of_person[alias] = decided[target]
            del res.alias_of_row[alias]
        elif target in res.conflicts:
            res.conflicts[alias] = res.conflicts[target]
            del res.alias_of_row[alias]
