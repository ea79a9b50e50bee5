"""Settling a pass: the scan-gap ack, one directed item, the pass report."""
