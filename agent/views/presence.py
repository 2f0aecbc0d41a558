"""A presence chart: chapters along one axis, a handful of entities along the other, each cell
the entity's mentions in that chapter, with the passages behind it, as of the spoiler horizon.

The app draws it as a grid of shaded cells (tui/screens/presence.py) and the exporters as an
SVG or PNG picture drawn by Graphviz (an HTML-like table: Graphviz lays out the grid and its
labels), or as CSV and JSON.
"""

from __future__ import annotations

import csv
import html
import io
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from agent.schemas import TimelineEvent
from agent.views.pictures import FONTS, counted, draw
from stores.errors import ConfigError
from stores.models import LORE_CHAPTER

if TYPE_CHECKING:
    from agent.world.retrieval import Retriever

MAX_ENTITIES = 6
"""A chart holds at most this many entities: beyond it the rows stop being comparable."""
CHART_FORMATS: tuple[str, ...] = ("svg", "png", "csv", "json")
SHADES = ("#ffffff", "#deebf7", "#9ecae1", "#6baed6", "#3182bd", "#08519c")
"""From no mention to the most: a sequential blue scale (ColorBrewer Blues)."""


@dataclass(slots=True)
class Presence:
    """Who appears when: mentions and passages per entity and chapter."""

    entities: list[str]
    chapters: list[int]
    """Every chapter of the story up to the horizon, in order."""
    horizon: int = 0
    mentions: dict[str, dict[int, int]] = field(default_factory=dict)
    passages: dict[tuple[str, int], list[TimelineEvent]] = field(default_factory=dict)
    titles: dict[int, str] = field(default_factory=dict)

    def count(self, entity: str, chapter: int) -> int:
        """The entity's mentions in the chapter (0 when it is absent)."""
        return self.mentions.get(entity, {}).get(chapter, 0)

    @property
    def most(self) -> int:
        return max((n for row in self.mentions.values() for n in row.values()), default=0)

    def shade(self, count: int) -> int:
        """0 for none, else 1..5 by the share of the chart's busiest cell."""
        if not count:
            return 0
        return 1 + min(len(SHADES) - 2, (len(SHADES) - 1) * (count - 1) // max(1, self.most))

    def heading(self) -> str:
        first, last = (self.chapters[0], self.chapters[-1]) if self.chapters else (0, 0)
        scope = f"as of ch. {self.horizon}" if self.horizon else "whole story"
        return (f"Presence of {', '.join(self.entities)} · chapters {first}–{last} · {scope}"
                f" · darker = more mentions")


def presence(retriever: Retriever, entities: list[str], horizon: int = 0) -> Presence:
    """The chart of up to MAX_ENTITIES entities (any of their names; the first ones kept), as
    of the spoiler horizon (0: the whole story); UnknownEntity for a name the world lacks."""
    names = list(dict.fromkeys(retriever.resolve(e) for e in entities))[:MAX_ENTITIES]
    chapters = sorted(c for c in retriever.chapter_titles
                      if c != LORE_CHAPTER and (not horizon or c <= horizon))
    chart = Presence(names, chapters, horizon, titles=dict(retriever.chapter_titles))
    for name in names:
        events = retriever.track(name, horizon=horizon)
        for event in events:
            chart.passages.setdefault((name, event.chapter), []).append(event)
        card = retriever.card(name)
        # a passage is a mention at least: one that calls them "his father" and never by name
        # counts where the card's named mentions do not (The Metamorphosis's Mr. Samsa)
        counted = {c: len(found) for (n, c), found in chart.passages.items() if n == name}
        if card is not None and card.appearances:
            for a in card.as_of(horizon).appearances:
                if a.chapter != LORE_CHAPTER:
                    counted[a.chapter] = max(a.mentions, counted.get(a.chapter, 0))
        chart.mentions[name] = counted
    return chart


def export_chart(chart: Presence, fmt: str) -> bytes:
    """The chart in `fmt` (svg, png, csv, json) as the bytes of a file."""
    if fmt == "json":
        return (json.dumps({
            "entities": chart.entities, "chapters": chart.chapters,
            "horizon": chart.horizon or None,
            "mentions": {e: {str(c): chart.count(e, c) for c in chart.chapters if chart.count(e, c)}
                         for e in chart.entities},
            "passages": {e: {str(c): [p.chunk_id for p in chart.passages.get((e, c), [])]
                             for c in chart.chapters if chart.passages.get((e, c))}
                         for e in chart.entities}},
            ensure_ascii=False, indent=1) + "\n").encode("utf-8")
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["entity", *chart.chapters])
        for entity in chart.entities:
            writer.writerow([entity, *(chart.count(entity, c) for c in chart.chapters)])
        return out.getvalue().encode("utf-8")
    if fmt in ("svg", "png"):
        return draw(chart_dot(chart), fmt)
    raise ConfigError(f"unknown chart format {fmt!r}", where="--format",
                      hint=f"use one of: {', '.join(CHART_FORMATS)}")


def chart_dot(chart: Presence) -> str:
    """The chart as one Graphviz node whose label is an HTML-like table: a row per entity, a
    column per chapter, each cell shaded by mentions and holding its count."""
    cell = 'WIDTH="22" HEIGHT="22" FIXEDSIZE="TRUE"'
    head = [f'<TD {cell}><FONT POINT-SIZE="9">{c}</FONT></TD>' for c in chart.chapters]
    rows = [f'<TR><TD ALIGN="LEFT"><B>entity \\ chapter</B></TD>{"".join(head)}</TR>']
    for entity in chart.entities:
        cells = []
        for chapter in chart.chapters:
            count = chart.count(entity, chapter)
            shade = chart.shade(count)
            ink = "white" if shade >= 4 else "#333333"
            found = len(chart.passages.get((entity, chapter), []))
            title = html.escape(f"{entity} · ch. {chapter}: {counted(count, 'mention')}, "
                                f"{counted(found, 'passage')}")
            text = f'<FONT POINT-SIZE="8" COLOR="{ink}">{count}</FONT>' if count else " "
            cells.append(f'<TD {cell} BGCOLOR="{SHADES[shade]}" TITLE="{title}" '
                         f'TOOLTIP="{title}">{text}</TD>')
        rows.append(f'<TR><TD ALIGN="LEFT">{html.escape(entity)}</TD>{"".join(cells)}</TR>')
    table = (f'<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="2" '
             f'COLOR="#cccccc">{"".join(rows)}</TABLE>')
    heading = html.escape(chart.heading())
    return (f'graph presence {{\n  graph [fontname="{FONTS}" label=<{heading}> labelloc=t '
            f'fontsize=16 bgcolor=white]\n  node [shape=plaintext fontname="{FONTS}"]\n'
            f'  chart [label=<{table}>]\n}}\n')
