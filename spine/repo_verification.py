"""Spine methods of caller verification on voice: the call's verification, its step-up challenge
and the per-person rate-limit windows. A mixin of `Spine` (spine/repo.py)."""
from __future__ import annotations

import spine.keys as keys
from spine.repo_base import RepoBase
from spine.store.base import ABSENT, ConditionFailed, Item
from spine.verification import CallVerification, StepUpChallenge, StepUpWindow


class VerificationRecords(RepoBase):
    async def put_call_verification(self, verification: CallVerification) -> None:
        await self._put(verification, keys.call_verification(verification.interaction_id))

    async def get_call_verification(self, interaction_id: str) -> CallVerification | None:
        return await self._get(CallVerification, keys.call_verification(interaction_id))

    async def put_step_up(self, challenge: StepUpChallenge) -> None:
        """A new challenge replaces the call's previous one (only the latest code is valid)."""
        await self._put(challenge, keys.step_up(challenge.interaction_id))

    async def get_step_up(self, interaction_id: str) -> tuple[StepUpChallenge, int] | None:
        """The call's challenge and its version (for `spend_step_up_try`)."""
        item = await self.store.get(keys.step_up(interaction_id))
        return (StepUpChallenge.model_validate(item.data), item.version) if item else None

    async def spend_step_up_try(self, challenge: StepUpChallenge, version: int) -> bool:
        """Take one try by compare-and-set: False when a concurrent check took it first."""
        spent = challenge.model_copy(update={"tries_left": challenge.tries_left - 1})
        try:
            await self.store.put(Item(pk=keys.step_up(challenge.interaction_id), data=spent.model_dump(mode="json")),
                                 expect_version=version)
            return True
        except ConditionFailed:
            return False

    async def delete_step_up(self, interaction_id: str) -> None:
        await self.store.delete(keys.step_up(interaction_id))

    async def count_step_up_send(self, person_id: str, window: int, limit: int) -> bool:
        """Count one code sent to `person_id` in `window`; False (nothing counted) at the limit."""
        pk = keys.step_up_rate(person_id, window)
        while True:
            item = await self.store.get(pk)
            current = StepUpWindow.model_validate(item.data) if item else StepUpWindow(person_id=person_id, window=window)
            if current.sent >= limit:
                return False
            bumped = current.model_copy(update={"sent": current.sent + 1})
            try:
                await self.store.put(Item(pk=pk, data=bumped.model_dump(mode="json")),
                                     expect_version=item.version if item else ABSENT)
                return True
            except ConditionFailed:
                continue
