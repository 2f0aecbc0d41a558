"""The agent's six tools (toolset.py), what they reach (deps.py: the turn's inputs) and what they
return beside their result (findings.py).
"""
