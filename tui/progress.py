"""A progress bar for ingestion on the terminal (rich), and plain lines for a pipe or a file."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from stores.config import Settings
from stores.ingest import IngestReport, ingest, prune
from stores.repair import IndexCheck
from stores.upgrade import UpgradeReport, upgrade
from tui.failures import Interrupted

T = TypeVar("T")

STAGES = {"read": "reading files", "entities": "finding entities",
          "embed": "embedding passages", "index": "building indexes",
          "upgrade": "e5 vectors", "switch": "e5 index", "follow": "e5 (other process)"}


def ingest_with_progress(settings: Settings, world: str, paths: Sequence[Path],
                         glossary: Path | None) -> IngestReport:
    """`ingest` with a progress bar per stage on the terminal."""
    return _with_bar(lambda report: ingest(settings, world, list(paths), glossary,
                                           progress=report))


def prune_with_progress(settings: Settings, world: str,
                        confirm: Callable[[list[str]], bool]) -> IngestReport:
    """`prune` with a progress bar per rebuild stage (the question is asked before any bar)."""
    return _with_bar(lambda report: prune(settings, world, confirm, progress=report))


def repair_with_progress(settings: Settings, world: str, force: bool) -> list[IndexCheck]:
    """`rebuild_world` with a progress bar per rebuild stage; what was found wrong."""
    from stores.repair import rebuild_world
    from stores.world import WorldStores

    def run(report: Callable[[str, int, int], None]) -> list[IndexCheck]:
        stores = WorldStores(settings, world)
        try:
            return rebuild_world(stores, force, report)
        finally:
            stores.close()

    return _with_bar(run)


LINE_EVERY_S = 5.0
"""A stage's progress is written as a line at most this often (its first and last always)."""
QUIET_S = 60.0
"""A stage still going is written again after this long without a line, within one tenth: the
e5 vectors of Monte Cristo took three minutes a tenth on a busy machine, and a newcomer
wondered whether the ingest had hung."""


class _Lines:
    """Progress as plain lines, for output to a pipe or a file, where rich draws nothing until
    it stops (a newcomer's ingest piped to a log showed nothing for the 227 s of its e5
    vectors): each stage's first report, a new tenth of it at most every LINE_EVERY_S, and
    its end, with the time since the first; and a line after QUIET_S without one."""

    def __init__(self) -> None:
        self.shown: dict[str, tuple[int, float]] = {}
        self.began = time.monotonic()

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        tenth = 10 * done // total if total else 10
        last = self.shown.get(stage)
        if last is not None and (
                (last[0] == tenth and (tenth == 10 or now - last[1] < QUIET_S))
                or (last[0] != tenth and tenth < 10 and now - last[1] < LINE_EVERY_S)):
            return
        self.shown[stage] = (tenth, now)
        seconds = int(now - self.began)
        print(f"{STAGES.get(stage, stage)}: {done}/{total} "
              f"({seconds // 60}:{seconds % 60:02d})", flush=True)


def _on_terminal() -> bool:
    return Console().is_terminal


def _with_bar(run: Callable[[Callable[[str, int, int], None]], T]) -> T:
    if not _on_terminal():
        return run(_Lines())
    columns = (TextColumn("{task.description:<20}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    bar = Progress(*columns, transient=False)
    tasks: dict[str, TaskID] = {}

    def report(stage: str, done: int, total: int) -> None:
        if not bar.live.is_started:  # started on the first stage, after any question
            bar.start()
        if stage not in tasks:
            tasks[stage] = bar.add_task(STAGES.get(stage, stage), total=max(total, 1))
        bar.update(tasks[stage], completed=done if total else 1, total=max(total, 1))

    try:
        return run(report)
    finally:
        if bar.live.is_started:
            bar.stop()


def upgrade_with_progress(settings: Settings, world: str,
                          following: Callable[[str], None] | None = None,
                          parent: int = 0) -> UpgradeReport:
    """`upgrade` with a bar and the time it expects to take still (rich's ETA over the
    passages embedded by this run). `following` is told whom it waits for while another
    process computes the world's vectors; `parent` (a pid): stop once that process has ended
    (the app that started this one, killed before it could stop it)."""
    columns = (TextColumn("{task.description:<20}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn())
    bar = Progress(*columns, transient=False)
    tasks: dict[str, TaskID] = {}
    lines = None if _on_terminal() else _Lines()

    def report(stage: str, done: int, total: int) -> None:
        if parent and os.getppid() != parent:  # orphaned: re-parented to init or a reaper
            raise Interrupted(f"the app that started it (pid {parent}) has ended",
                              hint="the next app or lore vectors run carries on")
        if lines is not None:
            lines(stage, done, total)
            return
        if not bar.live.is_started:
            bar.start()
        if stage not in tasks:
            # Starts at what earlier runs did, so the ETA counts only this run's pace.
            tasks[stage] = bar.add_task(STAGES.get(stage, stage), total=max(total, 1),
                                        completed=done)
        bar.update(tasks[stage], completed=done if total else 1, total=max(total, 1))

    def follow(holder: str) -> None:
        if bar.live.is_started:
            bar.stop()
        if following is not None:
            following(holder)

    try:
        return upgrade(settings, world, progress=report, following=follow)
    finally:
        if bar.live.is_started:
            bar.stop()
