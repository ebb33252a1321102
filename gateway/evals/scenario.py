"""The eval scenario format (docs/evals.md, "The scenario format"): YAML files under evals/, one L2 feature per file.

    role: tenant                 # the MetaRole and L2 feature every scenario in the file scores under
    feature: maintenance
    scenarios:
      - name: k1-overflowing-toilet
        tags: [K-1]              # free labels: K-1..K-5, spanish, fair-housing, multi-turn
        sender: p_marcus         # a demo Person id, or any E.164 number (a new sender)
        line: "+12065550100"     # the property number texted (default JP Yale Station)
        channel: sms             # sms (default), email (SPF/DKIM passing) or telegram (contact shared first)
        at: "15:00"              # the property's wall clock when the scenario starts (default 12:00)
        turns:
          - say: "my toilet is overflowing!"
            sender: p_marcus     # optional: another sender for this turn (a second, a third participant)
            after_s: 0           # optional: the on-call ladder runs this long first (a shifted clock)
            press: "1"           # optional, instead of say: a key on the paging call the sender got
            channel: email       # optional: this turn on another channel
            at: "22:30"          # optional: the clock moves to this local time first ("tomorrow 09:05")
            expect:
              roles: [tenant]
              tools: [{name: create_work_order, input: {priority: urgent}}]
              reply_contains: ["WO-"]
              without_turn: true # answered before any agent turn (YES/NO, ACK, STOP): no trace
              notifications:     # what the turn queued for other people (their outbox rows)
                - {to: p_marcus, kind: notify, status: queued, channel: sms, says: ["10 minutes"]}
              no_notifications: false  # true: nobody else was messaged
              page: {status: paging, paged: [p_mike]}      # the latest on-call page
              outbox: [{to: p_mike, contains: "Reply ACK"}]  # rows that must exist
            judge: ["Clara says what happens next"]   # scored by the fast model; skipped offline

Every expectation is optional; a turn with none only has to produce a reply.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from gateway.errors import MalformedInput

YALE_LINE = "+12065550100"
EvalChannel = Literal["sms", "email", "telegram", "voice"]  # how a turn reaches the gateway (gateway/evals/channels.py)


class ToolExpectation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    input: dict[str, Any] = Field(default_factory=dict)  # key inputs; strings match case-insensitively as substrings
    decision: Literal["allowed", "refused"] | None = None


WALL_CLOCK = re.compile(r"^(?:tomorrow |(?:mon|tue|wed|thu|fri|sat|sun) )?([01]\d|2[0-3]):[0-5]\d$")


def _wall_clock(value: str | None) -> str | None:
    if value is not None and not WALL_CLOCK.match(value):
        raise ValueError(f"at: {value!r} is not HH:MM (or 'tomorrow HH:MM', 'mon HH:MM'), the property's local time")
    return value


class NotificationExpectation(BaseModel):
    """One message the turn queued for another participant, as their outbox row shows it."""

    model_config = ConfigDict(extra="forbid")

    to: str  # the recipient's Person id
    kind: Literal["page", "notify", "dispatch", "staff", "followup"] | None = None
    status: Literal["queued", "sent", "deferred", "blocked"] | None = None
    channel: EvalChannel | Literal["voice"] | None = None
    says: list[str] = Field(default_factory=list)  # in the message, case-insensitive


class PageExpectation(BaseModel):
    """The scenario's latest on-call page, as the store holds it after the turn."""

    model_config = ConfigDict(extra="forbid")

    status: Literal["paging", "acknowledged", "exhausted", "none"]  # none: no page was started
    paged: list[str] | None = None  # the Person ids paged so far, in order
    acknowledged_by: str | None = None
    acknowledged_via: Literal["sms", "call"] | None = None


class OutboxExpectation(BaseModel):
    """An outbox row that must exist (queued, sent or held) for this Person, holding this text."""

    model_config = ConfigDict(extra="forbid")

    to: str  # a Person id, or the address it went to (a new sender's number: their id is minted)
    contains: str = ""  # case-insensitive
    channel: Literal["sms", "voice", "email", "telegram"] | None = None


class TransferExpectation(BaseModel):
    """The latest transfer of the sender's call, as the store holds it after the turn."""

    model_config = ConfigDict(extra="forbid")

    outcome: Literal["pending", "ringing", "connected", "failed"] | None = None
    urgency: Literal["normal", "urgent", "emergency"] | None = None
    targets: list[str] | None = None  # the labels rung in order ("the office", "Mike Torres (on-call level 1)")
    escalation: bool | None = None  # an escalation was filed (nobody accepted)


class TurnExpectation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    roles: list[str] | None = None              # the routed MetaRole set, in any order
    confidence: Literal["fact", "inferred"] | None = None
    other_category: str | None = None           # routing.other_classification.spine_category
    tools: list[ToolExpectation] = Field(default_factory=list)  # calls that must be in the trace
    no_tools: list[str] = Field(default_factory=list)            # tools that must not be called
    offered: list[str] = Field(default_factory=list)             # must be in tools_offered
    not_offered: list[str] = Field(default_factory=list)         # must not be offered
    reply_contains: list[str] = Field(default_factory=list)      # case-insensitive
    reply_contains_any: list[str] = Field(default_factory=list)  # at least one of these
    reply_not_contains: list[str] = Field(default_factory=list)
    language: Literal["en", "es"] | None = None  # the reply's language
    events: list[str] = Field(default_factory=list)  # trace event kinds, e.g. agent/safety-net
    suppressed: bool | None = None
    without_turn: bool = False  # answered before any agent turn (YES/NO, an ACK, STOP): no trace is written
    notifications: list[NotificationExpectation] = Field(default_factory=list)
    no_notifications: bool = False  # nobody else was messaged by this turn
    page: PageExpectation | None = None
    outbox: list[OutboxExpectation] = Field(default_factory=list)
    no_outbox: list[str] = Field(default_factory=list)  # Person ids with no row at all
    transfer: TransferExpectation | None = None  # the sender's call's latest transfer (channel voice)


class Turn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    say: str = ""  # empty: nobody writes this turn (with after_s: only time passes, then the checks)
    press: str | None = None  # a key pressed on the paging call the sender got, instead of a text
    staff_answers: str | None = None  # on a call: the person a transfer rings presses this ("none": rings out)
    after_s: float = Field(0.0, ge=0, le=86400)  # the on-call ladder runs this long first (a shifted clock)
    sender: str | None = None  # someone else speaks this turn (a PM after a tenant's report)
    channel: EvalChannel | None = None  # this turn on another channel than the scenario's
    at: str | None = None  # the property's local time this turn happens at (HH:MM, or "tomorrow HH:MM")
    expect: TurnExpectation = Field(default_factory=TurnExpectation)
    judge: list[str] = Field(default_factory=list)

    @field_validator("at")
    @classmethod
    def _local_time(cls, value: str | None) -> str | None:
        return _wall_clock(value)


class Scenario(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    role: str
    feature: str
    sender: str
    line: str = YALE_LINE
    channel: EvalChannel = "sms"
    at: str = "12:00"  # the property's wall clock when the scenario starts (the contact window is 09:00-19:00)
    tags: list[str] = Field(default_factory=list)
    no_oncall_plan: list[str] = Field(default_factory=list)  # property ids whose on-call plan is cleared first
    turns: list[Turn] = Field(min_length=1)
    source: str = ""  # the file it came from

    @field_validator("at")
    @classmethod
    def _local_time(cls, value: str | None) -> str | None:
        return _wall_clock(value)

    @property
    def feature_key(self) -> str:
        return f"{self.role}/{self.feature}"


class ScenarioError(MalformedInput):
    """A scenario file that cannot be read: the message names the file and the problem."""


def load_file(path: Path) -> list[Scenario]:
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise ScenarioError(f"{path}: not valid YAML: {exc}") from exc
    if not isinstance(document, dict) or not isinstance(document.get("scenarios"), list):
        raise ScenarioError(f"{path}: expected a mapping with a 'scenarios' list")
    defaults = {k: document[k] for k in ("role", "feature", "line", "sender", "channel", "at") if k in document}
    scenarios = []
    for index, raw in enumerate(document["scenarios"]):
        try:
            scenarios.append(Scenario.model_validate({**defaults, **raw, "source": str(path)}))
        except (ValidationError, TypeError) as exc:
            raise ScenarioError(f"{path}: scenario {index + 1}: {exc}") from exc
    return scenarios


def load_scenarios(root: Path) -> list[Scenario]:
    """Every scenario under `root` (a file or a directory of *.yaml), in path order; names are unique."""
    files = [root] if root.is_file() else sorted(root.rglob("*.yaml")) + sorted(root.rglob("*.yml"))
    if not files:
        raise ScenarioError(f"{root}: no scenario files (*.yaml)")
    scenarios = [s for path in files for s in load_file(path)]
    seen: dict[str, str] = {}
    for s in scenarios:
        if s.name in seen:
            raise ScenarioError(f"scenario name {s.name!r} is used twice ({seen[s.name]} and {s.source})")
        seen[s.name] = s.source
    return scenarios
