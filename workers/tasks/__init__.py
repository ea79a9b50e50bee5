"""One small module per pipeline stage; each exposes ``register(app)``."""
