"""The readers and how they plug in: the registry of entry points (registry.py), the [model]
settings (settings.py), Gemini and OpenAI-compatible servers (chat_models.py), and what lets a
small local model drive the agent (small_context.py, json_actions.py, text_answer.py). The
librarian, the offline reader, is a package of its own (agent/librarian/).
"""
