"""The kernel directory as a resource: its paths, safe file writes, the git funnel, the lock."""
