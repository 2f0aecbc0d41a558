"""The world's text and its indexes: readers, chunking, entities, catalog, vector/keyword/graph.

No UI and no model calls at query time. Heavy clients are created lazily.
"""
