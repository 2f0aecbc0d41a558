"""What a conversation remembers: the session's summaries and recall by meaning (summaries.py),
and the turns sent back to a model within a token budget (history.py).
"""
