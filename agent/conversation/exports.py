"""Exports shared by the command line and the terminal app: an entity's timeline, a session.

`export_timeline(retriever, entity, fmt)` (md, json, csv) serves `lore timeline` and the app's
timeline export; `export_session(store, session_id, fmt)` (md, json) serves `lore sessions
export` / `show` and the app's session export. Both return text; the caller writes it.
Everything a session export contains is scrubbed of secrets once more on the way out.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any, Literal

from agent.schemas import TimelineEvent
from agent.world.retrieval import Retriever
from sessions.records import Session, Turn
from sessions.scrub import scrub
from sessions.store import SessionStore
from stores.errors import ConfigError
from stores.lang import has_han, in_quotes
from stores.lang.en import counted
from stores.models import chapter_label, shown_path

TimelineFormat = Literal["md", "json", "csv"]
SessionFormat = Literal["md", "json"]
CSV_COLUMNS = ("chapter", "chapter_title", "event_order", "gist", "source", "line_start",
               "line_end")


def timeline(retriever: Retriever, entity: str,
             horizon: int = 0) -> tuple[str, list[str], list[TimelineEvent]]:
    """(canonical name, aliases, every appearance in story order up to the spoiler horizon);
    UnknownEntity if unknown."""
    name = retriever.resolve(entity)
    events = sorted(retriever.track(name, horizon=horizon),
                    key=lambda e: (e.event_order, e.chapter))
    return name, list(retriever.entities.get(name, [])), events


def export_timeline(retriever: Retriever, entity: str, fmt: TimelineFormat = "md",
                    horizon: int = 0) -> str:
    """The entity's appearances in story order, up to the spoiler horizon, as Markdown, JSON
    or CSV (aliases resolved)."""
    name, aliases, events = timeline(retriever, entity, horizon)
    if fmt == "json":
        return json.dumps({"entity": name, "aliases": aliases,
                           "events": [_event(e) for e in events]}, ensure_ascii=False, indent=1)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for e in events:
            writer.writerow([e.chapter, e.chapter_title, e.event_order, e.gist, e.source,
                             e.lines[0], e.lines[1]])
        return out.getvalue()
    if fmt == "md":
        return _timeline_md(name, aliases, events, retriever.stores.world)
    raise _bad_format(fmt, ("md", "json", "csv"))


def _event(e: TimelineEvent) -> dict[str, Any]:
    return {"chapter": e.chapter, "chapter_title": e.chapter_title, "event_order": e.event_order,
            "gist": e.gist, "source": e.source, "lines": [e.lines[0], e.lines[1]]}


def _timeline_md(name: str, aliases: list[str], events: list[TimelineEvent], world: str) -> str:
    chapters = len({e.chapter for e in events})
    lines = [f"# Timeline of {name}", ""]
    if aliases:
        lines.append(f"Also called: {', '.join(aliases)}  ")
    lines += [f"World `{world}`: {counted(len(events), 'appearance')} in "
              f"{counted(chapters, 'chapter')}, in story order.",
              "", "| # | chapter | title | order | what happens | source |",
              "|---:|---:|---|---:|---|---|"]
    for i, e in enumerate(events, start=1):
        source = f"{shown_path(Path(e.source).name)}:{e.lines[0]}–{e.lines[1]}"
        lines.append(f"| {i} | {e.chapter} | {_cell(e.chapter_title)} | {e.event_order} | "
                     f"{_cell(e.gist)} | {_cell(source)} |")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


# -- sessions -------------------------------------------------------------------------------------
def export_session(store: SessionStore, session_id: str, fmt: SessionFormat = "md") -> str:
    """A session with its turns, entity stack, summaries and plots, as Markdown or JSON."""
    from agent.conversation.session import find_session

    session = find_session(store, session_id)
    turns = store.turns(session.id)
    if fmt == "json":
        return scrub(json.dumps(_session_dict(store, session, turns), ensure_ascii=False,
                                indent=1))
    if fmt == "md":
        return scrub(_session_md(store, session, turns))
    raise _bad_format(fmt, ("md", "json"))


def _session_dict(store: SessionStore, session: Session, turns: list[Turn]) -> dict[str, Any]:
    summaries = []
    for s in store.summaries(session.id):
        plot = store.plot(s.id)
        summaries.append({"id": s.id, "turns": [s.from_turn, s.to_turn], "text": s.text,
                          "plot": None if plot is None else {
                              "id": plot.id, "detail": plot.detail,
                              "cited_chunks": plot.cited_chunks}})
    return {
        "session": session.model_dump(mode="json"),
        "turns": [t.model_dump(mode="json", exclude={"messages_json", "session_id"})
                  for t in turns],
        "stack": [{"entity": e.entity, "referred_as": e.referred_as}
                  for e in store.stack(session.id)],
        "tracked": store.tracked_entities(session.id),
        "summaries": summaries,
    }


def _session_md(store: SessionStore, session: Session, turns: list[Turn]) -> str:
    # the same name the session list gives it: its title, else its first question
    first = " ".join(turns[0].question.split()) if turns else ""
    title = session.title or first or "untitled session"
    lines = [f"# {title}", "",
             f"Session `{session.id}` about world `{session.world}` · {len(turns)} turns · "
             f"started {session.created:%Y-%m-%d %H:%M} · last active "
             f"{session.updated:%Y-%m-%d %H:%M} UTC"]
    stack = store.stack(session.id)
    if stack:
        # how the user last called them, said as such ("Frederick (his)" read as a name)
        talked = ", ".join(e.entity + (f" (as “{e.referred_as}”)" if e.referred_as
                                       and e.referred_as != e.entity else "") for e in stack)
        lines.append(f"Talked about (most recent first): {talked}")
    if session.tracked_entity:
        lines.append(f"Tracking: {session.tracked_entity}")
    for t in turns:
        lines += ["", f"## {t.n}. {t.question}"]
        if t.resolved_question and t.resolved_question != t.question:
            lines.append(f"*read as:* {t.resolved_question}")
        if t.status != "answered":
            why = f": {t.error}" if t.error else ""
            lines += ["", f"*{t.status} — no answer{why}*"]
            continue
        # each line of the answer its own (Markdown joins lines into one paragraph otherwise:
        # a newcomer's export read the lead and its quotes as one run of text)
        lines += ["", t.answer.replace("\n", "  \n")]
        for i, c in enumerate(t.citations, start=1):
            if isinstance(c, dict):
                span = c.get("lines") or [0, 0]
                where = f"{shown_path(Path(str(c.get('source', ''))).name)}:{span[0]}–{span[1]}"
                number = c.get("chapter")
                chapter = chapter_label(int(number), has_han(t.question)) \
                    if isinstance(number, int) else "?"
                lines.append(f"{'' if i > 1 else chr(10)}[{i}] {chapter}, {where}: "
                             f"{in_quotes(str(c.get('quote', '')))}  ")
    summaries = store.summaries(session.id)
    if summaries:
        lines += ["", "## Memory"]
        for s in summaries:
            lines += ["", f"### Turns {s.from_turn}–{s.to_turn}", "", s.text.replace("\n", "  \n")]
    return "\n".join(lines) + "\n"


def _bad_format(fmt: str, allowed: tuple[str, ...]) -> ConfigError:
    return ConfigError(f"unknown export format {fmt!r}", where="--format",
                       hint=f"use one of: {', '.join(allowed)}")
