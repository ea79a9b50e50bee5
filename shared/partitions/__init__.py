"""Partitions: discovery and the contract gate, their inboxes, the playlist, run state."""

# ``from shared.partitions import locale_key, parse_partition`` is how the interop
# harness (``../shared/interop``) reads them, from before discovery had its own module.
from shared.partitions.discovery import locale_key, parse_partition

__all__ = ["locale_key", "parse_partition"]
