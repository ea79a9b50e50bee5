"""memory-committer: candidate selection, one commit per wake, the audit trail.

Each stage is a module of its own (``run`` is the wake); the line review it calls lives in
``shared.review``.
"""
