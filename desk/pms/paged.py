"""A PMS sync applied a page at a time, while the rest of the account is still read.

Applying is most of a large sync's work; held until the last page is read, all of it would come
after the last request. Each page is applied as it comes instead, in the import's order (the
places first: the people's roles name their units): a page of units, or a page of people with the
resident rows that name them, as an incremental sync of those records (desk.pms.run): nothing
else is compared, nothing ends. `finish` applies the rest (the vendors, roles naming nobody a page
brought) and, knowing now everything the sync listed, ends what a full sync no longer lists or
what it was told ended. One Person per human holds across pages: a page's people are resolved
against the store, which holds the earlier pages' people.

A dry run applies nothing before `finish` (a page's rows would resolve units no page wrote)."""
from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass, field, replace

from desk.pms.batch import ENTITY, Batch
from desk.pms.people import Candidate
from desk.pms.run import SyncOptions, SyncReport, run_sync
from desk.portfolio.files import FileKind
from desk.portfolio.rows import ResidentRow, Row
from spine.repo import Spine

YIELDS = 10  # turns of the event loop given to the reader before a page applies


@dataclass
class PagedSync:
    spine: Spine
    batch: Batch  # the sync's: rows no page took (resident rows until their person's page comes)
    options: SyncOptions
    report: SyncReport = field(default_factory=SyncReport)
    held: list[Candidate] = field(default_factory=list)  # a dry run's people, for `finish`
    done: dict[FileKind, set[str]] = field(default_factory=lambda: defaultdict(set))
    pages: int = 0  # pages applied before `finish`

    def residents_of(self, people: list[Candidate]) -> Batch:
        """A page of the resident rows read so far that name `people`, taken from the batch."""
        page = Batch()
        if self.options.dry_run:
            return page
        names = {c.row.external_id for c in people}

        def theirs(row: Row) -> bool:
            return isinstance(row, ResidentRow) and row.person in names
        pending = self.batch[FileKind.RESIDENTS]
        page[FileKind.RESIDENTS].rows = [r for r in pending.rows if theirs(r)]
        pending.rows = [r for r in pending.rows if not theirs(r)]
        return page

    async def apply(self, page: Batch, people: list[Candidate]) -> None:
        """A page's rows and people (their Persons), applied now."""
        if self.options.dry_run:
            for kind in ENTITY:
                self.batch[kind].rows += page[kind].rows
            self.held += people
            return
        kinds = frozenset(k for k in ENTITY if page[k].rows) | ({FileKind.PEOPLE} if people else set())
        if not kinds:
            return
        options = replace(self.options, full=False, kinds=kinds)
        for _ in range(YIELDS):  # applying holds the loop: the reader first sends for its next page
            await asyncio.sleep(0)
        self.report = self.report.merge(await run_sync(self.spine, page, people, options))
        for kind in kinds:
            self.done[kind] |= {r.external_id for r in page[kind].rows}
        self.done[FileKind.PEOPLE] |= {c.row.external_id for c in people}
        self.pages += 1

    async def finish(self, people: list[Candidate]) -> SyncReport:
        """The rest of the batch and `people` (vendors' contacts), then the ends, the read complete."""
        options = replace(self.options, kinds=None, done=dict(self.done))
        return self.report.merge(await run_sync(self.spine, self.batch, self.held + people, options))
