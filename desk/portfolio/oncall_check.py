"""oncall.csv names only staff or vendor contacts of the property (issue 40 item 10): before the
file is planned, each row's (person, property) is judged by `desk.oncall.people.oncall_refusal`
over the store and what this run planned (`Known.planned`), and a refused row fails by line."""
from __future__ import annotations

import spine.keys as keys
from desk.oncall.people import oncall_refusal
from desk.portfolio.files import FileKind, ParsedFile
from desk.portfolio.known import Known, RowFailure
from desk.portfolio.rows import OnCallRow
from spine.identity import Person, PersonRole
from spine.property import Property, Vendor
from spine.repo import Spine
from spine.store.base import Item

_PERSON, _VENDOR, _PROPERTY = keys.person(""), keys.vendor(""), keys.property_("")


def note_planned(kind: FileKind, items: list[Item], known: Known) -> None:
    """Keep what on-call eligibility reads of a file's plan: people's deceased flag, staff and vendor
    contact roles, vendors and properties (not residents: the bulk of an import)."""
    planned = known.planned
    for item in items:
        if kind == FileKind.PEOPLE and item.pk.startswith(_PERSON) and item.sk == keys.ITEM:
            person = Person.model_validate(item.data)
            planned.deceased[person.id] = person.deceased
        elif kind in (FileKind.STAFF, FileKind.VENDOR_CONTACTS) and item.sk.startswith(keys.ROLE_PREFIX):
            role = PersonRole.model_validate(item.data)
            planned.roles.setdefault(role.person_id, {})[role.id] = role
        elif kind == FileKind.VENDORS and item.pk.startswith(_VENDOR) and item.sk == keys.ITEM:
            vendor = Vendor.model_validate(item.data)
            planned.vendors[vendor.id] = vendor
        elif kind == FileKind.PROPERTIES and item.pk.startswith(_PROPERTY) and item.sk == keys.ITEM:
            prop = Property.model_validate(item.data)
            planned.properties[prop.id] = prop


async def judge_oncall_rows(spine: Spine, parsed: ParsedFile, known: Known) -> None:
    """Fill `known.oncall_refused` for the rows about to be planned (a row naming an unknown
    person or property fails on that when planned)."""
    for row in parsed.rows:
        assert isinstance(row.row, OnCallRow)
        try:
            property_id = known.resolve(FileKind.PROPERTIES, row.row.property, "property")
            person_id = known.resolve(FileKind.PEOPLE, row.row.person, "person")
        except RowFailure:
            continue
        if (person_id, property_id) not in known.oncall_refused:
            reason = await oncall_refusal(spine, person_id, property_id, known.planned)
            if reason is not None:
                known.oncall_refused[(person_id, property_id)] = reason
