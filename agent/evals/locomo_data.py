"""Reading LoCoMo's locomo10.json: conversations, dated sessions, QA items, evidence ids.

Evidence ids are messy: some hold several ids ('D8:6; D9:17'), some are unusable ('D',
'D:11:26'); `parse_evidence` splits the first kind and returns the second for counting.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from stores.errors import InputError

DIA_ID = re.compile(r"D(\d+):(\d+)")
_SESSION_KEY = re.compile(r"session_(\d+)")


def parse_evidence(raw: Sequence[Any]) -> tuple[list[str], list[str]]:
    """(usable dia_ids in order, once each; the pieces that are not dia_ids).

    >>> parse_evidence(["D8:6; D9:17", "D", "D1:3"])
    (['D8:6', 'D9:17', 'D1:3'], ['D'])
    """
    ids: list[str] = []
    bad: list[str] = []
    for item in raw:
        for piece in re.split(r"[;,\s]+", str(item).strip()):
            if not piece:
                continue
            match = DIA_ID.fullmatch(piece)
            if match:
                ids.append(f"D{int(match[1])}:{int(match[2])}")
            else:
                bad.append(piece)
    return list(dict.fromkeys(ids)), bad


@dataclass
class Utterance:
    """One dialogue turn of LoCoMo."""

    dia_id: str
    speaker: str
    text: str


@dataclass
class LocomoSession:
    number: int
    date: str
    turns: list[Utterance]


@dataclass
class Sample:
    """One LoCoMo conversation with its questions."""

    sample_id: str
    sessions: list[LocomoSession]
    qa: list[dict]

    @cached_property
    def dia_ids(self) -> set[str]:
        return {u.dia_id for s in self.sessions for u in s.turns}


def load_locomo(path: Path, limit: int | None = None) -> list[Sample]:
    """The conversations of a locomo10.json file; InputError when it is not one."""
    if not path.is_file():
        raise InputError("no such LoCoMo file", where=path,
                         hint="pass ../shared/data/locomo/locomo10.json")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"not a JSON file: {exc}", where=path,
                         hint="pass LoCoMo's locomo10.json unchanged") from None
    if not isinstance(raw, list):
        raise InputError("expected a list of conversations", where=path,
                         hint="pass LoCoMo's locomo10.json unchanged")
    samples = []
    for index, item in enumerate(raw[:limit] if limit else raw):
        try:
            samples.append(_sample(item))
        except (KeyError, TypeError, AttributeError) as exc:
            raise InputError(f"conversation {index} is not in LoCoMo's format ({exc!r})",
                             where=path, hint="each item needs sample_id, conversation, qa") \
                from None
    return samples


def _sample(item: dict) -> Sample:
    conversation = item["conversation"]
    sessions = []
    for key, turns in conversation.items():
        match = _SESSION_KEY.fullmatch(key)
        if not match or not isinstance(turns, list):
            continue
        number = int(match[1])
        utterances = []
        for turn in turns:
            text = turn.get("text", "")
            if turn.get("blip_caption"):  # the photo is part of what was said
                text = f"{text} [shares a photo of {turn['blip_caption']}]".strip()
            utterances.append(Utterance(turn["dia_id"], turn["speaker"], text))
        sessions.append(LocomoSession(number, conversation.get(f"{key}_date_time", ""),
                                      utterances))
    sessions.sort(key=lambda s: s.number)
    return Sample(str(item["sample_id"]), sessions, list(item["qa"]))
