"""Benchmarks and their deterministic workload generators (not part of the package)."""
