"""A progress bar per file for `gateway import` on a terminal (rich), nothing when the output is
piped or captured: there the summary lines are the whole output."""
from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from desk.portfolio.files import FileKind
from desk.portfolio.known import Progress as OnRows


@contextmanager
def file_progress(enabled: bool | None = None) -> Iterator[OnRows | None]:
    """The callback to hand import_portfolio (None when the output is not a terminal)."""
    if not (sys.stdout.isatty() if enabled is None else enabled):
        yield None
        return
    with Progress(TextColumn("{task.description:<20}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()) as bar:
        tasks: dict[FileKind, TaskID] = {}

        def on_rows(kind: FileKind, done: int, total: int) -> None:
            if kind not in tasks:
                tasks[kind] = bar.add_task(kind.filename, total=total)
            bar.update(tasks[kind], completed=done, total=total)

        yield on_rows
