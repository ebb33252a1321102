"""Spine methods of callers on voice: the call's verification, the number an unknown caller's
call came from, the Person's latest step-up code and the sliding-window log of codes sent. A
mixin of `Spine` (spine/repo/__init__.py)."""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

import spine.keys as keys
from spine.repo.base import RepoBase
from spine.store.base import Item
from spine.verification import CallCaller, CallVerification, IssuedCode, StepUpChallenge, StepUpSends

SENDS_KEPT = timedelta(days=1)  # the longest window a send budget counts over


class VerificationRecords(RepoBase):
    async def put_call_verification(self, verification: CallVerification) -> None:
        await self._put(verification, keys.call_verification(verification.interaction_id))

    async def get_call_verification(self, interaction_id: str) -> CallVerification | None:
        return await self._get(CallVerification, keys.call_verification(interaction_id))

    async def put_call_caller(self, caller: CallCaller) -> None:
        await self._put(caller, keys.call_caller(caller.interaction_id))

    async def get_call_caller(self, interaction_id: str) -> CallCaller | None:
        return await self._get(CallCaller, keys.call_caller(interaction_id))

    async def add_step_up_code(self, person_id: str, code: IssuedCode, now: datetime, keep: int) -> None:
        """Add a code texted to `person_id`'s number, keeping the `keep` newest still valid ones. The
        asking call's tries start again, and so does the count across calls (a new code, new guesses)."""
        def add(found: StepUpChallenge | None) -> StepUpChallenge:
            old = found or StepUpChallenge(person_id=person_id)
            valid = old.valid(now)  # with none left, the old tries go too
            return StepUpChallenge(person_id=person_id, codes=[*valid, code][-keep:],
                                   tries={**(old.tries if valid else {}), code.requested_by: 0}, total_tries=0)

        await self._compare_and_set(StepUpChallenge, keys.step_up(person_id), change=add, tries=None)

    async def put_step_up(self, challenge: StepUpChallenge) -> None:
        await self._put(challenge, keys.step_up(challenge.person_id))

    async def get_step_up(self, person_id: str) -> tuple[StepUpChallenge, int] | None:
        """The Person's codes and their version (for `spend_step_up_try`)."""
        item = await self.store.get(keys.step_up(person_id))
        return (StepUpChallenge.model_validate(item.data), item.version) if item else None

    async def spend_step_up_try(self, challenge: StepUpChallenge, version: int, interaction_id: str) -> bool:
        """Take one of `interaction_id`'s tries by compare-and-set: False when a concurrent check or a
        new code changed the record first (the caller says it again)."""
        tries = {**challenge.tries, interaction_id: challenge.tries_on(interaction_id) + 1}
        spent = challenge.model_copy(update={"tries": tries, "total_tries": challenge.total_tries + 1})
        return await self._replace(Item(pk=keys.step_up(challenge.person_id), data=spent.model_dump(mode="json")),
                                   version)

    async def delete_step_up(self, person_id: str) -> None:
        await self.store.delete(keys.step_up(person_id))

    async def take_step_up_send(self, person_id: str, now: datetime,
                                limits: Sequence[tuple[timedelta, int]]) -> timedelta | None:
        """Count one code sent to `person_id` at `now` unless a sliding window is full: each of
        `limits` is (window, most codes in any such window). None when counted; else how long until
        the fullest window has room again (nothing counted)."""
        waits: list[timedelta] = []

        def count(found: StepUpSends | None) -> StepUpSends | None:
            log = found or StepUpSends(person_id=person_id)
            recent = [at for at in log.sent_at if now - at < SENDS_KEPT]
            waits[:] = [within - (now - inside[-limit]) for within, limit in limits
                        if len(inside := [at for at in recent if now - at < within]) >= limit]
            return None if waits else StepUpSends(person_id=person_id, sent_at=[*recent, now])

        await self._compare_and_set(StepUpSends, keys.step_up_sends(person_id), change=count, tries=None)
        return max(waits) if waits else None
