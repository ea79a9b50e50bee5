"""Stage update: evidence-driven edits of the broadcast board.

``updater`` runs the stage: a decision per line from ``line_judge`` (or another judge),
broken pointers repaired by ``pointers``, new lines from ``new_lines``, the edits
recorded for the commit body by ``edits``; ``outcome`` gathers what the run did.
"""
