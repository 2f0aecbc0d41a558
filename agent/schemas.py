"""Typed inputs and outputs of the agent's tools and of its final answer."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field
from pydantic.json_schema import SkipJsonSchema


class ChapterRange(BaseModel):
    """An inclusive range of chapters; either end may be open."""

    start: int | None = Field(None, ge=0, description="First chapter (inclusive).")
    end: int | None = Field(None, ge=0, description="Last chapter (inclusive).")


class Passage(BaseModel):
    """A passage of the world's text with where it comes from."""

    chunk_id: str = Field(description="Id to cite and to pass to read_passage.")
    chapter: int = Field(description="Chapter number in the story.")
    chapter_title: str = Field("", description="The chapter's title.")
    event_order: int = Field(0, description="Position in the whole story's order.")
    source: str = Field(description="Source file of the passage.")
    lines: tuple[int, int] = Field(description="First and last source line.")
    text: str = Field(description="The passage text.")
    entities: list[str] = Field(default_factory=list, description="Entities mentioned.")
    score: float = Field(0.0, description="Retrieval score (higher is better).")


class Relation(BaseModel):
    """A relation between two entities with the passages that show it."""

    source: str = Field(description="Canonical name of one entity.")
    target: str = Field(description="Canonical name of the other entity.")
    type: str = Field(description="Relation type, e.g. co_occurs, sworn_sibling, lord_of.")
    weight: float = Field(description="How many passages show it (declared relations: 1).")
    chapters: list[int] = Field(default_factory=list, description="Chapters where it shows.")
    evidence: list[Passage] = Field(default_factory=list, description="Passages that show it.")
    declared: bool = Field(False, description="Declared by the world's glossary.")


class TimelineEvent(BaseModel):
    """One appearance of an entity, in story order."""

    chapter: int = Field(description="Chapter number.")
    chapter_title: str = Field("", description="The chapter's title.")
    event_order: int = Field(description="Position in the whole story's order.")
    chunk_id: str = Field(description="The passage to cite or read.")
    gist: str = Field(description="One line about what happens there.")
    source: str = Field(description="Source file.")
    lines: tuple[int, int] = Field(description="First and last source line.")


class Memory(BaseModel):
    """A remembered point of this conversation (a summary, or with deep recall its plot)."""

    summary_id: str = Field(description="Id of the summary.")
    turns: tuple[int, int] = Field(description="First and last turn it covers.")
    text: str = Field(description="The summary.")
    plot: str = Field("", description="The detailed material behind it (deep recall only).")
    cited_chunks: list[str] = Field(default_factory=list, description="Passages cited then.")
    score: float = Field(0.0, description="Similarity to the query.")


class Citation(BaseModel):
    """A pointer from the answer to the passage it stands on."""

    chunk_id: str = Field(description="The cited passage's id.")
    chapter: int = Field(0, description="Its chapter.")
    source: str = Field("", description="Its source file.")
    lines: tuple[int, int] = Field((0, 0), description="Its source line span.")
    quote: str = Field(description="Words copied exactly from the passage.")


class Referent(BaseModel):
    """Words of the user's question that point at an entity, and whom they mean."""

    words: str = Field(description="The words as the user typed them, e.g. 他, she, there.")
    names: list[str] = Field(description="Canonical names of what they refer to.")


class Answer(BaseModel):
    """The agent's final answer."""

    resolved_question: str = Field(
        "", description="The question you answered, written out in full: pronouns, 'there' and "
                        "dropped subjects replaced by the names the conversation gives them.")
    referents: list[Referent] = Field(
        default_factory=list, description="Optional: which words of the user's question you "
                                          "took to mean which entities.")
    text: str = Field(description="The answer, citing passages as [1], [2] in citation order.")
    citations: list[Citation] = Field(default_factory=list, description="Cited passages.")
    entities: list[str] = Field(default_factory=list,
                                description="Canonical names of the entities the answer is about.")
    stop_reason: Literal["answered", "evidence", "not_in_text", "max_rounds", "time_limit",
                         "error"] = Field(
        "answered", description="Why the run ended.")
    evidence: SkipJsonSchema[list[Passage] | None] = Field(None, exclude=True)
    """The reader's own ranking of what it read, best first, when it makes one (the librarian
    does; agent.conversation.core.ask ranks the tools' passages for a reader that does not). Never part of
    what a model writes: not in the schema it is shown, and never serialised."""
    # evidence: the passages that bear on the question, no answer stated (the librarian's
    # answer when its evidence does not settle the question); time_limit: model.answer_timeout_s
    # ended the run, and the answer is the evidence read so far


WORDS_ONLY = "(by words alone)"
"""What a vector_search step's summary says while the world has no vectors (BM25 alone): the
trace (tui/trace.py) says the search was by words, not by meaning."""
