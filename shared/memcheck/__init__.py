"""The memory check's lints (docs/formats.md §8.3-§8.7): pure measurement and selection.

Each lint reads through a :class:`~shared.memcheck.reads.MemoryReads` (which records
every path that failed with anything other than "missing") and returns
:class:`~shared.memcheck.selection.Selection` records; delivery and the inbox sweep live
in :mod:`shared.memcheck.check`.
"""
