"""Running scenarios through the gateway's real in-process path, against the configured model.

Each scenario gets its own copy of the seeded demo store and its own PersonHost, so scenarios
never see each other's work orders or transcripts. A turn is an inbound SMS (or email) handed to
its channel adapter (keywords, dedupe, the inbound record; gateway/evals/channels.py), which
submits it to the PersonHost; the PersonActor runs the interaction with the model and the
in-process Dispatcher, exactly as a host process does under Ray. The turn is scored from its
reply and its trace.
"""
from __future__ import annotations

import itertools
import shutil
import tempfile
import time
from pathlib import Path

from pydantic import BaseModel, Field

from actors.dispatcher.dispatcher import Dispatcher
from actors.host.host import PersonHost
from actors.host.ownership import Ownerships
from actors.host.person_actor import PersonRuntime
from actors.model.base import ModelBackend, ModelRequest, ModelUnavailable
from actors.model.confirm import model_confirmer, parse_answer
from actors.model.offline import OfflineModel
from actors.protocol.turn import TurnDeps
from desk.followups.engine import run_due
from desk.outbound.queue import row_notification
from desk.portfolio.demo import seed
from gateway.evals.channels import Lines
from gateway.evals.checks import check_turn
from gateway.evals.clock import EvalClock
from gateway.evals.oncall import Clock, check_oncall, press
from gateway.evals.scenario import Scenario, Turn
from gateway.evals.voice import check_transfer
from spine.notification import Notification
from spine.records import OutboxMessage, OutboxStatus
from spine.repo import Spine
from spine.store.sqlite import SqliteStore

JUDGE_SYSTEM = ("You grade one reply of Clara, a property management AI, against one criterion. "
                "Answer with exactly one word: yes if the reply meets the criterion, no if it does not.")


class TurnOutcome(BaseModel):
    say: str
    reply: str
    failures: list[str] = Field(default_factory=list)
    judged: int = 0
    judge_skipped: int = 0


class ScenarioOutcome(BaseModel):
    scenario: Scenario
    turns: list[TurnOutcome] = Field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return self.error is None and all(not t.failures for t in self.turns)

    @property
    def failures(self) -> list[str]:
        lines = [f"turn {i + 1} ({t.say!r}): {f}" for i, t in enumerate(self.turns) for f in t.failures]
        return ([f"error: {self.error}"] if self.error else []) + lines


class Judge:
    """Judge criteria scored by the fast model; with the offline model they are skipped and counted."""

    def __init__(self, model: ModelBackend | None) -> None:
        self.model = model

    async def score(self, criterion: str, said: str, reply: str) -> str | None:
        """None when met (or skipped), else why not."""
        if self.model is None:
            return None  # skipped: the runner counts criteria it had no judge for
        request = ModelRequest(purpose="confirm", max_tokens=5, system=[{"type": "text", "text": JUDGE_SYSTEM}],
                               messages=[{"role": "user", "content": f"<caller>{said}</caller>\n<reply>{reply}</reply>"
                                                                     f"\nCriterion: {criterion}\nMet?"}])
        try:
            verdict = parse_answer((await self.model.complete(request)).text())
        except ModelUnavailable as exc:
            return f"judge unavailable: {exc}"
        return None if verdict else f"judge: not met: {criterion}"


class Runner:
    def __init__(self, model: ModelBackend, judge: Judge, workdir: Path) -> None:
        self.model, self.judge, self.workdir = model, judge, workdir
        self._template = workdir / "seeded.db"
        self._ids = itertools.count(1)

    async def prepare(self) -> None:
        """Seed the demo store once; every scenario starts from a copy of it."""
        spine = Spine(SqliteStore(self._template))
        await seed(spine)
        await spine.store.close()

    async def run(self, scenario: Scenario) -> ScenarioOutcome:
        started = time.monotonic()
        outcome = ScenarioOutcome(scenario=scenario)
        path = self.workdir / f"scenario_{next(self._ids)}.db"
        shutil.copyfile(self._template, path)
        spine = Spine(SqliteStore(path))
        prop = await spine.property_for_number(scenario.line)
        wall = EvalClock(prop.timezone if prop else "America/Los_Angeles")
        wall.set(scenario.at)
        spine.clock = wall
        # As a host process builds its turns (actors.host.host.build_runtime): the configured model also
        # gives the intent second opinion on unknown senders the classifier is unsure of.
        model = self._model_on(wall)
        deps = TurnDeps(spine=spine, model=model, tools=Dispatcher(spine), confirmer=model_confirmer(model))
        host = PersonHost(PersonRuntime(deps=deps, ownerships=Ownerships(spine.store, "eval-host", 600.0), host_id="eval-host"),
                          sweep_interval_s=3600)
        lines = Lines(spine, host, self.model)
        clock = Clock(spine, wall)
        try:
            for property_id in scenario.no_oncall_plan:
                await spine.clear_oncall_plan(property_id)
            for turn in scenario.turns:
                await clock.advance(turn.after_s)  # the one clock: the ladder's and the contact window's
                if turn.at:
                    wall.set(turn.at)
                await run_due(spine)  # the follow-ups due by the scenario's wall clock (what a tick would send)
                outcome.turns.append(await self._turn(spine, lines, scenario, turn))
        except Exception as exc:  # noqa: BLE001 - a crashing scenario is a failed scenario, the suite goes on
            outcome.error = f"{type(exc).__name__}: {exc}"
        finally:
            host.close()
            await lines.drain()
            await spine.store.close()
            path.unlink(missing_ok=True)
        outcome.seconds = time.monotonic() - started
        return outcome

    def _model_on(self, wall: EvalClock) -> ModelBackend:
        """The offline model reads "tomorrow" from the scenario's day at its property, not the
        machine's UTC date, so a tour booked "tomorrow at 3pm" falls where the scenario's clock
        (and the follow-ups it drives) expects it. Any other model keeps its own sense of time."""
        if not isinstance(self.model, OfflineModel):
            return self.model
        return OfflineModel(today=lambda: wall().astimezone(wall.zone).date())

    async def _turn(self, spine: Spine, lines: Lines, scenario: Scenario, turn: Turn) -> TurnOutcome:
        sender = turn.sender or scenario.sender
        before = await _outbox(spine)
        if turn.press is not None:  # a keypress on the paging call: TwiML, no agent turn
            reply = await press(spine, sender, turn.press)
            result = TurnOutcome(say=f"(presses {turn.press})", reply=reply)
        elif turn.staff_answers is not None:  # on a call: the person a transfer rings answers
            address = await lines.address("voice", sender)
            reply = await lines.voice.staff_answers(address, turn.staff_answers)
            result = TurnOutcome(say=f"(staff answers {turn.staff_answers})", reply=reply)
        elif not turn.say:  # only time passed
            result = TurnOutcome(say=f"(after {turn.after_s:.0f} s)", reply="")
        else:
            sent = await lines.send(turn.channel or scenario.channel, sender, scenario.line, turn.say)
            reply = sent.reply
            trace = await spine.get_trace(sent.interaction_id) if sent.interaction_id else None
            suppressed = trace is not None and not trace.reply and not reply
            queued = await _queued_since(spine, before)
            result = TurnOutcome(say=turn.say, reply=reply,
                                 failures=check_turn(turn.expect, trace, reply, suppressed, queued))
        if turn.press is not None or turn.staff_answers is not None or not turn.say:
            lowered = result.reply.lower()
            result.failures += [f"reply lacks {p!r}" for p in turn.expect.reply_contains if p.lower() not in lowered]
        result.failures += await check_oncall(spine, turn.expect)
        if turn.expect.transfer is not None:
            result.failures += await check_transfer(lines.voice, await lines.address("voice", sender),
                                                    turn.expect.transfer)
        for criterion in turn.judge:
            if self.judge.model is None:
                result.judge_skipped += 1
                continue
            result.judged += 1
            if (why := await self.judge.score(criterion, turn.say, result.reply)) is not None:
                result.failures.append(why)
        return result


async def _outbox(spine: Spine) -> dict[str, OutboxMessage]:
    return {row.id: row for status in OutboxStatus for row in await spine.outbox(status, limit=1000)}


async def _queued_since(spine: Spine, before: dict[str, OutboxMessage]) -> list[tuple[Notification, str]]:
    """What the turn queued for people (outbox rows new or changed since `before`, replies left
    out), each with its message."""
    changed = [row for row_id, row in (await _outbox(spine)).items() if row.kind and before.get(row_id) != row]
    return [(await row_notification(spine, row), row.body) for row in changed]


async def run_scenarios(scenarios: list[Scenario], model: ModelBackend, judge_model: ModelBackend | None,
                        workdir: Path | None = None) -> list[ScenarioOutcome]:
    with tempfile.TemporaryDirectory(prefix="clara-eval-", dir=workdir) as tmp:
        runner = Runner(model, Judge(judge_model), Path(tmp))
        await runner.prepare()
        return [await runner.run(s) for s in scenarios]
