"""A separate process that writes turns into a session database (for the crash/concurrency tests).

    python -m tests.sessions._writer DB --world W [--session ID] --turns N [--go FILE]

Prints `ready` once the store is open, waits for FILE to exist if --go is given, then writes N
turns (begin + finish with a 3-entity stack) and prints `done`. Exits 3 on a StoreError.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from sessions import SessionStore, StackEntry
from stores.errors import StoreError

STACK = ("刘备", "关羽", "张飞")


def turn_payload(n: int) -> dict:
    """What the writer stores for turn n; the tests recompute it to check the rows."""
    messages = [{"kind": "request", "parts": [{"content": f"问题 {n} " + "曹操" * 200}]}]
    return {
        "resolved_question": f"刘备第{n}回做了什么？",
        "answer": f"answer {n}",
        "messages_json": json.dumps(messages, ensure_ascii=False),
        "citations": [{"chunk_id": f"c{n}", "chapter": n % 120 + 1}],
        "tool_calls": [{"tool": "vector_search", "args": {"query": f"q{n}"}}],
        "stack": [StackEntry(entity=name, referred_as=f"{name}{n}") for name in STACK],
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("db", type=Path)
    parser.add_argument("--world", default="sanguo")
    parser.add_argument("--session")
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--go", type=Path)
    args = parser.parse_args()
    try:
        store = SessionStore(args.db, timeout_s=30)
        session_id = args.session or store.create_session(args.world).id
        print("ready", session_id, flush=True)
        while args.go is not None and not args.go.exists():
            time.sleep(0.005)
        for _ in range(args.turns):
            turn = store.begin_turn(session_id, "他后来怎么了？")
            store.finish_turn(turn.id, **turn_payload(turn.n))
        print("done", flush=True)
    except StoreError as exc:
        print(exc, file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
