"""The session store's memory layer: summaries, the plots behind them, their vectors.

A mixin of SessionStore: it uses the store's `_write` transaction, `_rows` and
`_require_session`, and keeps the summary <-> plot id pairs consistent in one transaction.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import sqlite_utils
from pydantic_core import to_jsonable_python

from sessions.records import Plot, Summary, new_id, now
from sessions.scrub import scrub


def dump(value: Any) -> str:
    """JSON text of models, dataclasses or plain values, scrubbed of secrets."""
    return scrub(json.dumps(to_jsonable_python(value), ensure_ascii=False))


class MemoryTables:
    """Summaries and plots (one id pair per plot point) and the summaries' embeddings."""

    db: sqlite_utils.Database
    _write: Any
    _rows: Any
    _require_session: Any

    def add_summary(
        self,
        session_id: str,
        from_turn: int,
        to_turn: int,
        text: str,
        plot_detail: str,
        cited_chunks: Sequence[str] = (),
    ) -> tuple[Summary, Plot]:
        """Store a summary of turns `from_turn..to_turn` and its plot point, linked both ways."""
        if from_turn > to_turn:
            raise ValueError(f"from_turn {from_turn} is after to_turn {to_turn}")
        t, summary_id, plot_id = now(), new_id(), new_id()
        summary = {"id": summary_id, "session_id": session_id, "from_turn": from_turn,
                   "to_turn": to_turn, "text": scrub(text), "plot_id": plot_id, "created": t}
        plot = {"id": plot_id, "session_id": session_id, "summary_id": summary_id,
                "detail": scrub(plot_detail), "cited_chunks_json": dump(list(cited_chunks)),
                "created": t}
        with self._write():
            self._require_session(session_id)
            self.db.table("summaries").insert(summary)
            self.db.table("plots").insert(plot)
        return Summary(**summary), _plot(plot)

    def summaries(self, session_id: str) -> list[Summary]:
        """A session's summaries in turn order."""
        rows = self._rows(
            "SELECT * FROM summaries WHERE session_id = ? ORDER BY from_turn, id", [session_id]
        )
        return [Summary(**row) for row in rows]

    def plot(self, summary_id: str) -> Plot | None:
        """The plot point a summary links to (summary → plot), or None."""
        rows = self._rows(
            "SELECT p.* FROM summaries s JOIN plots p ON p.id = s.plot_id WHERE s.id = ?",
            [summary_id],
        )
        return _plot(rows[0]) if rows else None

    def summary_for_plot(self, plot_id: str) -> Summary | None:
        """The summary a plot point links back to (plot → summary), or None."""
        rows = self._rows(
            "SELECT s.* FROM plots p JOIN summaries s ON s.id = p.summary_id WHERE p.id = ?",
            [plot_id],
        )
        return Summary(**rows[0]) if rows else None

    def world_summaries(self, world: str) -> list[Summary]:
        """The summaries of every session of `world`, oldest session first."""
        rows = self._rows(
            "SELECT m.* FROM summaries m JOIN sessions s ON s.id = m.session_id"
            " WHERE s.world = ? ORDER BY m.session_id, m.from_turn, m.id", [world]
        )
        return [Summary(**row) for row in rows]

    def summary_vectors(self, summary_ids: Sequence[str], model: str) -> dict[str, bytes]:
        """Stored embeddings (float32 bytes) of these summaries by `model`, by summary id."""
        found: dict[str, bytes] = {}
        ids = list(summary_ids)
        for at in range(0, len(ids), 500):  # SQLite's bound-parameter limit
            part = ids[at: at + 500]
            marks = ", ".join("?" * len(part))
            for row in self._rows(
                f"SELECT summary_id, vector FROM summary_vectors WHERE model = ?"
                f" AND summary_id IN ({marks})", [model, *part]
            ):
                found[row["summary_id"]] = row["vector"]
        return found

    def put_summary_vectors(self, model: str, dim: int, vectors: dict[str, bytes]) -> None:
        """Store embeddings of summaries (derived data: replaced when recomputed)."""
        with self._write():
            self.db.conn.executemany(
                "INSERT OR REPLACE INTO summary_vectors (summary_id, model, dim, vector)"
                " VALUES (?, ?, ?, ?)",
                [(sid, model, dim, blob) for sid, blob in vectors.items()],
            )


def _plot(row: dict[str, Any]) -> Plot:
    row = dict(row)
    cited = json.loads(row.pop("cited_chunks_json") or "[]")
    return Plot(**row, cited_chunks=cited)
