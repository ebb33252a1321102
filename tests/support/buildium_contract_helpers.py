"""Buildium's Open API contract, read at test time from the installed `buildium-mcp` package
(`buildium_mcp/specs/buildium-openapi.json`: Buildium's document, never copied into this
repository), and the checks the stand-in (tests/support/buildium_server.py) makes of every request
the product sends and every response it serves.

The document is OpenAPI 3.0: its schemas say `nullable: true` where JSON Schema says `null` is one
of the types, so they are translated once, in memory, before jsonschema reads them. Every schema
declares `additionalProperties: false`, so an unknown field in a body is a violation too."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl

from jsonschema import Draft4Validator, FormatChecker

_FORMATS = FormatChecker()


@_FORMATS.checks("date", raises=ValueError)
def _is_date(value: object) -> bool:
    return not isinstance(value, str) or (bool(date.fromisoformat(value)) and len(value) == 10)


@_FORMATS.checks("date-time", raises=ValueError)
def _is_datetime(value: object) -> bool:
    return not isinstance(value, str) or (bool(datetime.fromisoformat(value.replace("Z", "+00:00"))) and "T" in value)


@_FORMATS.checks("int32")
def _is_int32(value: object) -> bool:
    return not isinstance(value, int) or -(2**31) <= value < 2**31


def _nullable(schema: Any) -> Any:
    """OpenAPI 3.0 -> JSON Schema: `nullable: true` becomes `null` allowed, recursively."""
    if isinstance(schema, list):
        return [_nullable(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _nullable(v) for k, v in schema.items() if k != "nullable"}
    if schema.get("nullable"):
        if "enum" in out:
            out["enum"] = [*out["enum"], None]
        if isinstance(out.get("type"), str):
            out["type"] = [out["type"], "null"]
        elif "type" not in out:
            out = {"anyOf": [{"type": "null"}, out]}
    return out


@cache
def document() -> dict[str, Any]:
    """The official document, as the installed package ships it."""
    text = (resources.files("buildium_mcp") / "specs" / "buildium-openapi.json").read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


@cache
def _components() -> dict[str, Any]:
    return {"schemas": _nullable(document()["components"]["schemas"])}


def validator(schema: dict[str, Any]) -> Draft4Validator:
    """A validator of one schema of the document, its `#/components/...` references resolving."""
    return Draft4Validator({**_nullable(schema), "components": _components()}, format_checker=_FORMATS)


@dataclass(frozen=True)
class Operation:
    method: str
    template: str
    pattern: re.Pattern[str]
    spec: dict[str, Any]

    def parameters(self, where: str) -> dict[str, dict[str, Any]]:
        return {p["name"].lower(): p for p in self.spec.get("parameters", []) if p["in"] == where}


@cache
def operations() -> list[Operation]:
    ops = []
    for template, item in document()["paths"].items():
        regex = "^" + re.sub(r"\\\{[^}]+\\\}", r"(?P<p>[^/]+)", re.escape(template)).replace("(?P<p>", "(") + "$"
        for method, spec in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                ops.append(Operation(method.upper(), template, re.compile(regex, re.IGNORECASE), spec))
    # A literal path wins over a template that also matches it (/v1/rentals/units over /v1/rentals/{id}).
    ops.sort(key=lambda o: (o.template.count("{"), -len(o.template)))
    return ops


def find(method: str, path: str) -> Operation | None:
    for op in operations():
        if op.method == method.upper() and op.pattern.match(path):
            return op
    return None


@dataclass
class Violations:
    """What the stand-in found wrong, in either direction; a test asserts none."""

    found: list[str] = field(default_factory=list)

    def add(self, where: str, what: str) -> None:
        self.found.append(f"{where}: {what}")

    def __len__(self) -> int:
        return len(self.found)


def _scalar_ok(schema: dict[str, Any], raw: str) -> str | None:
    """Why a query value does not read as its schema, or None."""
    kind = schema.get("type")
    value: Any = raw
    if kind == "integer":
        if not re.fullmatch(r"-?[0-9]+", raw):
            return f"{raw!r} is not an integer"
        value = int(raw)
    elif kind == "boolean":
        if raw not in ("true", "false"):
            return f"{raw!r} is not a boolean"
        value = raw == "true"
    errors = sorted(validator(schema).iter_errors(value), key=str)
    return errors[0].message if errors else None


def check_request(method: str, path: str, query: str, body: bytes | None, content_type: str,
                  violations: Violations) -> Operation | None:
    """The request against its operation: declared path and method, declared query parameters
    with values of their type (arrays repeated), required ones present, the body its schema."""
    where = f"{method} {path}"
    op = find(method, path)
    if op is None:
        violations.add(where, "no such operation in Buildium's document")
        return None
    declared = op.parameters("query")
    pairs = parse_qsl(query, keep_blank_values=True)
    for name, raw in pairs:
        param = declared.get(name.lower())
        if param is None:
            violations.add(where, f"query parameter {name!r} is not declared (Buildium ignores it)")
            continue
        schema = param.get("schema", {})
        why = _scalar_ok(schema.get("items", schema) if schema.get("type") == "array" else schema, raw)
        if why:
            violations.add(where, f"query {name}: {why}")
    given = {n.lower() for n, _ in pairs}
    for name, param in declared.items():
        if param.get("required") and name not in given:
            violations.add(where, f"required query parameter {name!r} is missing")
    _check_body(op, body, content_type, where, violations)
    return op


def _check_body(op: Operation, body: bytes | None, content_type: str, where: str, violations: Violations) -> None:
    spec = op.spec.get("requestBody")
    if spec is None:
        if body:
            violations.add(where, "a body where the operation takes none")
        return
    if not content_type.startswith("application/json"):
        violations.add(where, f"content type {content_type!r}, not application/json")
        return
    try:
        data = json.loads(body or b"")
    except ValueError:
        violations.add(where, "the body is not JSON")
        return
    schema = spec["content"]["application/json"]["schema"]
    for error in validator(schema).iter_errors(data):
        violations.add(where, f"request body {'/'.join(map(str, error.absolute_path))}: {error.message}")


def check_response(op: Operation, status: int, body: Any, headers: dict[str, str], violations: Violations) -> None:
    """A response the stand-in serves, against the operation's responses (its status declared,
    its body the schema, X-Total-Count an integer where declared)."""
    where = f"{op.method} {op.template} -> {status}"
    declared = op.spec.get("responses", {}).get(str(status))
    if declared is None:
        violations.add(where, "status not declared for the operation")
        return
    for name in declared.get("headers", {}):
        if name == "X-Total-Count" and not re.fullmatch(r"[0-9]+", headers.get(name, "")):
            violations.add(where, f"header {name} missing or not an integer")
    schema = declared.get("content", {}).get("application/json", {}).get("schema")
    if schema is None:
        return
    for error in validator(schema).iter_errors(body):
        violations.add(where, f"response body {'/'.join(map(str, error.absolute_path))}: {error.message}")
