"""The precedent-judge experiment (``python -m bench.precedent``): features, a fit, a report."""
