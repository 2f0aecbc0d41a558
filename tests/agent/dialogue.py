"""A dialogue played against the follow-up resolver, for the follow-up tests."""

from __future__ import annotations

from datetime import UTC, datetime

from agent.conversation.stack import Asked, likely_answer, next_stack
from agent.librarian.followup import resolve
from agent.world.lexicon import Lexicon
from sessions.records import StackEntry, Turn
from stores.models import Entity


def person(name: str, *aliases: str, description: str = "") -> Entity:
    return Entity(name=name, type="person", aliases=list(aliases), description=description)


class Dialogue:
    """Resolves each question, then records the answer as the conversation saves it."""

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        self.turns: list[Turn] = []
        self.stack: list[StackEntry] = []

    def ask(self, question: str, answer: str = "", entities: list[str] | None = None,
            quotes: tuple[str, ...] = (), evidence: bool = False) -> str:
        """The question as resolved; the answer's entities default to the names it holds.
        `evidence`: the answer states nothing, so its likely answer goes on as a guess."""
        res = resolve(question, self.stack, self.turns, self.lexicon)
        names = self.lexicon.names_in(answer) if entities is None else entities
        self.turns.append(Turn(
            id=str(len(self.turns)), session_id="s", n=len(self.turns) + 1, question=question,
            resolved_question=res.text, answer=answer, status="answered", entities=names,
            citations=[{"chunk_id": "c", "quote": q} for q in quotes], created=datetime.now(UTC)))
        asked = Asked.read(res, self.lexicon)
        guess = likely_answer(asked, names) if evidence else ""
        self.stack = next_stack(asked, names, self.stack, guess=guess, stated=not evidence)
        return res.text
