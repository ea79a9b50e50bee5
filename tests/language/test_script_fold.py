"""Traditional characters fold to their simplified forms, one to one."""

from __future__ import annotations

from shared.language.claims import analyse
from shared.language.lexicon.script import _SIMPLIFIED, _TRADITIONAL, simplified


def test_fold_is_one_to_one_and_keeps_length() -> None:
    assert len(_TRADITIONAL) == len(_SIMPLIFIED) == len(set(_TRADITIONAL))
    assert not set(_TRADITIONAL) & set(_SIMPLIFIED)  # no simplified character is rewritten
    text = "遵守團隊編碼規範 and `Config.Load()`"
    assert simplified(text) == "遵守团队编码规范 and `Config.Load()`"
    assert len(simplified(text)) == len(text)


def test_claims_read_traditional_as_simplified_but_keep_the_raw_line() -> None:
    claim = analyse("**預防規則**：寫完設定檔立刻驗證")
    assert claim.text == "预防规则：写完设定档立刻验证"
    assert claim.raw == "**預防規則**：寫完設定檔立刻驗證"
    assert analyse("Use Config.Load()").text == "Use Config.Load()"
