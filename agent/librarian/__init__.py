"""The librarian: the built-in rule-based reader (a pydantic-ai FunctionModel).

Everything that reads questions by rules lives here: query analysis (analysis.py), follow-ups
made explicit (followup.py with referring.py, candidates.py, phrases.py), the search strategy
(strategy.py, hops.py), grading passages (grading.py) and composing the answer (compose.py;
an answer of evidence alone, or around the picker's candidate: evidence_answers.py). Its words
come from stores/lang. The core never imports this package: agent.readers.registry names it.
"""
