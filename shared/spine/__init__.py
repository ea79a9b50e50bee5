"""The spine: the runtime's append-only event log (docs/formats.md §4).

Pure record functions live in :mod:`shared.spine.event` and
:mod:`shared.spine.interval`; file readers and writers in ``reader``, ``slices``,
``index`` and ``writer``.
"""
