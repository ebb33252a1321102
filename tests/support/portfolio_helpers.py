"""A small portfolio as a property-management system exports it (AppFolio-style ids, local phone
spellings), written to a folder for `gateway import`; tests change a file and import again."""
from __future__ import annotations

import csv
from pathlib import Path

from desk.portfolio.files import SPECS, FileKind

Rows = list[dict[str, str]]


def sample_portfolio() -> dict[FileKind, Rows]:
    """Northwind Living: two properties, four units, six people. Dana is a resident and the
    contact of Dana's Plumbing (one person, two roles)."""
    return {
        FileKind.ORGANIZATIONS: [{"external_id": "ORG1", "name": "Northwind Living"}],
        FileKind.PROPERTIES: [
            {"external_id": "P1", "organization": "ORG1", "name": "Northwind Lofts", "phone": "(206) 555-0700",
             "email": "Lofts@Northwind.example", "timezone": "America/Los_Angeles", "address": "1 Pine St, Seattle"},
            {"external_id": "P2", "organization": "ORG1", "name": "Northwind Court", "phone": "206.555.0701",
             "email": "", "timezone": "America/Los_Angeles", "address": ""},
        ],
        FileKind.UNITS: [
            {"external_id": "U101", "property": "P1", "name": "101", "bedrooms": "2", "bathrooms": "1.5",
             "rent_usd": "$2,400.00", "available_on": ""},
            {"external_id": "U102", "property": "P1", "name": "102", "bedrooms": "1", "bathrooms": "1",
             "rent_usd": "1800", "available_on": "2027-01-15"},
            {"external_id": "U201", "property": "P2", "name": "201", "bedrooms": "3", "bathrooms": "2",
             "rent_usd": "3100", "available_on": ""},
            {"external_id": "U202", "property": "P2", "name": "202", "bedrooms": "0", "bathrooms": "1",
             "rent_usd": "1200", "available_on": ""},
        ],
        FileKind.PEOPLE: [
            {"external_id": "T1", "first_name": "Ava", "last_name": "Stone", "phone": "206-555-0710",
             "email": "Ava@Example.com", "language": "en", "deceased": ""},
            {"external_id": "T2", "first_name": "Ben", "last_name": "Stone", "phone": "+1 206 555 0711",
             "email": "", "language": "", "deceased": ""},
            {"external_id": "T3", "first_name": "Dana", "last_name": "Ruiz", "phone": "(206) 555-0712",
             "email": "dana@danasplumbing.example", "language": "es", "deceased": "no"},
            {"external_id": "S1", "first_name": "Kim", "last_name": "Park", "phone": "2065550720",
             "email": "kim@northwind.example", "language": "", "deceased": ""},
            {"external_id": "S2", "first_name": "Lee", "last_name": "Wong", "phone": "2065550721",
             "email": "", "language": "", "deceased": ""},
            {"external_id": "G1", "first_name": "Rita", "last_name": "Stone", "phone": "",
             "email": "rita@example.org", "language": "", "deceased": ""},
        ],
        FileKind.RESIDENTS: [
            {"external_id": "OCC1", "person": "T1", "unit": "U101", "kind": "primary", "move_in": "2025-02-01",
             "move_out": ""},
            {"external_id": "OCC2", "person": "T2", "unit": "U101", "kind": "roommate", "move_in": "2025-02-01",
             "move_out": ""},
            {"external_id": "OCC3", "person": "G1", "unit": "U101", "kind": "guarantor", "move_in": "", "move_out": ""},
            {"external_id": "OCC4", "person": "T3", "unit": "U201", "kind": "primary", "move_in": "2024-06-01",
             "move_out": ""},
        ],
        FileKind.STAFF: [
            {"external_id": "ST1", "person": "S1", "role": "pm", "organization": "ORG1", "properties": ""},
            {"external_id": "ST2", "person": "S2", "role": "maintenance", "organization": "ORG1", "properties": "P1;P2"},
        ],
        FileKind.VENDORS: [
            {"external_id": "V1", "name": "Dana's Plumbing", "phone": "206-555-0790", "email": "",
             "trades": "plumbing;gas", "properties": "P1;P2"},
        ],
        FileKind.VENDOR_CONTACTS: [{"external_id": "VC1", "vendor": "V1", "person": "T3"}],
        FileKind.WORK_ORDERS: [
            {"external_id": "W1", "display_id": "WO-5001", "property": "P1", "unit": "U101", "brief": "leaky faucet",
             "description": "Kitchen faucet drips.", "status": "open", "priority": "normal", "vendor": "V1",
             "reporter": "T1"},
            {"external_id": "W2", "display_id": "", "property": "P2", "unit": "", "brief": "hallway light out",
             "description": "", "status": "scheduled", "priority": "normal", "vendor": "", "reporter": ""},
        ],
        FileKind.ONCALL: [
            {"property": "P1", "level": "1", "person": "S2", "ack_timeout_s": "120", "repeats": "1"},
            {"property": "P1", "level": "2", "person": "S1", "ack_timeout_s": "", "repeats": ""},
        ],
    }


def write_portfolio(folder: Path, files: dict[FileKind, Rows]) -> Path:
    """Each file with its spec's columns in order, less those no row has (all of them for no rows),
    and any extra column a row has, after them."""
    folder.mkdir(parents=True, exist_ok=True)
    for kind, rows in files.items():
        columns = [c for c in SPECS[kind].names if not rows or any(c in row for row in rows)]
        for row in rows:
            columns += [c for c in row if c not in columns]
        with (folder / kind.filename).open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, columns)
            writer.writeheader()
            writer.writerows(rows)
    return folder


def line_of(files: dict[FileKind, Rows], kind: FileKind, external_id: str) -> int:
    """The line a row is on in the written file (the header is line 1)."""
    ids = [r.get("external_id") for r in files[kind]]
    return ids.index(external_id) + 2
