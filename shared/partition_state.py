"""Compatibility path ``shared.partition_state`` for the interop harness (``../shared/interop``),
which imports subcon's record functions by the paths they had before the packages
were regrouped. The code lives in ``shared.partitions.state``; nothing in the project imports
this module (``tests/test_layering.py`` checks).
"""

from shared.partitions.state import *  # noqa: F403
