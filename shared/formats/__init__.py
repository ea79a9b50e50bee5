"""Records for the on-disk files the pipeline shares: parse and render, no side effects."""
