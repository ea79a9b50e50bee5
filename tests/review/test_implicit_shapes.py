"""Board shapes whose situation or replacement is implicit: invented lines, never corpus
rows. Each shape comes with a near miss that keeps its old decision. They pin the written
rules (``review_rules``), not the precedent judge on top of them."""

from __future__ import annotations

import pytest

from shared.review.allowlist import FileKind
from shared.review.gates.base import ReviewContext
from shared.review.gates.registry import review_rules

BOARD = ReviewContext("memory/CLAUDE.md", FileKind.BOARD)

REPLACEMENTS = [
    # a when-clause naming what will do the job names the replacement
    ("Never write a manual loop when a list comprehension will do.", None),
    ("Don't add a dependency if the standard library suffices.", None),
    ("能用标准库解决时不要引入第三方依赖", None),
    ("Never add a dependency when it will do harm.", "summoning"),
    ("Don't add more tests if that suffices.", "summoning"),
    ("Never panic if patience will suffice.", "summoning"),
    ("Don't hand-roll retries when `tenacity` will do", None),
    ("不要引入第三方依赖", "summoning"),
    # a labelled Latin value in a Chinese line, then a prohibition: the value replaces it
    ("样式方案：Tailwind，不要写内联样式", None),
    ("沟通方式：直接，不要客套", "summoning"),
    ("沟通方式：Slack，不用邮件", None),
    ("沟通方式：Slack，不确定", "gradient"),
    ("语言偏好：English，不要用中文", "summoning"),
    ("心情：OK，别担心", "summoning"),
    # the way an artefact is had, stated in the line, replaces the forbidden way
    ("Secrets are loaded from Vault; never hard-code them.", None),
    ("Never hard-code secrets; they are loaded from Vault.", None),
    ("The database is slow; avoid full scans.", "summoning"),
    ("Avoid bugs; code is managed by the team.", "summoning"),
    ("由产品负责决策，不要越权", "summoning"),
    ("Avoid clutter, prefer simplicity", "summoning"),
    # the authoritative artefact, or the one that does the job, replaces the other way
    ("`openapi.yaml` is the source of truth; never hand-edit the generated client", None),
    ("`poetry` manages the virtualenv; don't call pip directly", None),
    ("The user manages the budget; never overspend", "summoning"),
    ("令牌从密钥管理服务读取，不要写进配置文件", None),
    ("从不处理，不要改", "summoning"),
    # a list item led by a verb of choosing ends the forbidden list; a named thing
    # allowed, or a restriction to one, replaces the forbidden one (a quality does not)
    ("Avoid class components, prefer function components", None),
    ("Never rename, move, or delete a migration", "summoning"),
    ("Avoid `var`; `let` is fine", None),
    ("Do not use tables in replies; bullet lists only", None),
    ("Avoid long functions; short ones only", "summoning"),
    ("Don't refactor; that is fine", "summoning"),
    # a paired direction: state X, do not invent Y
    ("明确指出不确定的数字，不编造数据", None),
    # a verb marked done (了) reports what happened once
    ("他指出了问题", "status-shape"),
]


@pytest.mark.parametrize(("text", "gate"), REPLACEMENTS)
def test_replacement_shapes(text: str, gate: str | None) -> None:
    finding = review_rules(text, BOARD)
    assert (finding.gate if finding else None) == gate, finding


CONVENTIONS = [
    # a present-tense convention of the code's shape: a generic artefact subject and a
    # relation verb agreeing with it, or a copula under a quantified subject
    ("Handlers return `Result<T, E>`", None),
    ("`domain/` depends on nothing outside the standard library", None),
    ("Tests mirror the `src/` layout", None),
    ("Every module has a docstring", None),
    ("Each page is a separate route under `app/`", None),
    # what a command or a tool does, a compound noun, a particular thing: descriptions
    ("`pnpm test` runs the whole suite", "gradient"),
    ("Database migrations run automatically", "gradient"),
    ("`git reset --hard` destroys uncommitted work", "gradient"),
    ("The API returns JSON", "gradient"),
    ("Each session starts fresh", "gradient"),
    ("Every bug is a lesson", "gradient"),
    # a relation unrestricted, with no code span, describes; a copula before a quality
    ("Clients call the API directly", "gradient"),
    ("Each module is well tested", "gradient"),
    ("Every page is responsive", "gradient"),
    ("All files are UTF-8", None),
]


@pytest.mark.parametrize(("text", "gate"), CONVENTIONS)
def test_present_tense_conventions(text: str, gate: str | None) -> None:
    finding = review_rules(text, BOARD)
    assert (finding.gate if finding else None) == gate, finding


VERBLESS = [
    # a reply noun in a convention: every reply is the situation, the scope the artefact
    ("Answers in Markdown with headings", None),
    ("Tasks in order", "gradient"),
    # a reduced passive arranging or formatting an artefact, or ordering by a key
    ("Imports sorted with isort", None),
    ("Open items listed first, then closed ones sorted by date.", None),
    ("Dates formatted as ISO 8601", None),
    ("Money formatted with `dinero.js`", None),
    ("Content organized in chapters for a logical reading flow", "gradient"),
    # a named style or a measure of one artefact
    ("NumPy style docstrings", None),
    ("camelCase variables", None),
    ("2-space indentation", None),
    ("Casual style replies", "gradient"),
    ("Modern style components", "gradient"),
    ("Python style code", "gradient"),
    ("PascalCase components", None),
    ("Docs written with care", "gradient"),
    ("Each team owns its services", "gradient"),
    ("Real-time collaboration", "gradient"),
    # a value under or from a named place, restricted by "only"; a bare "X over Y" is
    # left to the choice shape ("Prefer X over Y"): "Tests over docs" is a value
    ("Tests over docs", "gradient"),
    ("Composition over inheritance", "gradient"),
    ("Feature folders under `src/features/`", None),
    ("Logs under review", "gradient"),
    ("Files from the old repo", "gradient"),
    ("Code review with the team", "gradient"),
    ("Tasks sorted by priority", "gradient"),
    ("Functional components only", None),
    ("Good vibes only", "gradient"),
    # a convention with the alternatives it forbids, clause by clause
    ("No class components; function components only", None),
    ("Tokens via environment variables, never in code", None),
    ('Do not add "Signed-off-by: bot" in commit messages', "summoning"),
    ("Strict Kotlin, no `!!`", None),
    ("Small PRs, no big rewrites", "gradient"),
    ("Heavy models, no toys", "gradient"),
    ("Real-time updates, no polling", "gradient"),
    # a quantified value, a value "with" its part, a code span naming the artefact
    ("All dates in UTC", None),
    ("Code blocks with language tags", None),
    ("Panics only in `main`", None),
    ("All things in moderation", "gradient"),
    ("Issues with the parser", "gradient"),
    ("No comments in code unless asked", "gradient"),
    # more participles of shaping an artefact, and "default to"
    ("Public APIs documented with examples", None),
    ("Feature flags default to off", None),
    # "output" opening a line is as often the noun, so it is no imperative by itself
    ("Output varies by model", "gradient"),
    # a limit in words, after a bound word that only bounds
    ("At most three files per commit", None),
    ("Up to five people", "gradient"),
    ("Problems tested with care", "gradient"),
]


@pytest.mark.parametrize(("text", "gate"), VERBLESS)
def test_verbless_conventions(text: str, gate: str | None) -> None:
    finding = review_rules(text, BOARD)
    assert (finding.gate if finding else None) == gate, finding


CHINESE = [
    # one thing per other thing, when an artefact is named
    ("每个页面单独一个路由文件", None),
    ("每个人一个想法", "gradient"),
    ("每个人负责一个模块", "gradient"),
    ("每个文件一个想法", "gradient"),
    # a clause led by the means it uses, when the means is an artefact or a name
    ("通过环境变量配置密钥", None),
    ("借助 `zod` 校验输入", None),
    ("通过率很高", "gradient"),
    ("借助 AI 提高效率", "gradient"),
    ("通过 `pnpm` 管理依赖", None),
    ("组件文档定义在 `docs/`", None),
    # a limit written in numerals of words
    ("单个文件不超过三百行", None),
    ("不超过预期", "gradient"),
    ("单元测试覆盖率不低于 90%", None),
    # 输出 'output' is a verb of the reply, 只 before it restricts it
    ("只输出 YAML", None),
    ("输出很多", "gradient"),
    # declared or kept in a named file
    ("状态码定义在 `codes.ts`", None),
    ("Status codes declared in `codes.ts`", None),
    ("定义在前面的想法", "gradient"),
    ("通过审核的方案", "gradient"),
]


@pytest.mark.parametrize(("text", "gate"), CHINESE)
def test_chinese_conventions(text: str, gate: str | None) -> None:
    finding = review_rules(text, BOARD)
    assert (finding.gate if finding else None) == gate, finding


OBJECT_BELOW = [
    # a concrete verb ending the line on a colon takes the list below as its object,
    # as the Chinese "提交前执行：" already did
    ("Before opening a pull request, run:", None),
    ("提交前执行：", None),
    ("Before deploying, be careful:", "gradient"),
    ("Always check:", "gradient"),
    # a decorator or scoped name in a setting's convention segment
    ("**UI:** Structs for layout. `@Observable` classes for view models only.", None),
]


@pytest.mark.parametrize(("text", "gate"), OBJECT_BELOW)
def test_object_on_following_lines(text: str, gate: str | None) -> None:
    finding = review_rules(text, BOARD)
    assert (finding.gate if finding else None) == gate, finding


FALSE_REJECTS_28 = [
    # a bare 应 before 与 sets what the artefact is to match
    ("接口名应与 `routes.yaml` 的 `name` 一致", None),
    ("反应与预期一致", "gradient"),
    # a short note inside the line names the thing the word before it means
    ("优先使用结构化数据 (JSON Schema) 而非正则解析", None),
    ("优先使用结构化数据而非正则解析", "gradient"),
    ("优先使用结构化数据 (尽量) 而非正则解析", "gradient"),
    # a setting's label may hold a code span; a file path alone labels an index entry
    ("`/admin/**` routes: `SessionAuth` only, never API keys.", None),
    ("`docs/STYLE.md`: Style guides and best practices.", "gradient"),
    # a quality may lead an item when the setting pins its value in code or by what
    # it rules out
    ("Shell calls: explicit argument list, `shell=False`.", None),
    ("Shell calls: explicit and careful handling.", "gradient"),
    # a sentence after a rule that exhorts takes nothing from it; one that hedges does
    ("Formatter: black, unless told otherwise. Be consistent once chosen.", None),
    ("Formatter: black. Only where appropriate.", "gradient"),
    # after a prohibition, a vague direction is what the line asks instead
    ("Don't wait for approval. Just do it.", "gradient"),
    ("Never use Python 2 syntax. The codebase is restricted to Python 3.12.", None),
    # common re- verbs direct
    ("After any schema change, regenerate the client with `make client`", None),
    # a verbless "no X" leading the line forbids the thing its replacement stands in for
    ("No bare except clauses — catch `ValueError` or re-raise", None),
    ("No heavy analysis — keep it simple", "gradient"),
    ("Heavy analysis is slow — log or re-raise", "gradient"),
    # identifiers are not past-tense verbs
    ("**建表**：包含 `created_at` 和 `updated_at` 字段。", None),
    ("**建表**：updated the columns yesterday.", "status-shape"),
    # what the work is restricted to names what to use
    ("Never use Python 2 syntax. The codebase is restricted to Python 3.12.", None),
    ("Never use Python 2 syntax.", "summoning"),
    # 本/此 'this' only where it is its own word: 文本文件 is a text file, 脚本文件 a script
    # file, 基本规则 the basic rules, 因此 'therefore'
    ("改文本文件时只用编辑器工具，脚本只做只读检查", None),
    ("脚本文件统一放在 `scripts/` 下", None),
    ("因此文件名统一用小写加连字符", None),
    ("基本规则：提交前运行 `make test`", None),
    ("修改本文件时保持原有格式", "self-reference"),
    ("新对话进入仓库后，优先阅读本文件。", "self-reference"),
    ("每次会话开始先读该文件", "self-reference"),
    ("此文件记录项目约定", "self-reference"),
]


ROUND_28_READINGS = [
    # what the project uses is what to use instead of what the line forbids
    ("Never use `yarn`; this repo uses `pnpm` exclusively.", None),
    ("不要用 npm，本项目统一使用 pnpm", None),
    ("Never use `yarn`; this repo is large.", "summoning"),
    # after a situation naming a thing, a concrete verb on "it" acts on that thing
    ("If you spot a flaky test, report it - don't skip it.", None),
    ("If you spot a flaky test, handle it - don't skip it.", "summoning"),
    # the means named after an unnamed standard say how to meet it
    ("Implement proper error handling with custom exception classes.", None),
    ("Implement proper error handling with care.", "gradient"),
    ("If the spec is vague, refine it in the ticket before coding.", None),
    # what every artefact of a kind extends is the convention
    ("所有服务类继承 `BaseService`", None),
    # a change reported done closing a Chinese line; one that goes on to its rule stays
    ("旧的 `utils/legacy.ts` 已删除。", "status-shape"),
    ("`String.format()` 已移除，需用字符串插值替代", None),
    # an attributive participle narrates nothing
    (
        "Reminder emails follow the signup date, not fixed weekdays: send the first after 3 days.",
        None,
    ),
    ("Reminder emails fixed the signup bug. Send them after 3 days.", "status-shape"),
    # a quality asked of a bare artefact, in more words
    ("Keep modules small and single-responsibility", "gradient"),
    ("Keep modules under 300 lines", None),
    ("Generate clean, concise code.", "gradient"),
    ("Generate clients with `make client`.", None),
    # the skills beside the rule files are tools, not memory
    ("Before writing a migration, read `.claude/skills/db/SKILL.md`", None),
    ("Keep `.claude/CLAUDE.md` short", "self-reference"),
]


DOSSIER = ReviewContext("memory/entities/tooling.md", FileKind.DOSSIER)


@pytest.mark.parametrize(
    ("text", "gate"),
    [
        ("Development server", "dossier"),
        ("Required system libraries", "dossier"),
        ("Docker deployment", None),
        ("Node 20 runtime", None),
    ],
)
def test_a_bare_name_of_a_setup_part_is_a_dossier_placeholder(text: str, gate: str | None) -> None:
    finding = review_rules(text, DOSSIER)
    assert (finding.gate if finding else None) == gate, finding


ROUND_29_READINGS = [
    # a demonstrative after a file the line names is that file, not the memory file
    ("Read `docs/api.md` before changing routes; this file lists every endpoint.", None),
    ("读取 `schema.json` 文件，该文件定义了所有字段", None),
    ("每次会话开始先读取 `MEMORY.md`，该文件记录了偏好", "self-reference"),
    # a present state in the first sentence only, before a rule with a situation of its own
    ("本项目已接入 Sentry。上线前，先在 `sentry.yaml` 配置告警规则", None),
    ("本项目已接入 Sentry。", "status-shape"),
    # a present passive narrates nothing; a past tense does
    ("Config keys are used when loading plugins. Use `cfg.get(key)`.", None),
    ("Fixed the loader. Use `cfg.get(key)`.", "status-shape"),
    # a role given to the agent directs nothing; one for a situation of its own is a rule
    ("你是一名资深前端工程师，负责代码评审", "gradient"),
    ("当用户问到部署时，你是运维顾问，先给出检查清单", None),
    # a tone of qualities is a quality; one named for a situation is a choice
    ("保持礼貌、专业的语气", "gradient"),
    ("回复客户时用正式的语气", None),
]


# The readings of one session's rounds, grouped by the round whose misses they came from.
SESSION_READINGS = {
    "false_rejects_tune": FALSE_REJECTS_28,
    "round_28": ROUND_28_READINGS,
    "round_29": ROUND_29_READINGS,
}


@pytest.mark.parametrize(
    ("text", "gate"),
    [pair for group in SESSION_READINGS.values() for pair in group],
    ids=[f"{name}-{i}" for name, group in SESSION_READINGS.items() for i in range(len(group))],
)
def test_session_reading(text: str, gate: str | None) -> None:
    finding = review_rules(text, BOARD)
    assert (finding.gate if finding else None) == gate, finding
