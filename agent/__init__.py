"""The pydantic-ai agent, in rooms that import only the rooms under them (pyproject.toml's
import-linter contract holds the order), top to bottom:

- evals/: what measures the agent (answers, dialogues, retrieval, cards, entities).
- conversation/: the core that answers one question (core.py), the `Conversation` a question
  is asked in (session.py), the entity stack (stack.py) and exports; beside it librarian/, the
  built-in rule-based reader, which the core never imports (an entry point names it).
- readers/: the reader registry, the [model] settings, Gemini and OpenAI-compatible servers,
  and what lets a small local model drive the agent.
- memory/: the session's summaries and the history sent back to a model.
- answer/: the answer and its checks (citations, support), its cap, streaming.
- tools/: the six tools, their deps and findings; beside it views/: an entity's card read
  out, the relations map, the presence chart.
- world/: the open world (open_world.py), its retriever, the world's names (lexicon.py).
- schemas.py: the typed inputs and outputs.
"""
