"""The one definition of the CJK ideograph range every text rule shares.

CJK Unified Ideographs Extension A (U+3400-U+4DBF), the Unified Ideographs block
(U+4E00-U+9FFF) and the Compatibility Ideographs (U+F900-U+FAFF): a rare character from
Extension A must split clauses and count as Chinese like any common one.
"""

from __future__ import annotations

import re

CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
CJK_CHAR = f"[{CJK}]"
CJK_RE = re.compile(CJK_CHAR)
CJK_RUN_RE = re.compile(CJK_CHAR + "+")
