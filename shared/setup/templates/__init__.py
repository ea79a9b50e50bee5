"""Fixed texts that `subcon init` writes: runtime/kernel layout files and partition prompts.

Kept as Python string constants (not package data) so an editable or wheel install
needs no extra packaging configuration.
"""
