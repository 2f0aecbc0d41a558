"""What a newcomer sees in an empty session: what the world is (its name, size and where it came
from) and a few questions to start with, in the world's languages, about its best-known entities.

No Textual here: plain functions of the open world, tested directly and shown by the chat pane.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stores.lang import has_han
from stores.lang import language as lang_of

EXAMPLES = 4
"""Questions offered at most."""
MIN_SHARE = 0.1
"""A language is the world's when at least this share of its passages is written in it."""
TRUSTED = {"glossary", "lorebook", "pattern", "speaker", "llm"}
"""Entity sources that name an entity on purpose. A name the name tagger found is offered only
when it is a person whose card says who they are (an office, a relation or a sentence that
defines them): a tagger's guess may be a common word (侯府)."""
TOLD_BY = ("office", "relation", "defines")
"""The kinds of a card's facts that say who someone is."""


@dataclass
class Introduction:
    """The world, as the empty chat introduces it."""

    title: str
    """The world's own title (its folder's README heading), else ''."""
    origin: str
    """`12 files in ~/stories/demo_world`."""
    examples: list[str] = field(default_factory=list)


def introduce(retriever: Any, documents: list[str]) -> Introduction:
    """The introduction of an open world (agent.world.retrieval.Retriever); `documents` are the
    paths of its ingested files."""
    folder = _common_folder(documents)
    entities = retriever.stores.catalog.entities(retriever.stores.world)
    return Introduction(_title_of(folder), _origin(documents, folder),
                        example_questions(entities, _languages(retriever.story),
                                          retriever.card, retriever.lexicon.gender))


def example_questions(entities: list[Any], languages: list[str],
                      card_of: Callable[[str], Any] = lambda _: None,
                      gender: Callable[[str], str] = lambda _: "") -> list[str]:
    """Up to EXAMPLES questions about the most mentioned people (then places and things),
    shared between the world's languages ('zh', 'en'): who they are, and one about a relative
    their cards name ("Who is Fernand Mondego's wife?"). `card_of` gives an entity's card and
    `gender` a person's ('m', 'f' or '')."""
    cards = {e.name: card_of(e.name) for e in entities[:200] if e.type == "person"}
    known = sorted((e for e in entities if TRUSTED & set(e.sources) or _told(cards.get(e.name))),
                   key=lambda e: (e.type != "person", -e.mentions))
    per_language = max(1, EXAMPLES // max(len(languages), 1))
    questions: list[str] = []
    asked: set[str] = set()
    for language in languages:
        # its own names first (Eleanor Vance in English), then others' names as it writes them
        own = [e for e in known if has_han(e.name) == (language == "zh")]
        chosen = 0
        for entity in own + [e for e in known if e not in own]:
            name = _name_in(entity, language)
            if not name or entity.name in asked or chosen == per_language:
                continue
            questions.append(_question(name, entity.type, language))
            asked.add(entity.name)
            chosen += 1
    kin = _kin_question(known, cards, languages[0] if languages else "en", gender)
    if kin and len(questions) >= EXAMPLES:
        questions[EXAMPLES - 1] = kin
    elif kin:
        questions.append(kin)
    return questions[:EXAMPLES]


def _told(card: Any) -> bool:
    """The card says who the person is: an office, a relation or a defining sentence."""
    return card is not None and any(card.of_kind(k) for k in TOLD_BY)


def _kin_question(known: list[Any], cards: dict[str, Any], language: str,
                  gender: Callable[[str], str]) -> str:
    """A question one of the best-known people is the answer to, from a relation their card
    states (the relative's name, and the word for what the person is to them)."""
    names = {e.name: e for e in known}
    for entity in known[:6]:
        card = cards.get(entity.name)
        for fact in card.of_kind("relation") if card is not None else ():
            other = names.get(fact.other)
            word = lang_of(language).relative_word(fact.text, fact.end, gender(entity.name))
            shown = _name_in(other, language) if other is not None else ""
            if word and shown:
                return f"{shown}的{word}是谁？" if language == "zh" else f"Who is {shown}'s {word}?"
    return ""


def _name_in(entity: Any, language: str) -> str:
    """The entity's name as a reader of `language` writes it ('' when it has none)."""
    for name in (entity.name, *entity.aliases):
        if has_han(name) == (language == "zh") and (language == "zh" or " " in name
                                                    or name == entity.name):
            return str(name)
    return ""


def _question(name: str, kind: str, language: str) -> str:
    if language == "zh":
        return f"{name}是谁？" if kind == "person" else f"{name}是什么？"
    return f"Who is {name}?" if kind == "person" else f"What is {name}?"


def _languages(story: list[Any]) -> list[str]:
    """The world's languages, most passages first."""
    han = sum(1 for chunk in story if has_han(chunk.text))
    shares = {"zh": han, "en": len(story) - han}
    return [lang for lang, n in sorted(shares.items(), key=lambda kv: -kv[1])
            if story and n / len(story) >= MIN_SHARE]


def _common_folder(documents: list[str]) -> Path | None:
    if not documents:
        return None
    try:
        common = Path(os.path.commonpath([str(Path(d).parent) for d in documents]))
    except ValueError:  # different drives
        return None
    return common


def _title_of(folder: Path | None) -> str:
    """The first heading of the folder's README, without Markdown emphasis ('' if none)."""
    if folder is None:
        return ""
    for readme in ("README.md", "README.txt", "README"):
        try:
            lines = (folder / readme).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        heading = next((line.lstrip("#").strip() for line in lines if line.startswith("# ")), "")
        return re.sub(r"[*_`]", "", heading)
    return ""


def _origin(documents: list[str], folder: Path | None) -> str:
    n = len(documents)
    files = f"{n} file{'s' if n != 1 else ''}"
    if folder is None:
        return files
    home = Path.home()
    shown = f"~/{folder.relative_to(home)}" if folder.is_relative_to(home) else str(folder)
    return f"{files} in {shown}"
