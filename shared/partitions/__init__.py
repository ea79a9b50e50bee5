"""Partitions: discovery and the contract gate, their inboxes, the playlist, run state."""
