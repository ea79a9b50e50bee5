"""The cadence: which partitions a tick starts, and each tick's bookkeeping."""
