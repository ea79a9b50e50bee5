"""Stage update: evidence-driven edits of the broadcast board."""
