"""Compatibility path ``shared.fragments`` for the interop harness (``../shared/interop``),
which imports subcon's record functions by the paths they had before the packages
were regrouped. The code lives in ``shared.formats.fragments``; nothing in the project imports
this module (``tests/test_layering.py`` checks).
"""

from shared.formats.fragments import *  # noqa: F403
