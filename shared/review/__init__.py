"""Review: every changed memory line against the gates of its file kind (pure)."""
