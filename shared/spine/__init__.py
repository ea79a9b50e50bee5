"""The spine: the runtime's append-only event log (kernel-format 2, 3).

Pure record functions live in :mod:`shared.spine.event` and
:mod:`shared.spine.interval`; file readers and writers in ``reader``, ``slices``,
``index`` and ``writer``.
"""
