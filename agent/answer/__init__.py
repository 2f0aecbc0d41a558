"""The answer and its checks: citations checked against the passages (citations.py), what an
answer states and whether its citations hold it (support.py), the longest answer kept (cap.py),
and the answer as it streams (streaming.py, fields.py) and is shown (shown.py).
"""
