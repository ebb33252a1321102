"""The files of a portfolio folder, their columns (ARCHITECTURE.md, "Importing a portfolio") and how
each cell is read. `read_rows` turns one CSV file into parsed rows and the rows it could not read."""
from __future__ import annotations

import csv
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from desk.portfolio import fields as f
from desk.portfolio.cells import unescape_cell
from desk.portfolio.report import RowError
from desk.portfolio.rows import (
    OnCallRow,
    OrganizationRow,
    PersonRow,
    PropertyRow,
    ResidentRow,
    Row,
    StaffRow,
    UnitRow,
    VendorContactRow,
    VendorRow,
    WorkOrderRow,
)
from spine.identity import OccupancyKind
from spine.phone import normalize_phone_in_region
from spine.work import Priority, WorkOrderStatus


class FileKind(StrEnum):
    """In the order an import plans them: a row's references are planned before it."""

    ORGANIZATIONS = "organizations"
    PROPERTIES = "properties"
    UNITS = "units"
    PEOPLE = "people"
    VENDORS = "vendors"
    RESIDENTS = "residents"
    STAFF = "staff"
    VENDOR_CONTACTS = "vendor_contacts"
    WORK_ORDERS = "work_orders"
    ONCALL = "oncall"

    @property
    def filename(self) -> str:
        return f"{self.value}.csv"


Parse = Callable[[str, str], Any]  # (cell, default region) -> value


def _text(raw: str, region: str) -> str:
    return raw


@dataclass(frozen=True)
class Column:
    name: str
    parse: Parse = _text
    required: bool = False  # the header must name it and every row must fill it


def _c(name: str, parse: Callable[[str], Any] | None = None, *, required: bool = False) -> Column:
    return Column(name, (lambda raw, region: parse(raw)) if parse else _text, required)


_PHONE = Column("phone", normalize_phone_in_region)
_EXT = _c("external_id", required=True)
STAFF_ROLES = "pm|org_admin|leasing_agent|maintenance|viewer"


@dataclass(frozen=True)
class FileSpec:
    kind: FileKind
    model: type[Row]
    columns: tuple[Column, ...]

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]


SPECS: dict[FileKind, FileSpec] = {spec.kind: spec for spec in [
    FileSpec(FileKind.ORGANIZATIONS, OrganizationRow, (_EXT, _c("name", required=True))),
    FileSpec(FileKind.PROPERTIES, PropertyRow, (
        _EXT, _c("organization", required=True), _c("name", required=True), _PHONE, _c("email", f.email),
        _c("timezone", f.timezone), _c("address"))),
    FileSpec(FileKind.UNITS, UnitRow, (
        _EXT, _c("property", required=True), _c("name", required=True), _c("bedrooms", f.whole, required=True),
        _c("bathrooms", f.half_steps), _c("rent_usd", f.dollars, required=True), _c("available_on", f.iso_date))),
    FileSpec(FileKind.PEOPLE, PersonRow, (
        _EXT, _c("first_name"), _c("last_name"), _PHONE, _c("email", f.email), _c("language", f.language),
        _c("deceased", f.flag))),
    FileSpec(FileKind.RESIDENTS, ResidentRow, (
        _EXT, _c("person", required=True), _c("unit", required=True),
        _c("kind", lambda raw: f.choice(raw, OccupancyKind)), _c("move_in", f.iso_date), _c("move_out", f.iso_date))),
    FileSpec(FileKind.STAFF, StaffRow, (
        _EXT, _c("person", required=True), _c("role", required=True), _c("organization"),
        _c("properties", f.listed))),
    FileSpec(FileKind.VENDORS, VendorRow, (
        _EXT, _c("name", required=True), _PHONE, _c("email", f.email), _c("trades", f.listed),
        _c("properties", f.listed))),
    FileSpec(FileKind.VENDOR_CONTACTS, VendorContactRow, (
        _EXT, _c("vendor", required=True), _c("person", required=True))),
    FileSpec(FileKind.WORK_ORDERS, WorkOrderRow, (
        _EXT, _c("display_id"), _c("property", required=True), _c("unit"), _c("brief", required=True),
        _c("description"), _c("status", lambda raw: f.choice(raw, WorkOrderStatus)),
        _c("priority", lambda raw: f.choice(raw, Priority)), _c("vendor"), _c("reporter"))),
    FileSpec(FileKind.ONCALL, OnCallRow, (
        _c("property", required=True), _c("level", lambda raw: f.whole(raw, minimum=1), required=True),
        _c("person", required=True), _c("ack_timeout_s", f.whole), _c("repeats", f.whole))),
]}


@dataclass
class ParsedRow:
    line: int
    digest: str  # of the cells as read, and the region that reads them (desk.portfolio.record)
    row: Row
    cells: dict[str, str]  # every column of the spec in its compared / exported spelling
    raw: dict[str, str]  # the cells as read (for --errors-csv)


@dataclass
class ParsedFile:
    kind: FileKind
    rows: list[ParsedRow]
    errors: list[RowError]
    failed_raw: list[tuple[RowError, dict[str, str]]]
    header: list[str]
    same: list[tuple[int, str]] = field(default_factory=list)  # (line, external id) of rows read exactly as last time


def digest(spec: FileSpec, raw: dict[str, str], region: str) -> str:
    """What a row was read from: equal digests read to equal rows, so an unchanged row is known
    without parsing it (phone numbers are the slow part of a parse)."""
    text = "\x1f".join([region, *(raw.get(name, "") for name in spec.names)])
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def oncall_key(property_ref: str, level: int | str, person_ref: str) -> str:
    return f"{property_ref}|{level}|{person_ref}"


@dataclass
class RawFile:
    """A CSV file as read: its header (lower-cased) and its data rows by line, cells stripped."""

    header: list[str]
    rows: list[tuple[int, dict[str, str]]]


def read_raw(path: Path) -> RawFile:
    with path.open(newline="", encoding="utf-8-sig") as handle:
        reader = csv.reader(handle)
        header = [h.strip().lower() for h in next(reader, [])]
        rows, line = [], reader.line_num
        for values in reader:
            start, line = line + 1, reader.line_num
            if any(v.strip() for v in values):  # a blank line is not a row
                rows.append((start, {h: (unescape_cell(values[i].strip()) if i < len(values) else "")
                                     for i, h in enumerate(header) if h}))
    return RawFile(header, rows)


def row_key(kind: FileKind, raw: dict[str, str]) -> str:
    """A row's key before it is parsed: its external id (on-call rows: property, level, person)."""
    if kind == FileKind.ONCALL:
        return oncall_key(raw.get("property", ""), raw.get("level", ""), raw.get("person", ""))
    return raw.get("external_id", "")


def parse_rows(raw_file: RawFile, spec: FileSpec, region: str, unchanged: dict[str, str]) -> ParsedFile:
    """Every row parsed, except those whose digest is `unchanged[key]` (read as they were last
    imported, so listed in `same`); a missing required column fails the whole file in one line."""
    name = spec.kind.filename
    result = ParsedFile(spec.kind, [], [], [], raw_file.header)
    missing = [c.name for c in spec.columns if c.required and c.name not in raw_file.header]
    if missing:
        result.errors.append(RowError(file=name, line=1, column=missing[0], reason="required column is missing"))
        return result
    seen: dict[str, int] = {}
    for start, raw in raw_file.rows:
        signed = digest(spec, raw, region)
        key = row_key(spec.kind, raw)
        if unchanged.get(key) == signed and key not in seen:
            seen[key] = start
            result.same.append((start, key))
            continue
        parsed = _parse(spec, start, raw, region, seen, signed)
        if isinstance(parsed, RowError):
            result.errors.append(parsed)
            result.failed_raw.append((parsed, raw))
        else:
            result.rows.append(parsed)
    return result


def _parse(spec: FileSpec, line: int, raw: dict[str, str], region: str, seen: dict[str, int],
           signed: str) -> ParsedRow | RowError:
    name = spec.kind.filename
    values: dict[str, Any] = {}
    for column in spec.columns:
        cell = raw.get(column.name, "")
        if not cell:
            if column.required:
                return RowError(file=name, line=line, column=column.name, reason="required")
            continue
        try:
            values[column.name] = column.parse(cell, region)
        except ValueError as exc:
            return RowError(file=name, line=line, column=column.name, reason=str(exc))
    if spec.kind == FileKind.ONCALL:
        values["external_id"] = oncall_key(values["property"], values["level"], values["person"])
    key = values["external_id"]
    if key in seen:
        named = "external_id" if spec.kind != FileKind.ONCALL else "person"
        return RowError(file=name, line=line, column=named, reason=f"duplicate of line {seen[key]}")
    seen[key] = line
    try:
        row = spec.model.model_validate(values)
    except ValidationError as exc:  # the parsers above catch what a person typed; this is the backstop
        first = exc.errors()[0]
        return RowError(file=name, line=line, column=str(first["loc"][0]), reason=first["msg"])
    cells = {c.name: f.cell(getattr(row, c.name, values.get(c.name))) for c in spec.columns}
    return ParsedRow(line=line, digest=signed, row=row, cells=cells, raw=raw)
