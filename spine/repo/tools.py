"""Spine methods of the tool layer: idempotent tool runs and application links (escalations: repo_escalations).

A mixin of `Spine` (spine/repo/__init__.py), kept apart so the repository module stays small; it uses the
repository's own item helpers and key layout conventions.
"""
from __future__ import annotations

import spine.keys as keys
from spine.escalation import ApplicationLink
from spine.identity import utcnow
from spine.repo.rollups import RollupRecords
from spine.store.base import Item
from spine.toolrun import ToolRun, ToolRunState


class ToolRecords(RollupRecords):
    async def claim_tool_run(self, run: ToolRun, *, stale_after_s: float = 60.0) -> ToolRun | None:
        """Claim the (interaction_id, tool_use_id) key with a create-if-absent put.

        None means this caller owns the run now and must finish or release it. Otherwise the
        record already there is returned: done (replay it), or running elsewhere. A run left
        RUNNING for longer than `stale_after_s` (its owner died) is taken over by compare-and-set.
        """
        pk = keys.tool_run(run.interaction_id, run.tool_use_id)
        if await self._create(run, pk):
            return None
        item = await self.store.get(pk)
        if item is None:
            return await self.claim_tool_run(run, stale_after_s=stale_after_s)  # released meanwhile
        found = ToolRun.model_validate(item.data)
        age_s = (utcnow() - found.started_at).total_seconds()
        if found.state == ToolRunState.RUNNING and age_s > stale_after_s:
            if await self._replace(Item(pk=pk, data=run.model_dump(mode="json")), item.version):
                return None
            return await self.get_tool_run(run.interaction_id, run.tool_use_id)
        return found

    async def finish_tool_run(self, run: ToolRun) -> None:
        await self._put(run, keys.tool_run(run.interaction_id, run.tool_use_id))

    async def release_tool_run(self, interaction_id: str, tool_use_id: str) -> None:
        """Drop a claim whose handler failed, so a retry may run it for real."""
        await self.store.delete(keys.tool_run(interaction_id, tool_use_id))

    async def get_tool_run(self, interaction_id: str, tool_use_id: str) -> ToolRun | None:
        return await self._get(ToolRun, keys.tool_run(interaction_id, tool_use_id))

    async def put_application_link(self, link: ApplicationLink) -> None:
        """Write the link; a new one is an application in the reports' leasing funnel."""
        if await self._create(link, keys.person(link.person_id), keys.app_link(link.id)):
            await self.bump(link.property_id, "leads.applications")
        else:
            await self._put(link, keys.person(link.person_id), keys.app_link(link.id))

    async def application_links_of(self, person_id: str) -> list[ApplicationLink]:
        return await self._query(ApplicationLink, keys.person(person_id), keys.APPLINK_PREFIX)
