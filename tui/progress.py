"""A progress bar for ingestion on the terminal (rich)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from stores.config import Settings
from stores.ingest import IngestReport, ingest

STAGES = {"read": "reading files", "entities": "finding entities",
          "embed": "embedding passages", "index": "building indexes"}


def ingest_with_progress(settings: Settings, world: str, paths: Sequence[Path],
                         glossary: Path | None) -> IngestReport:
    columns = (TextColumn("{task.description:<20}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with Progress(*columns, transient=False) as bar:
        tasks: dict[str, int] = {}

        def report(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(STAGES.get(stage, stage), total=max(total, 1))
            bar.update(tasks[stage], completed=done if total else 1, total=max(total, 1))

        return ingest(settings, world, list(paths), glossary, progress=report)
