"""Demo board (``memory/CLAUDE.md``), its topic nodes and one entity dossier (docs/formats.md §10).

The committed board holds only lines that pass review. ``REJECT_LINES`` are the
instructive counter-examples (a self-referential slogan, status recaps, a bare
preference) that init appends as an uncommitted edit, so the first committer run
shows a file being held back.
"""

from __future__ import annotations

from typing import Final

BOARD: Final = """\
# Intuition

## Replies
- When a reply would open with social filler, lead with the answer and keep courtesy to the closing sentence [[lesson-reply-first]]
- 当用户用中文提问时，先用中文给出结论，英文术语放在括号里 [[lesson-chinese-reply-language]]
- When Alice asks for a status update on Feishu, answer in Chinese with three bullets: 已完成 / 阻塞 / 下一步 [[groove-feishu-status-update]]

## Code and operations
- When asked to review a pull request, run the test suite first and quote the failing test name in the review [[groove-pr-review]]
- When a shell command would delete files, list the exact paths and wait for an explicit yes before running it [[lesson-confirm-destructive]]
- 用户说"部署"或"发布"时，先检查 staging 的健康状态，再执行生产发布 [[groove-deploy-check]]

## Scheduling and reports
- When a meeting time comes without a time zone, restate it in Asia/Shanghai and UTC before booking [[lesson-timezone-restate]]
- 整理周报时，按项目分组并附上每条的 issue 链接 [[groove-weekly-report]]

## People
- When Alice shares a design doc, list its open decisions before any summary; see [[alice-chen]] [[lesson-design-doc-decisions]]
"""  # noqa: E501

REJECT_LINES: Final = (
    "- The memory board is concise and durable.",
    "- The latest run completed and the queue is clear.",
    "- Alice prefers concise responses.",
    "- 最近一次运行已完成，队列已清空。",
)


def board_with_rejects() -> str:
    """The board plus a ``## Notes`` section of lines review should reject."""
    return BOARD + "\n## Notes\n" + "\n".join(REJECT_LINES) + "\n"


def _node(
    kind: str,
    title: str,
    occurrences: int,
    condition: str,
    procedure: str,
    references: str | None = None,
) -> str:
    parts = [
        f"---\noccurrences: {occurrences}\n---\n",
        f"# {kind}: {title}\n",
        f"## Condition\n\n{condition}\n",
        f"## Procedure\n\n{procedure}\n",
    ]
    if references is not None:
        parts.append(f"## References\n\n{references}\n")
    return "\n".join(parts)


TOPICS: Final = {
    "lesson-reply-first": _node(
        "Lesson",
        "Lead with the answer",
        3,
        "A reply is about to open with thanks, praise of the question or other social "
        "filler before the answer.",
        "1. Put the answer, or the first concrete step, in the first sentence.\n"
        "2. Keep any courtesy to one closing sentence.\n"
        "3. If the answer is unknown, say so first and then say what you will check.",
    ),
    "lesson-chinese-reply-language": _node(
        "Lesson",
        "中文提问用中文作答",
        2,
        "用户用中文提问（飞书或终端均可），而草稿回复是英文。",
        "1. 第一句用中文给出结论。\n"
        "2. 英文术语、命令和文件名保留原文，放在括号里。\n"
        "3. 用户切换回英文之前，整轮对话保持中文。",
    ),
    "groove-feishu-status-update": _node(
        "Groove",
        "Feishu status update for Alice",
        4,
        "Alice asks on Feishu for 进展 / status of a project (billing revamp, refund flow).",
        "1. Answer in Chinese with exactly three bullets: 已完成, 阻塞, 下一步.\n"
        "2. Each bullet one sentence; name the owner of any blocker.\n"
        "3. Link the tracking issue at the end, not inside the bullets.",
        "- [[alice-chen]]\n- Example thread: Feishu chat with Alice, 2025-12 billing review.",
    ),
    "groove-pr-review": _node(
        "Groove",
        "Pull request review",
        3,
        "The user asks for a review of a pull request or a diff.",
        "1. Check out the branch and run the test suite before reading the diff.\n"
        "2. Quote failing test names verbatim at the top of the review.\n"
        "3. Then comment on the diff, most severe finding first.",
        "- Test command: `make test` (falls back to `pytest -q`).",
    ),
    "lesson-confirm-destructive": _node(
        "Lesson",
        "Confirm before deleting",
        2,
        "A shell command or cleanup task would delete, overwrite or move files.",
        "1. Print the exact paths that would be affected (a dry run when the tool has one).\n"
        "2. Wait for an explicit yes from the user.\n"
        "3. Only then run the command, and report what was removed.",
    ),
    "groove-deploy-check": _node(
        "Groove",
        "发布前检查 staging",
        3,
        "用户要求部署或发布某个服务到生产环境。",
        "1. 查看 staging 的健康检查和最近一小时的错误率。\n"
        "2. staging 不健康时停止，并把失败的检查项告诉用户。\n"
        "3. staging 健康时再执行生产发布，并贴出发布记录链接。",
        "- Health dashboard: staging `/healthz` and the error-rate panel.",
    ),
    "lesson-timezone-restate": _node(
        "Lesson",
        "Restate meeting times in two zones",
        2,
        "A meeting or deadline time is given without a time zone.",
        "1. Restate the time in Asia/Shanghai and in UTC.\n"
        "2. Ask for confirmation when the two readings fall on different days.\n"
        "3. Book only after the zone is confirmed.",
    ),
    "groove-weekly-report": _node(
        "Groove",
        "周报整理",
        2,
        "用户要求整理本周周报。",
        "1. 按项目分组，每个项目下列出完成项和进行中的事项。\n"
        "2. 每条附上对应的 issue 链接。\n"
        "3. 最后单列下周计划。",
        "- Issue tracker: the team's billing and refund projects.",
    ),
    "lesson-design-doc-decisions": _node(
        "Lesson",
        "Open decisions first",
        1,
        "Alice (or another reviewer) shares a design doc and asks for a read.",
        "1. List the decisions the doc leaves open, each with the options it names.\n"
        "2. Then give a short summary of the rest.\n"
        "3. Point out decisions that block implementation.",
    ),
}

ENTITY_SLUG: Final = "alice-chen"

ENTITY: Final = """\
# Alice Chen

## What it is now

- Product lead for the billing revamp; writes to the agent on Feishu, in Chinese more often than in English. [observation]
- Owns the refund-flow design docs (refund-v1, refund-v2). [observation]

## Relationship / stance

- The agent supports her planning work: status updates, design doc reads and weekly reports. [observation]
- Answer her status questions in the three-bullet shape of [[groove-feishu-status-update]]. [instruction]

## Open variables

- Whether the billing revamp ships before the Lunar New Year release freeze. [conditional: release calendar published]

## Trend

- Request volume rising: about one Feishu thread a day, mostly status checks and design reads. [inference]
"""  # noqa: E501

ENTITY_EDIT_LINE: Final = (
    "- Whether refunds above 5,000 CNY need a second approver in the new flow. "
    "[hypothesis (unratified)]"
)


def entity_with_edit() -> str:
    """The entity dossier with one extra (reviewable, clean) open variable."""
    marker = "## Trend\n"
    head, tail = ENTITY.split(marker, 1)
    return head.rstrip("\n") + "\n" + ENTITY_EDIT_LINE + "\n\n" + marker + tail


def committed_files() -> dict[str, str]:
    """Kernel-relative path -> text of every demo file that goes into the genesis commit."""
    files = {"memory/CLAUDE.md": BOARD, f"memory/entities/{ENTITY_SLUG}.md": ENTITY}
    for slug, text in TOPICS.items():
        files[f"memory/topics/{slug}.md"] = text
    return files


def uncommitted_edits() -> dict[str, str]:
    """Kernel-relative path -> text written after genesis and left for the committer."""
    return {
        "memory/CLAUDE.md": board_with_rejects(),
        f"memory/entities/{ENTITY_SLUG}.md": entity_with_edit(),
    }
