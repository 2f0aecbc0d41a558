"""A conversation: the agent that answers one question (core.py), the session it belongs to
(session.py: `Conversation`), the entity stack it keeps (stack.py), and its exports (exports.py).
"""
