"""State the processes of one kernel share through Redis: key names, the cadence tick
number and its slot guard, the queued-commit marker."""
