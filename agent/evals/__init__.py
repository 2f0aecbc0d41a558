"""Measuring the readers: retrieval (`lore eval retrieval`), follow-up dialogues and LoCoMo.

Kept apart from the agent it measures: nothing in the agent imports this package (an import
contract in pyproject.toml says so); it drives the agent the way `lore ask` does.
"""
