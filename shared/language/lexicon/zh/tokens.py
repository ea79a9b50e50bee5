"""Chinese data of tokenising and of splitting a board line (data only)."""

from __future__ import annotations

from shared.language.lexicon.concept import Entry, Marker, Pattern, words

CONCEPTS: dict[str, tuple[Entry, ...]] = {
    # Function characters split CJK runs so bigrams do not straddle particles.
    "particle": tuple("的了吗呢啊吧呀么着过和与及或就都也还在是我你他她它们这那把被给让"),
    # Bigrams too generic to identify a rule's trigger on their own.
    "generic_cue": words(
        "用户 户要 要求 求写 户提 提到 户问 时候 问题 需要 一下 可以 这个 那个 什么 怎么 进行 相关"
    ),
    "task_verb": words("检查 修复 修改 更新 运行 查看 添加 删除"),
    # A rule sentence: (trigger clause, direction clause), tried in rank order.
    "rule_shape_marker": (
        Marker(
            "当 … 时，…",
            r"(?s:^(?:当|如果|假如|若|遇到|碰到|每当|每次|在)(.+?)(?:时候|的时候|时|之前|之后|后)?"
            r"[，,：:；;]\s*(.*)$)",
            rank=1,
        ),
        Marker("每次 … 都 …", r"(?s:^(?:每次|每当)(.+?)(?:的时候|时)?(?:都|就)(.+)$)", rank=2),
        Marker(
            "… 之前 一定要 …",
            r"(?s:^([^，,。；;：:\s]{2,12}?(?:之前|之后|的时候|时))\s*"
            r"((?:一定要|必须|务必|都要|都得|要|先|请)[^，,。；;]*)$)",
            rank=4,
        ),
        Marker(
            "… 时，…",
            r"(?s:^([^，,。；;：:]{2,24}?)(?:的时候|时候|时|之前|之后)[，,：:；;]\s*(.*)$)",
            rank=3,
        ),
    ),
    "trigger_connective": (
        Pattern(
            r"[^，,。]{2,12}?(?:之前|之后|的时候|时)$",
            "a situation that ends with its own connective",
            bounded=False,
        ),
    ),
}
