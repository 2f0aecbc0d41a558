"""One open world and reading it: the `OpenWorld` (open_world.py), its `Retriever` (searches,
graph, timeline, passages: retrieval.py), the world's names as a conversation reads them
(lexicon.py, gender.py) and the one-at-a-time door to its stores (blocking.py).
"""
