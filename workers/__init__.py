"""Celery side of subcon: the app factory, routing, thin task modules, cadence and CLI."""
