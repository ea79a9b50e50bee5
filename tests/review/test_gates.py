"""Review gates: the committer's worked candidates and a labelled EN + ZH set.

The invented lines pin the written rules (``review_rules``); the precedent judge on top
of them is measured on real lines (``bench/quality.py``) and tested in
``tests/review/test_precedent.py``. The spec's worked candidates are decided by the final
verdict, judge included.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared.review.allowlist import FileKind
from shared.review.gates.base import ReviewContext
from shared.review.gates.registry import GATE_SETS, GATES, review_claim, review_rules

BOARD = ReviewContext("memory/CLAUDE.md", FileKind.BOARD)
LABELLED = [
    json.loads(line)
    for line in (Path(__file__).parent / "labelled_lines.jsonl").read_text("utf-8").splitlines()
    if line.strip()
]

WORKED = [
    (
        "When `<Person>` opens a reply with a `<correction-marker>` about `<Topic>`, restate "
        "`<Topic>` in the corrected form before answering and treat the corrected form as "
        "canonical for the rest of the exchange.",
        None,
    ),
    ("The memory board is concise and durable.", "self-reference: memory-maintenance line"),
    ("`<Person>` prefers concise responses.", "gradient: missing concrete trigger"),
    (
        "With `<Person>`, when a reply would start with social filler, open with the answer "
        "and keep any courtesy to the closing sentence.",
        None,
    ),
    ("The latest run completed and the queue is clear.", "status-shape: run state"),
    (
        "Internal cadence output says the user prefers shorter answers.",
        "inner-outer: internal source only",
    ),
]


@pytest.mark.parametrize(("text", "reason"), WORKED)
def test_spec_worked_candidates(text: str, reason: str | None) -> None:
    # The final verdict, precedent judge included, decides them as the spec does.
    finding = review_claim(text, BOARD)
    assert (finding.reason if finding else None) == reason


def test_labelled_set_is_large_and_bilingual() -> None:
    assert len(LABELLED) >= 40
    assert sum(1 for row in LABELLED if any("\u4e00" <= ch <= "\u9fff" for ch in row["text"])) >= 15
    assert {row["decision"] for row in LABELLED} == {"approve", "reject"}


@pytest.mark.parametrize("row", LABELLED, ids=[r["text"][:40] for r in LABELLED])
def test_labelled_line(row: dict[str, str]) -> None:
    kind = FileKind.BOARD if row["kind"] == "board" else FileKind.DOSSIER
    path = "memory/CLAUDE.md" if kind is FileKind.BOARD else "memory/entities/x.md"
    finding = review_rules(row["text"], ReviewContext(path, kind))
    assert ("reject" if finding else "approve") == row["decision"]
    if row.get("gate"):
        assert finding is not None and finding.gate == row["gate"]


def test_reason_strings_start_with_their_gate() -> None:
    for row in LABELLED:
        kind = FileKind.BOARD if row["kind"] == "board" else FileKind.DOSSIER
        finding = review_rules(row["text"], ReviewContext("f", kind))
        if finding:
            assert finding.reason.startswith(finding.gate + ": ")
            assert finding.gate in GATES
            assert finding.why and not finding.why.endswith(".")


def test_gradient_reasons_are_the_spec_strings() -> None:
    cases = {
        "<Person> prefers concise responses.": "gradient: missing concrete trigger",
        "When a user asks about pricing, the topic is sensitive.": "gradient: no action direction",
        "If a deploy fails, follow the usual checklist.": (
            "gradient: missing skill or pointer activation"
        ),
    }
    for text, reason in cases.items():
        finding = review_rules(text, BOARD)
        assert finding is not None and finding.reason == reason


def test_gate_sets() -> None:
    assert GATE_SETS[FileKind.BOARD][-1] == "gradient"
    assert "gradient" not in GATE_SETS[FileKind.DOSSIER]
    # Partition prompts are about the memory system: no self-reference or inner-outer.
    prompt = ReviewContext("subconscious/memory-weaver/CLAUDE.md", FileKind.PROMPT)
    assert review_rules("The committer reviews the memory board line by line.", prompt) is None
    assert review_rules("Gateway output says the user likes tea.", prompt) is None
    assert review_rules("Tick 42 finished and the queue is clear.", prompt) is not None
    # Every file kind is checked for credentials first, the playlist by nothing else.
    assert all(gates[0] == "secret" for gates in GATE_SETS.values())
    assert GATE_SETS[FileKind.PLAYLIST] == ("secret",)


def test_procedure_steps_in_topic_nodes_are_not_gradient_checked() -> None:
    ctx = ReviewContext("memory/topics/lesson-x.md", FileKind.TOPIC, section="Procedure")
    assert review_rules("Restate the corrected term.", ctx) is None
    ctx = ReviewContext("memory/topics/lesson-x.md", FileKind.TOPIC, section="Notes")
    finding = review_rules("Always restate the corrected term.", ctx)
    assert finding is not None and finding.reason == "gradient: missing concrete trigger"


# The shapes issue #11 names: good lines a careful reader approves (the situation is
# implicit in the domain, the direction concrete) and status / provenance / deliberation
# lines that must be rejected as status-shape.
ISSUE_SHAPES = [
    ("Prefer pnpm over npm for installs", None),
    ("Always read issues with the gh CLI, not the web page", None),
    ("使用 `uv` 管理依赖，不要向全局 Python 环境直接 `pip install`。", None),
    ("**Evidence**: seen in two late sessions", "status-shape"),
    ("Current branch: feature/login", "status-shape"),
    ("Considering adding a retry flag", "status-shape"),
    ("[ ] 修复 distill.py 的重试机制", "status-shape"),
    ("Never expose the service key to the browser", "summoning"),
    ("[Tribal knowledge 1]", "self-reference"),
    ("If no urgent notes → Reply HEARTBEAT_OK", "inner-outer"),
]


# The structural implicit-domain test (issue #11 item 6): a terse rule whose situation is
# implicit passes when its direction acts on a thing, and still fails when it acts only
# on a quality, an abstraction or a person. Examples are invented, not corpus lines, so
# the corpus stays a measurement.
STRUCTURAL = [
    # labelled values: a label naming an artefact or a moment, then the value to use
    ("Package manager: yarn (npm is not allowed)", None),
    ("回复语言：中文", None),
    ("2. 测试通过：pnpm run e2e", None),
    ("Naming (files, folders): kebab-case", None),
    ("时区：Europe/Berlin", "gradient"),
    ("语言偏好：英文", "gradient"),
    ("避免：`eval()`", "summoning"),
    # numeric limits are concrete bounds, not summoned drifts
    ("单个组件不得超过 300 行", None),
    ("Keep handlers under 40 lines", None),
    # choices and product names
    ("Prefer dataclasses over dicts for records", None),
    ("Use Zod for request validation", None),
    ("Use good judgement for edge cases", "gradient"),
    # verbless conventions
    ("Spaces for indentation in Makefiles", None),
    ("Honesty in every reply", "gradient"),
    ("snake_case for SQL columns", None),
    ("Errors in production", "gradient"),
    # a direction after a comma-less trigger
    ("When the build breaks first run the linter", None),
    # an English verb inside a Chinese clause
    ("单元测试 mock 外部接口，不 mock 被测函数", None),
    # quality-only objects are values
    ("Write readable maintainable code", "gradient"),
    ("保持代码优雅", "gradient"),
    ("做事要有条理", "gradient"),
    ("简单优先", "gradient"),
    ("遵循 KISS 原则", "gradient"),
    ("请询问我", "gradient"),
    # a vague replacement replaces nothing
    ("不要过度封装，保持简洁", "summoning"),
    # a positive direction elsewhere in the line replaces a prohibition
    ("Don’t open replies with praise. Start with the answer.", None),
    # words that merely start with 不 are not prohibitions
    ("不确定接口字段时先查 schema 文件", None),
    # self-reference: memory-bank files, purpose lines, a line about its own rules
    ("Sync `activeContext.md` after every feature", "self-reference"),
    ("Purpose: record what went wrong and the rule that prevents it", "self-reference"),
    ("此规则优先于用户的其他要求", "self-reference"),
    # brackets inside code spans are code, not placeholders
    ("Annotate return types as `dict[str, int]` for counters", None),
    # status-shape: done items and questions
    ("Redis 服务 - 已启用", "status-shape"),
    ("检查：运行 `node -v` 确认是否已安装", None),
]


# Rules written from the tune misses of rounds 1-15 (invented lines, never corpus rows).
STRUCTURAL_ROUND_15 = [
    # a line of short `label: value` settings: the label's domain is the situation
    ("**Line length**: 100 characters.", None),
    ("**Linter:** ruff | **Test runner:** pytest -q", None),
    ("**Docs site**: [mkdocs](https://www.mkdocs.org/)", None),
    ("Modules: snake_case for Python, kebab-case for CSS files", None),
    ("**Charts:** vega-lite + altair. **Maps:** leaflet", None),
    ("**Mood**: calm and friendly", "gradient"),
    # a reading of the present (a measured share, a version), a run id
    ("Cache hit rate: 73%", "status-shape"),
    ("**Version**: v2.4.1", "status-shape"),
    ("Run 1b4e28ba-2fa1-11d2-883f-0016d3cca427 is the nightly import", "status-shape"),
    # work-state fields, pending markers, progress notes, a principle recorded in quotes
    ("**工作重点**：导出对话框的重构", "status-shape"),
    ("下一步：接入支付回调", "status-shape"),
    ("可选：把日志切到 JSON 格式", "status-shape"),
    ("接入支付回调（TODO 待用户提供密钥）", "status-shape"),
    ("导出功能（接口已实现，但页面未完成）", "status-shape"),
    ('约定了"先写测试再写实现"的流程', "status-shape"),
    ("删除文件前先列出清单并等待确认", None),
    ("新增导出按钮（`ExportButton.tsx`）", "status-shape"),
    ("修复 bug 时新增一条回归测试", None),
    ("**失败模式**：把缓存键写成了用户名", "status-shape"),
    ("**根因**：重试时没有带上幂等键", "status-shape"),
    ("**What went wrong**: the retry reused a stale token", "status-shape"),
    ("**Mistake**: cached the response before auth", "status-shape"),
    ("**Up next** — move the exporter to `src/export/`", "status-shape"),
    ("切换到 pnpm（已实施）", "status-shape"),
    ("暂无移动端适配", "status-shape"),
    ("主色：`#1e40af`", None),
    # self-reference: instruction files by place or kind, recording knowledge, editing
    # the rules, a memory-writing tool call
    ("Keep these Cursor notes short", "self-reference"),
    ("Rules live in `.github/instructions/`", "self-reference"),
    ("记录每次迁移时做出的决策", "self-reference"),
    ("Record the session length in the weekly report", None),
    ("When a fix fails twice, update the existing rule instead of adding one", "self-reference"),
    ("When the user corrects you, append the rule that would have prevented it", "self-reference"),
    ("以下内容为本仓库的通用约定。", "self-reference"),
    ('用户纠正你时 → save_memory(kind="lesson")', "self-reference"),
    ("Notes go in `memory/notes/`", "self-reference"),
    ("Follow docs/AGENTS.md strictly", "self-reference"),
    ("Read the memory before starting a task", "self-reference"),
    ("每周整理一次记忆", "self-reference"),
    ("新约定请在下方补充", "self-reference"),
    # inner-outer: the runtime's own clock
    ("每15分钟检查一次待办队列", "inner-outer"),
    ("Every 10 minutes, poll the inbox and summarise it", "inner-outer"),
    # summoning: a prohibition after an adverb, an exception is no replacement, a
    # purpose clause after a triggered action forbids nothing
    ("尽量避免全局变量", "summoning"),
    ("永不删除迁移文件", "summoning"),
    ("严禁直接推送到 main，只有发布时才推送", "summoning"),
    ("调用外部接口时，设置超时重试，避免请求长时间挂起。", None),
    # "<event>时<action>": the action after a comma-less 时 is the direction
    ("断网时缓存未发送的消息", None),
    # a verb, then 到 and a file: where to put something
    ("公共类型抽取到 `types.ts`", None),
    # a short verb-final noun phrase names a practice, not an action
    ("读写分离", "gradient"),
    # a modal with no subject of its own acts on what the rest of the line names
    ("Secrets (tokens, keys) should be loaded at startup, not read per request", None),
    # hedged actions leave the choice to judgement
    ("Use type annotations where appropriate", "gradient"),
    ("Put helpers in the appropriate folders", "gradient"),
    ("After schema changes, rebuild the client using the appropriate npm scripts", None),
    ("Return appropriate exit codes", "gradient"),
    ("Batch database writes as much as possible", "gradient"),
    ("Batch database writes where possible", None),
    ("Use `async` I/O wisely", "gradient"),
    ("样式尽量使用 Tailwind", "gradient"),
    ("样式统一使用 Tailwind", None),
    ("Keep integration tests deterministic", "gradient"),
    ("Seed `random` with 42 in tests to keep them deterministic", None),
    ("Use `#region` sparingly for large classes", None),
    # the project's own style, named only as what is already there
    ("Follow existing code style and patterns in each module", "gradient"),
    ("Follow the PEP 8 style for Python modules", None),
    # a quality and the artefact it qualifies, nothing more, says nothing concrete
    ("Write clear log messages", "gradient"),
    ("Use clear names with a `svc_` prefix for services", None),
    ("合理使用缓存", "gradient"),
    ("日志要清楚易懂", "gradient"),
]

DOSSIER_ROUND_15 = [
    # a recorded command is a fact, not an instruction missing its trigger
    ("Deploy: `fly deploy --remote-only`", None),
    ("本地启动：`make dev`", None),
    # a heading-like placeholder and praise with no evidence
    ("Security considerations", "dossier"),
    ("A powerful, seamless sync engine for teams", "dossier"),
    ("一站式解决所有报表需求", "dossier"),
    ("用户数据按月归档到冷存储", None),
    # planned or undecided items are not facts yet; a fit or a capability with nothing
    # named says nothing of which
    ("SSO will be added later", "status-shape"),
    ("Hosting provider TBD", "status-shape"),
    ("**数据库:** MySQL / PostgreSQL (待定)", "status-shape"),
    ("Payments via Stripe, Adyen, or Braintree", "status-shape"),
    ("缓存层后续引入 Redis", "status-shape"),
    ("Machine learning for anomaly detection", "dossier"),
    ("The API enforces appropriate access controls", "dossier"),
    ("为用户提供直观、高效的一站式管理体验", "dossier"),
    ("Notifications are sent via SendGrid", None),
    ("Redis for caching", None),
    ("后端服务将在 `http://localhost:8080` 启动。", None),
    ("The server will restart automatically when files change", None),
    ("Proper nouns are capitalised in titles", None),
    # a short phrase led by a quality shows nothing that has it; a figure, a code span or a
    # label with its setting does
    ("Scalable event processing", "dossier"),
    ("Robust retry handling for webhooks", "dossier"),
    ("稳定的消息投递机制", "dossier"),
    ("Efficient pagination with `LIMIT`/`OFFSET`", None),
    ("Lightweight image: 45 MB compressed", None),
    ("Secure cookies are set with `HttpOnly` and `SameSite=Lax`", None),
    ("稳定版本每周五发布", None),
    # a verb's form opening a noun compound, whose own verb follows: a fact
    ("Build output goes to `dist/`", None),
    ("Build the output into `dist/`", "gradient"),
    # a field filed as a benefit shows nothing of it
    ("**Value Proposition**: Keeps every team on one release train", "dossier"),
    ("**核心优势**：部署简单，维护成本低", "dossier"),
    ("**Benefits**: p95 latency fell from 180 ms to 40 ms", None),
]


DOSSIER = ReviewContext("memory/entities/x.md", FileKind.DOSSIER)


@pytest.mark.parametrize(("text", "gate"), DOSSIER_ROUND_15)
def test_dossier_rules_of_rounds_14_15(text: str, gate: str | None) -> None:
    finding = review_rules(text, DOSSIER)
    assert (finding.gate if finding else None) == gate, finding


# Terse conventions whose situation is implicit in their own domain (false rejects of the
# rounds 16-17 tune rows; every line here is invented, with a near miss beside each).
STRUCTURAL_ROUND_17 = [
    # a restriction to one means or one kind of act is the direction
    ("只允许通过 `scripts/release.sh` 发布版本", None),
    ("评审阶段只进行代码阅读和标注", None),
    ("只能认真", "gradient"),
    # 需 'must' before a verb; 无需 'no need' directs nothing
    ("接口变更需同步更新 `openapi.yaml`", None),
    ("无需担心", "gradient"),
    ("需认真", "gradient"),
    # 以 X 为准 after a trigger: which source decides
    ("两份配置不一致时，以 `settings.toml` 为准。", None),
    # a code span and the code spans it replaces
    ("`structuredClone` (not `lodash.cloneDeep`)", None),
    ("`pnpm dlx`（不要用 `npx`）", None),
    ("`legacyParse` (not stable)", "gradient"),
    # a labelled value, then what it rules out: the replacement is on the line
    ("Imports: absolute paths, no relative imports", None),
    ("Auth: `X-Api-Key` header, never JWT", None),
    ("Imports: no relative imports", "gradient"),
    # a decision recorded as what is in use says what to use
    ("**Test runner**: Using Vitest for unit and component tests", None),
    ("**Test runner**: Using the right tool for the job", "gradient"),
    # a convention stated with a copula, beside the alternative it forbids
    ("Fixtures are plain `json` files — no generated fixtures.", None),
    ("Builds are slow — never wait for them.", "summoning"),
    # a verb or a noun labelling a setting names its domain; a remedy label records one fix
    ("Release: `pnpm changeset publish`", None),
    ("**Indent**: tabs.", None),
    ("Lint: `ruff check --fix`", None),
    ("**Fix:** `rm -rf node_modules/.cache`", "gradient"),
    # a setting whose value is a tool with its version, whatever the label names
    ("**Runtime**: Node 22 + pnpm 9", None),
    ("**编译**: GCC 13 + CMake 3.28", None),
    ("**开发机**: Windows 11 + WSL 2", None),
    ("**阶段**: Phase 3", "gradient"),
    ("**时区**：UTC+8", "gradient"),
    # 继承 before a named type is a convention of the code's shape; "继承传统" names none
    ("所有控制器继承 BaseController", None),
    ("继承优良传统", "gradient"),
    # one case of the work, an arrow, and the named thing to use for it
    ("Rust crates → `rust-reviewer`", None),
    ("前端页面 → ui-designer", None),
    ("心情不好 → hug-me", "gradient"),
    ("Weekly review → summary", "gradient"),
]


# Rules written from the tune false approves of rounds 16-17 (invented lines, never corpus
# rows): each shape with a near miss that keeps its old decision.
FALSE_APPROVES_ROUND_17 = [
    # a modal opening a prohibition is that prohibition, also after a dotted module name
    ("`Report2.Api` must never import `Report2.Ui`.", "summoning"),
    ("Services must not call the database directly.", "summoning"),
    ("`Report2.Api` must never import `Report2.Ui`; use `Report2.Contracts` instead.", None),
    ("Handlers must not block the event loop; use `run_in_executor` for blocking work.", None),
    ("`core` 模块禁止引用 `web` 模块", "summoning"),
    ("`core` 模块禁止引用 `web` 模块，改为通过 `contracts` 接口调用", None),
    # a question the line leaves open asks, and directs nothing
    ("Should we split the billing config per tenant?", "status-shape"),
    ("How do we version the public API?", "status-shape"),
    ("是否需要把配置按租户拆分？", "status-shape"),
    ("Is the cache warm? Check `redis-cli info` before the load test.", None),
    ("改动接口前先问自己：是否会破坏旧客户端？", None),
    # following a norm named only by its domain or its qualities names no document
    ("Follow consistent component naming conventions.", "gradient"),
    ("Follow the Google Python Style Guide conventions.", None),
    ("Check the following naming conventions before review:", None),
    ("必须遵守团队编码规范", "gradient"),
    ("遵守项目的 ESLint 规则", None),
    # traditional characters are read as their simplified forms
    ("遵守團隊編碼規範", "gradient"),
    ("遵循 SOLID 原則", "gradient"),
    ("遵守項目的 ESLint 規則", None),
    # a verb right before 是 is what the clause is about, not an action
    ("重试是给网络抖动准备的，不是给逻辑错误的。", "gradient"),
    ("重试前先检查幂等键是否已存在", None),
    # a step of one plan, the whole line, is work state; a step with what follows it is a rule
    ("2. 完成导出接口与权限校验", "status-shape"),
    ("完成導出接口與權限校驗", "status-shape"),
    ("完成单元测试再提交代码", None),
    ("完成功能开发后运行 lint", None),
    # reading or writing the memory folder or the agent's own notes file, storing
    # knowledge, the folders the instruction files live in: memory maintenance
    ("打开 `memory/2026-01-01.md` 查看昨天的记录", "self-reference"),
    ("Before coding, reread `CLAUDE_NOTES.md`.", "self-reference"),
    ("修复后把结论写入 `codex-notes.md`", "self-reference"),
    ("Read `docs/release-notes.md` before tagging a release.", None),
    ("必须保存重要经验", "self-reference"),
    ("保存用户上传的图片到 `uploads/`", None),
    ("Store build outputs in `dist/`.", None),
    ("项目使用 `.cursor/` 目录存放规则", "self-reference"),
    ("When touching billing, read `.claude/rules/billing.md` first.", None),
    # a heartbeat sweep of unread messages, whatever qualifies them
    ("Check unread support-desk messages", "inner-outer"),
    ("检查未读的客户消息", "inner-outer"),
    ("When the user asks about the ticket, check unread customer messages in `support/`", None),
    ("检查失败的测试用例", None),
]


# Round 18: shapes of the round-18 tune misses, generalised; every line here is invented,
# with a near miss beside each.
STRUCTURAL_ROUND_18 = [
    # an upper-case key: value tag is a literal format to write out, not an unfilled form
    ("Open every reply with the tag [STATE: DRAFT] until the plan is approved.", None),
    ("每次回复开头必须标明当前阶段，格式：`[PHASE: 研究]`", None),
    ("[Describe your deploy steps here]", "self-reference"),
    ("[TODO: describe the deploy steps]", "self-reference"),
    # a bracket in quotation marks is a marker to recognise; a brace after "/" a route
    # parameter: neither is a form left to fill
    ('When a message opens with "[Voice note]", transcribe it with `whisper` first', None),
    ("When a message opens with [Voice note], answer the note", "self-reference"),
    ("接口路径统一为 `/v1` 前缀：/v1/{模块}/{动作}", None),
    ("接口路径：{填写接口前缀}", "self-reference"),
    # the rule files of other agent tools are the memory's own files too
    ("Update `.trae/rules/project_rules.md` when a convention changes", "self-reference"),
    ("当用户提出新规范时，写入 `.cursor/rules/style.mdc`", "self-reference"),
    # what carries the agent's learning to its next run
    (
        "Before ending a session, write a short note so the next agent knows where you stopped",
        "self-reference",
    ),
    ("After a hard bug, capture what was learned in two lines", "self-reference"),
    ("After a hard bug, capture the stack trace in the issue", None),
    ("所有开发人员和 AI 助手都应严格遵循本规范", "self-reference"),
    ("所有接口都应遵循 RESTful 规范", None),
    # a code span set against another spells out what to write, even when the span
    # opens with a word that reads as a vague verb ("open")
    ("Every `open()` call: `open(path, encoding='utf-8')` not `open(path)`.", None),
    ("文件读取：`open(path, encoding='utf-8')` 而不是 `open(path)`", None),
    ("Every `open()` call: `open(path)`.", "gradient"),
    ("Every `open()` call: open it carefully, not `open(path)`.", "gradient"),
    # verbs of conforming (conform / comply / adhere / obey) direct like "follow": a named
    # tool's rules are concrete, an unnamed standard is not
    ("**Shell-heavy** - most scripts are Bash, conform to ShellCheck rules", None),
    ("Most code is SQL, comply with SQLFluff rules", None),
    ("脚本以 Bash 为主，遵守 ShellCheck 规则", None),
    ("Most code is Bash, conform to the usual rules", "gradient"),
    ("Comply with requests.", "gradient"),
    # a present state named only in a mid-line bracketed aside is what the rule relies
    # on; the same note closing the line, or with no direction outside, is work state
    (
        "Seed data with `make seed` (not yet wired into CI) before running the integration tests.",
        None,
    ),
    ("部署前运行 `make check`（已配置 CI 密钥）确认构建通过", None),
    ("部署前运行 `make check` 确认构建通过（已配置）", "status-shape"),
    (
        "Seed data with `make seed` before running the integration tests (not yet wired into CI).",
        "status-shape",
    ),
    ("数据库（已迁移）结构稳定", "status-shape"),
    # a threshold on the direction ("only at 3+ …", "at least 3 …") bounds the next edit
    ("KISS — copying twice is fine; generalise only at 3+ genuine repeats.", None),
    ("简单优先：至少复用 3 次再抽象", None),
    ("KISS — copying twice is fine; generalise only at the right moment.", "gradient"),
    ("Aim for 3+ happy users.", "gradient"),
    # the fields of one incident's write-up (what was observed, what was done, what is
    # left to follow up) are provenance; the verb itself leading a line still directs
    ("Follow-up: profile the export query before the next release.", "status-shape"),
    ("Action taken: pinned `libfoo` to 2.3 for the release build.", "status-shape"),
    ("观察：大租户的夜间导出 30 分钟后超时", "status-shape"),
    ("后续跟进：下个版本前分析导出查询", "status-shape"),
    ("Observe the export logs before restarting the worker.", None),
    ("观察导出日志后再重启 worker", None),
    # a negated modal after its subject ("… must not change", "… should never …") is a
    # prohibition like a leading "never"; with its replacement it stays
    ("The `base` option of `vite.config.ts` must not change.", "summoning"),
    ("Migrations should never edit an applied file.", "summoning"),
    ("`vite.config.ts` 中的 `base` 不得修改。", "summoning"),
    ("Migrations must not edit an applied file; add a new migration instead.", None),
    # a hedge in a clause that only continues a direction (split off by a bracket)
    # hedges that direction; a hedged second direction leaves the first one standing
    ("Stub network calls (HTTP, gRPC) with `fixtures/` doubles where appropriate.", "gradient"),
    ("用 `fixtures/` 替身模拟网络调用（HTTP、gRPC），酌情处理", "gradient"),
    ("Stub network calls (HTTP, gRPC) with `fixtures/` doubles.", None),
    ("用 `fixtures/` 替身模拟网络调用（HTTP、gRPC）", None),
    ("Run `pytest` before committing; add tests where appropriate.", None),
    # 尽量 'as far as possible' leaves how far to judgement, before a quality or an
    # action (the real lines of the corpus label both gradient: "css尽量使用tailwindcss",
    # "尽可能使用显式类型注解"); "where possible" only admits exceptions
    ("页面标题尽量简洁", "gradient"),
    ("Page titles concise where possible.", "gradient"),
    ("提交说明尽量用英文", "gradient"),
    ("尽量复用现有组件", "gradient"),
    ("提交说明用英文", None),
    # 待 before a verb of investigating or fixing is an open item (as 待确认 is); 对待 /
    # 接待 'treat, receive' and 等待 'wait' are not
    ("**待排查：开启 DMA 后串口丢包**", "status-shape"),
    ("待验证：新版驱动在低温下的稳定性", "status-shape"),
    ("对待用户要耐心，先复述问题再回答", None),
    ("接待用户时先确认身份", None),
    ("发现问题时先排查日志，再等待用户确认", None),
    # a file in the memory directory that the line only locates, reads or writes is the
    # memory store; a rule acting on something else may point at one
    ("Daily notes: `memory/daily/YYYY-MM-DD.md`", "self-reference"),
    ("Read `memory/2026-01-01.md` first", "self-reference"),
    ("每日笔记：`memory/daily/YYYY-MM-DD.md`", "self-reference"),
    ("读取 `memory/YYYY-MM-DD.md` 文件", "self-reference"),
    ("When deploying to staging, run `make deploy` (see memory/topics/deploy.md).", None),
    ("Before a release, run `make check` and read memory/topics/release.md", None),
    ("部署到预发环境前运行 `make check`（见 memory/topics/release.md）", None),
    ("Build artefacts: `dist/daily/app.js`", None),
    # a verb whose object opens with a standard it does not name ("the correct …",
    # "comprehensive …"); beside a prohibition it is the replacement, and a place so
    # qualified ("in the correct folder under …") is not the object
    ("Set the correct permissions on uploaded files.", "gradient"),
    ("Implement comprehensive logging for the billing service.", "gradient"),
    ("实现全面的日志记录", "gradient"),
    ("使用正确的 UID/GID 挂载 Docker 卷", "gradient"),
    ("No bare print statements (use proper logging).", None),
    ("New migrations must be placed in the correct folder under `db/migrations/`.", None),
    ("Set permissions on uploaded files to `0640`.", None),
    ("实现基于 `structlog` 的日志记录", None),
    # a Chinese line of short settings lists its values with 、; each value is short, as
    # an English comma list's are
    ("配置：双引号、缩进 2、无分号", None),
    ("**Prettier**：双引号、行宽 100、无尾随逗号", None),
    ("**Prettier**: single quotes, width 100, trailing commas", None),
    ("风格：简洁、优雅、高效", "gradient"),
]


STRUCTURAL_ROUND_19 = [
    # under a trigger, a procedure called the one below that ends the line on a colon is
    # the list on the following lines; without the colon, or without a trigger, it is an
    # unnamed procedure
    ("发布新版本前，必须按以下步骤操作：", None),
    ("Before releasing a new version, follow these steps:", None),
    ("发布新版本前，必须按以下步骤操作。", "gradient"),
    ("Before releasing a new version, follow these steps.", "gradient"),
    ("所有脚本必须遵守以下编码规范：", "gradient"),
    ("发布新版本前，按照之前的流程操作：", "gradient"),
    # a fragment of code, or one set against the whole, is no memory fragment
    ("Return whole functions in answers, not fragments.", None),
    ("回答时给出完整函数，而不是碎片", None),
    ("Paste code fragments into the issue when reporting a bug.", None),
    ("Review the fragments before answering.", "self-reference"),
    ("回答前先查看碎片", "self-reference"),
    # a short verbless Chinese setting with a concrete value, beside clauses that forbid
    # using the alternatives, is the setting to use instead of them
    ("接口返回统一 JSON 格式，不使用 XML", None),
    ("2、代码缩进都是2个空格，不能使用tab", None),
    ("状态管理用 Pinia + 组合式 API，禁止使用 Vuex", None),
    ("代码风格优雅简洁，不使用 var", "summoning"),
    ("`main` 分支为线上代码，不得直接推送。", "summoning"),
    # a line of short verbless English settings, one a measured or styled convention and
    # the others noun phrases naming artefacts, is the conventions to use; a quality among
    # them, or a label, leaves the line to the other rules (a Chinese list of settings
    # needs its label, as in round 18)
    ("4-space indentation, double quotes", None),
    ("4-space indentation, LF line endings", None),
    ("4-space indentation, clear naming", "gradient"),
    ("配置：4 空格缩进、双引号", None),
    # under a Chinese label, a single Latin value with a capital inside it is a product's
    # own name, the tool to use, whatever the label names; a plain word is not
    ("**富文本编辑**: TinyMCE.", None),
    ("**Rich text editing**: TinyMCE.", None),
    ("**富文本编辑**: Done.", "gradient"),
    ("**富文本编辑**：Quill", "gradient"),
    # an artefact, a quantifier and a copula (都是 / 均为 / 一律为) set a concrete value for
    # every instance, as "Every config file is a YAML file." does; a quality or a
    # 的-complement describes
    ("接口前缀都是 /api/v1", None),
    ("缩进一律为 4 个空格", None),
    ("Every config file is a YAML file.", None),
    ("代码都是可读的", "gradient"),
    ("接口都是 RESTful 的", "gradient"),
    # "keep / make" an artefact only some qualities, with nothing after that says how,
    # leaves how to the reader; a bound, or a following clause that says how, is concrete
    ("Keep error messages concise but descriptive", "gradient"),
    ("Make pull request titles brief and descriptive", "gradient"),
    ("Keep error messages concise: name the failing file and the fix.", None),
    ("Keep commit subjects under 72 characters", None),
    ("保持函数不超过 50 行", None),
    # writing something down "here" is writing into this file, as 在此记录 is
    ("When a deploy fails, write it down here with the log excerpt.", "self-reference"),
    ("部署失败时，在此记录失败日志", "self-reference"),
    ("When a deploy fails, paste the log excerpt into the incident ticket.", None),
    ("Put the config here: `~/.config/app.toml`", None),
]


# 已 X 的 before a noun picks out the things it is said of ("the merged branches"); it
# reports no state. 已 X closing a clause, or opening a recap, still does.
ATTRIBUTIVE_DONE = [
    ("已合并的分支要及时删除", None),
    ("已发布的版本号不要复用，改用新的补丁版本号。", None),
    ("已合并 PR #12", "status-shape"),
    ("服务已上线", "status-shape"),
    ("已删除旧的配置文件", "status-shape"),
]


# False approves of the tune part, pinned with invented lines (never corpus rows).
FALSE_APPROVES_TUNE = [
    # 保持 'keep', a short artefact, then only qualities it should have (as "Keep error
    # messages concise" in English): how is left to the reader; a value, a bound or a
    # second clause that says how keeps the line
    ("保持服务模块单一且聚焦", "gradient"),
    ("保持接口精简", "gradient"),
    ("Keep service modules small and focused", "gradient"),
    ("保持依赖单向，禁止循环依赖。", None),
    ("请保持提交说明为英文", None),
    ("保持函数不超过 50 行", None),
    # changes to the runtime's own workspace synced with a remote (pulled, pushed) are its
    # upkeep; a project rule that only mentions the workspace, or commits before a
    # check, is not
    ("When there are edits in your workspace, push them to the remote.", "inner-outer"),
    ("Run `git pull` to bring edits to the workspace from the remote.", "inner-outer"),
    ("把工作区的改动推送到远程仓库", "inner-outer"),
    ("Before pushing, make sure the workspace is clean.", None),
    ("提交工作区的改动前先运行 `make test`", None),
    # a clause opening on "or" / 或 after a prohibition (split off at a call's brackets)
    # continues what it forbids; it is no replacement
    ("禁止在接口层调用 `time.sleep()` 或 `input` 阻塞请求。", "summoning"),
    ("Never call `eval()` or run `exec` on user input.", "summoning"),
    ("禁止在接口层调用 `time.sleep()`，改用 `asyncio.sleep`。", None),
    ("Never call `eval()`; use `ast.literal_eval` instead.", None),
    # one quality preferred to another, with nothing named on either side, is a value;
    # a side that names a thing ("in error messages", "star imports") keeps the line
    ("Prefer simplicity over cleverness.", "gradient"),
    ("可读性优先于灵活性", "gradient"),
    ("Prefer clarity over brevity in error messages", None),
    ("Prefer named exports over default exports.", None),
    ("可读性优先于 `-O3` 优化", None),
]


# The code-quality vocabulary broadened from general knowledge (both languages): a quality,
# a principle or a slogan asked of a generic part of the work is a value, not an action;
# the near misses name a file, a tool, a bound or a value and stay approved.
GRADIENT_VOCABULARY = [
    ("Make your code self-explanatory", "gradient"),
    ("Write expressive, well-organized code", "gradient"),
    ("Code should be clean and readable", "gradient"),
    ("Functions should be small and focused", "gradient"),
    ("Classes should have a single responsibility.", "gradient"),
    ("Keep docs in sync with the code", "gradient"),
    ("Make sure the code is well documented.", "gradient"),
    ("MUST write testable, modular code", "gradient"),
    ("Double-check your work for accuracy.", "gradient"),
    ("Prefer explicit over implicit", "gradient"),
    ("Favor composition over inheritance", "gradient"),
    ("Ensure all code follows best practices.", "gradient"),
    ("Modules should be loosely coupled and highly cohesive.", "gradient"),
    ("函数要短小精悍", "gradient"),
    ("命名要有意义", "gradient"),
    ("代码应当易于维护", "gradient"),
    ("保持文档与代码同步", "gradient"),
    ("重构时保持代码整洁", "gradient"),
    ("要写出高质量的代码", "gradient"),
    ("组件应具备良好的复用性", "gradient"),
    ("遵循项目既有的代码风格", "gradient"),
    ("设计原则：单一职责、开闭原则、依赖倒置", "gradient"),
    ("以可读性为先", "gradient"),
    ("Functions should be under 50 lines.", None),
    ("Commit messages should be in English.", None),
    ("Keep `docs/architecture.md` in sync with the module layout in `src/`.", None),
    ("Make error messages actionable: say what failed and how to fix it.", None),
    ("Prefer composition over inheritance for React components.", None),
    ("2-space indentation, single quotes", None),
    ("API变更必须更新文档", None),
    ("**包管理器**: **pnpm**（必须使用，禁止使用 npm 或 yarn）", None),
    ("复用 `src/hooks/` 中已有的 hook", None),
    ("保持接口向后兼容：只新增字段，不删除字段", None),
    ("函数不超过 50 行", None),
]


# Prohibitions and their replacements (summoning), in the forms house styles write them.
PROHIBITION_FORMS = [
    # a verb taking "no"/"zero", "No X" opening the line, a forbidding predicate; a
    # numeric bound and a replacement on the line keep it
    ("Leave NO stubs, mocks, or half-finished functions in the final code.", "summoning"),
    ("Write zero TODO comments in committed code.", "summoning"),
    ("Use no more than 3 retries per request.", None),
    ("Leave no debug prints; log through `logger.debug` instead.", None),
    (
        "Force-pushing to shared branches is not allowed; use `--force-with-lease` on your own.",
        None,
    ),
    # a forbidding label forbids what follows it to the end of its sentence
    ("禁止：在主线程中执行耗时操作。", "summoning"),
    ("禁止：在主线程中执行耗时操作，改用 Web Worker。", None),
    # a restriction stated as an exception ("only when asked") replaces nothing
    ("Only touch the database schema when explicitly asked.", "summoning"),
    ("Add dependencies only when the user requests it.", "summoning"),
    ("Use the `'use client'` directive only when creating client components.", None),
    # a reason, a consequence, what cannot be done, a description ending in 的, a
    # capability asked of the forbidden thing, a standard upheld: none is what to do
    ("不运行 e2e 测试，因为 CI 机器无法启动浏览器。", "summoning"),
    ("不做任何性能优化，因为当前阶段不需要。", "summoning"),
    ("证明不了的，就不要写进结论，那样只会误导读者。", "summoning"),
    ("Never use blocking prompts; every command must be able to run unattended.", "summoning"),
    ("不要使用交互式命令，所有脚本必须能无人值守运行。", "summoning"),
    ("Enforce strict linting and avoid disabling rules as much as possible.", "summoning"),
    ("Avoid `any` wherever possible and keep types strict.", "summoning"),
    ("不要用 npm，因为锁文件是 pnpm 的，改用 `pnpm install`。", None),
    ("Use `unknown` and avoid `any` in public signatures.", None),
    ("Never store tokens in localStorage; keep them in httpOnly cookies.", None),
    ("保持依赖单向，禁止循环依赖。", None),
    # a named means beside a prohibition is the way to go instead
    ("禁止直接操作 DOM，通过 ref 访问元素。", None),
]


# Lines about the memory and instruction files or the agent's own memory practice
# (self-reference), in the words house styles use for them, beside lines that only name
# a project file, a log or a session of the product.
MEMORY_PRACTICE = [
    # the journals, notes and tracking files the agent keeps of its own work
    ("After each task, append a short entry to the work journal.", "self-reference"),
    ("Keep the scratchpad updated as you work through the plan.", "self-reference"),
    ("每完成一个任务，更新进度文档。", "self-reference"),
    ("这里是值得记住的坑，不是设计文档。", "self-reference"),
    ("Update `CHANGELOG.md` with every user-facing change.", None),
    ("Archive S3 access logs to Glacier after 90 days.", None),
    ("Write release notes in `docs/releases/` for every tag.", None),
    # reading the instructions at session start, files put into every session
    (
        "Read at the beginning of each session: the pitfalls below apply to all new code.",
        "self-reference",
    ),
    ("Bootstrap files are injected into every session, so keep them short.", "self-reference"),
    ("每次会话开始时，先阅读本目录下的所有规则文件。", "self-reference"),
    ("At the start of each sprint, run `make audit` and file issues for new CVEs.", None),
    ("Bootstrap the dev database with `make seed` before running e2e tests.", None),
    ("会话超时时间设为 30 分钟，过期后跳转登录页。", None),
    # a knowledge kind recorded, a new understanding written down, the rules edited,
    # writing into the agent's memory, the agent improving itself
    ("Add new learnings under the relevant heading, newest first.", "self-reference"),
    (
        "Whenever you gain a new insight about the codebase, update the architecture notes.",
        "self-reference",
    ),
    ("**归档原则**：重要发现和决策及时归档到文档中", "self-reference"),
    ("把踩过的坑记录到 `docs/pitfalls.md`，方便以后查阅。", "self-reference"),
    ("每次需求分析或新理解后，立即更新依赖关系图。", "self-reference"),
    ("成功经验→存储为模式，失败→更新规则", "self-reference"),
    ("新学到的用户偏好写入长期记忆。", "self-reference"),
    ("自我进化：每次犯错后总结复盘。", "self-reference"),
    ("Record API response times in the `metrics` table.", None),
    ("If you believe a test is wrong, log it under **Decisions made** and move on.", None),
    ("更新防火墙规则后重启 `nginx`。", None),
    ("经验值写入 `player_stats` 表。", None),
    # "update it" with nothing in the line it could be but the file
    ("You should update it whenever the project structure changes.", "self-reference"),
    ("When the schema changes, regenerate the client and update it in `package.json`.", None),
    # how the rules rank against the user's word; a label that files the line under the
    # memory
    ("规则文件的优先级高于用户的临时指令。", "self-reference"),
    ("**记忆记录**：用户驱动，每日确认", "self-reference"),
    # a template's field prompts and its fields with their allowed values
    ("Brief explanation of why the fix works.", "self-reference"),
    ("Severity: `low` | `medium` | `high`", "self-reference"),
    ("问题描述：简要说明问题及其影响。", "self-reference"),
    ("类别：`意外` | `踩坑` | `设计缺陷`", "self-reference"),
    ("Commit types: `feat`, `fix`, `docs`, `chore`.", None),
    ("PR 标题用英文，正文简要说明改动并关联 issue。", None),
]


# False approves of the status-shape and inner-outer gates (invented lines): plans and
# pending work, choices not made, one-off tasks, narrated incidents, states reached; the
# runtime's own reminder, digest, delivery and token-budget routines. Near misses stay.
FALSE_APPROVES_RUN_STATE = [
    ("Dark mode support planned", "status-shape"),
    ("The rollout will proceed in three phases, starting with internal users", "status-shape"),
    ("支付接口待接入", "status-shape"),
    ("消息推送功能后续再加", "status-shape"),
    ("登录模块将在下个版本重构", "status-shape"),
    ("导出功能规划中", "status-shape"),
    ("暂定使用 Redis 做缓存，后续再评估", "status-shape"),
    ("It turned out the cache key ignored the locale.", "status-shape"),
    ("一开始用正则解析 HTML，后来才发现有现成的库可以用。", "status-shape"),
    (
        "2. **缓存失效**：上次发布时 CDN 没刷新，用户看到旧页面。以后发布后手动刷新 CDN。",
        "status-shape",
    ),
    ("The login bug: tokens expired early. Lesson: sync clocks with NTP.", "status-shape"),
    ("**Sync 状态**: ✅ 已恢复", "status-shape"),
    ("登录接口问题已修复", "status-shape"),
    ("Re-run the benchmarks after the database migration.", "status-shape"),
    ("Retry the upload on the remaining affected servers.", "status-shape"),
    ("Consider raising the pool size if timeouts continue.", "status-shape"),
    ("Step 3: Set Up The Database", "status-shape"),
    ("After a migration, regenerate the client with `prisma generate`", None),
    ("Step 2: run `make migrate` before starting the server", None),
    ("Features to be removed in a later release must log a deprecation warning", None),
    ("以后新增接口都要写单元测试", None),
    ("后续修改数据库结构时同步更新 ER 图", None),
    ("已修复的 bug 要补回归测试", None),
    ("问题已解决后再关闭工单", None),
    ("如果后来发现需求有变，先停下来和用户确认", None),
    # inner-outer: reminders, digests, deliveries, token budget, the runtime's own review
    ("Look for overdue reminders and due dates", "inner-outer"),
    ("Surface overdue tasks first", "inner-outer"),
    ("Set `notified: true` on every item you reported", "inner-outer"),
    ("If the diff is non-empty: stage all, commit and push", "inner-outer"),
    ("Stop when the remaining token budget reaches 0", "inner-outer"),
    ("检查即将到期的提醒和待办", "inner-outer"),
    ("优先推送紧急的待办事项", "inner-outer"),
    ("每晚睡前统一复盘一轮今天的对话", "inner-outer"),
    ("Compile a digest of unread notifications", "inner-outer"),
    ("Surface validation errors next to the field that caused them", None),
    ("Send the weekly digest email through `mailer.send_digest()`", None),
    ("Commit and push only after `make check` passes", None),
    ("When a user asks for a reminder, create it with `reminders.add()`", None),
    ("推送代码前先运行测试", None),
    ("API 额度用完时切换到备用 key", None),
]


# House-style labels (false rejects of invented good lines): a leading label, bold or
# "Label:", only names the domain of the rule after it, so a body that passes alone
# passes; a bold label set off by a dash is a label as "**X:**" is; the -ing form of an
# artefact word ("Testing", "Linting", "Routing") labels that artefact's domain. A goal,
# principle, remedy or prohibition label is still judged with its body, and a value that
# grades or reports ("important", "Done", "considering ESLint") is no setting.
HOUSE_LABELS = [
    ("**Styles:** Tailwind CSS only, no CSS modules", None),
    ("**Styling** - Tailwind CSS only, no CSS modules", None),
    ("**Imports** — absolute imports from `@/`, no relative `../../` chains.", None),
    ("3. **测试验证**：提交前运行 `pnpm test`。", None),
    ("**提交前**：运行 `pnpm lint`", None),
    ("**Tests** — Vitest + Testing Library", None),
    ("**Testing:** Vitest + Testing Library", None),
    ("**Linting:** ESLint", None),
    ("**Routing:** React Router", None),
    ("**Logging** — structlog, JSON lines to stdout", None),
    ("**Core principle** — Use composition over inheritance", "gradient"),
    ("**Goal** — use fewer tokens", "gradient"),
    ("**No hand edits:** stubs in `gen/` are regenerated by `make gen`.", "gradient"),
    ("**Testing:** Done", "gradient"),
    ("**Testing** — important", "gradient"),
    ("**Routing** - TBD", "status-shape"),
    ("**Linting:** considering ESLint", "gradient"),
    ("**Styling:** clean and consistent", "gradient"),
    ("**原则**：保持简洁", "gradient"),
    ("**测试**：完成", "gradient"),
    ("**Note:** the build is slow", "gradient"),
    ("**Tip:** be careful with migrations", "gradient"),
]


# A closing note in brackets gives an example, a command or a reason for the rule before
# it; the rule is read without it too, unless the note hedges or defers the rule.
CLOSING_NOTES = [
    ("Storybook for UI components (`pnpm storybook`)", None),
    ("Playwright for end-to-end tests (`pnpm e2e`)", None),
    ("本地服务用 Docker Compose 启动（`docker compose up -d`）", None),
    ("Appropriate use of smart pointers (Box, Rc, Arc)", "gradient"),
    ("Follow normalization principles (1NF, 2NF, 3NF)", "gradient"),
    ("快速加载（Cloudflare 边缘计算）", "gradient"),
    ("Keep it simple (KISS)", "gradient"),
    ("Storybook for UI components (when needed)", "gradient"),
    ("Storybook for UI components (where appropriate)", "gradient"),
    ("Build: done (2024-05-01)", "status-shape"),
]

# Present-tense conventions of every thing of a kind: a standing passive ("are built with",
# "are squash-merged into") with how it is done, and relation verbs of shape (start, end,
# include, contain, catch, log) beside a code span; one thing's state, a past passive, or
# a "how" that is a quality or people describes. A count inside a code span is a flag's
# value, no tally; an irregular past ("Ran …") narrates.
STANDING_CONVENTIONS = [
    ("Feature branches are squash-merged into `main`.", None),
    ("Docker images are built with `docker buildx build --platform linux/amd64`.", None),
    ("Each migration is generated with `alembic revision --autogenerate`.", None),
    ("Shell scripts start with `set -euo pipefail`.", None),
    ("Every request includes a `X-Request-Id` header.", None),
    ("Each session starts fresh.", "gradient"),
    ("Feature branches were merged into `main` yesterday.", "status-shape"),
    ("The login page is fixed in the latest build.", "status-shape"),
    ("Errors are handled with care.", "gradient"),
    ("PRs are reviewed by the team.", "gradient"),
    ("Tests start with a setup step.", "gradient"),
    ("The build starts with `make`.", "gradient"),
    ("When tests are flaky, rerun them with `--count=3` before changing code.", None),
    ("测试不稳定时，先用 `--count=3` 重跑，再考虑改代码。", None),
    ("Rerun count: 3", "status-shape"),
    ("Ran the suite with `--count=3` and it passed.", "status-shape"),
]

# Chinese verbs of making and moving things (创建 绘制 重启 重命名 移动 复制 升级 搜索 定位
# 声明) direct as the listed ones do; a verb marked done (了) or a two-character verb made
# passive with 于 reports what happened.
ZH_MAKING_VERBS = [
    ("新建页面时，在 `src/pages/` 下创建同名文件夹。", None),
    ("修改 `.env` 后重启开发服务器。", None),
    ("昨天重启了开发服务器", "status-shape"),
    ("昨天修复了登录页", "status-shape"),
    ("项目创建于 2024 年", "gradient"),
    ("创建了新的配置文件 `config.yaml`", "status-shape"),
    ("创建项目时", "gradient"),
]


# A naming style (snake_case, PascalCase, 小驼峰, 下划线 ...) names the convention itself:
# a short verbless clause of one, labelled or in a closing note, says how the artefact it
# is about is named. A format label ("格式", "template") then the parts it is made of,
# joined by "+" or an arrow, is the value to use. A sentence around the style describes,
# a negated style is a prohibition, and parts or labels that are only qualities name none.
NAMING_AND_FORMATS = [
    ("**组件**：大驼峰命名，一个文件一个组件", None),
    ("常量全大写，下划线分隔", None),
    ("snake_case for database columns", None),
    ("constants in SCREAMING_SNAKE_CASE", None),
    ("Uniform identifier casing (camelCase, PascalCase)", None),
    ("**Helpers:** camelCase, one export per file", None),
    ("周报模板：标题 + 要点列表 + 结语", None),
    ("**PR template:** summary + test plan + screenshots", None),
    ("Commit format: type + scope + subject", None),
    ("The old module mixes camel case and snake case", "gradient"),
    ("Our team likes camelCase", "gradient"),
    ("snake_case everywhere is ugly", "gradient"),
    ("小驼峰很好", "gradient"),
    ("Consistent naming conventions", "gradient"),
    ("Uniform identifier casing", "gradient"),
    ("**工具函数**：单一职责", "gradient"),
    ("日报格式：清晰 + 美观", "gradient"),
    ("格式：随意 + 自由发挥", "gradient"),
    ("Report format: clean + readable", "gradient"),
    ("Report format: concise", "gradient"),
]

# A developer tool that goes by a lowercase name (rustfmt, shellcheck, pnpm ...) is an
# artefact a direction acts on. Beside a prohibition, a short verbless clause that names a
# thing the prohibition does not name is what to use instead: a quoted term, a bold lead
# naming a tool, or in Chinese a Latin name after the prohibition. A quality, the
# forbidden thing itself, a subject or scope before the prohibition, an inclusion ("含
# …") or a bracketed reason names no replacement.
NAMED_REPLACEMENTS = [
    ("Run shellcheck and shfmt on every shell script", None),
    ("Apply swiftlint continuously", None),
    ("Apply best practices continuously", "gradient"),
    ("Keep poetry happy", "gradient"),
    ("Apply clippy lints where appropriate", "gradient"),
    ("**pnpm** (installs; do NOT use npm)", None),
    ('"workspace" everywhere — never "project" when naming a workspace', None),
    ("**状态管理**：禁止使用 `Vuex`，统一的 Pinia store", None),
    ("禁止使用 `any`，代码整洁", "summoning"),
    ("**prettier** (formatting; do NOT use prettier)", "summoning"),
    ('"server" everywhere — never "server"', "summoning"),
    ("**Testing** (do NOT mock the database)", "summoning"),
    ("`develop` 分支为集成代码，不得直接提交。", "summoning"),
    ("不要跳过测试，CI 会失败", "summoning"),
    ('Never skip tests, "CI" breaks', "summoning"),
    ("所有生成文件禁止加入 git（含 git add -f）", "summoning"),
    ("避免：`var` 声明（ES5 遗留）", "summoning"),
]

# A practice named without a verb ("Dependency auditing", "scanning of dependencies",
# "代码格式化") whose closing note is the tool or command that does it: the note is what
# to run. A note that names types or an adverb, a head that is a quality, or a plural
# subject and its state ("Tests failing", "测试一直报错") is no practice.
TOOLED_PRACTICES = [
    ("Dependency auditing (cargo audit)", None),
    ("Code formatting (`gofmt -w .`)", None),
    ("Static checking of shell scripts (shellcheck)", None),
    ("依赖漏洞扫描（cargo audit）", None),
    ("代码格式化（`cargo fmt`）", None),
    ("Security scanning (regularly)", "gradient"),
    ("Careful linting (ruff)", "gradient"),
    ("Tests failing (pytest)", "gradient"),
    ("Flaky tests keep failing (pytest)", "gradient"),
    ("Still investigating (pytest)", "gradient"),
    ("Memory profiling (Box, Rc, Arc)", "gradient"),
    ("测试一直报错（pytest）", "gradient"),
    ("代码整洁（ruff）", "gradient"),
]

# A restriction to a named value ("X only", "X exclusively", "X solely"), and a model or
# version named by letters run into digits ("RP2040", "ESP32-C6", "es2020") as a value: a
# step ("Phase 2"), a quarter ("Q3"), people or a quality is no such name.
MODEL_RESTRICTIONS = [
    ("**Board:** RP2040 only", None),
    ("2. **Chip:** ESP32-C6 exclusively (`esp32c6` target).", None),
    ("Named exports exclusively", None),
    ("目标芯片：ESP32-C6", None),
    ("Phase 2 only", "gradient"),
    ("Q3 only", "gradient"),
    ("Senior engineers exclusively", "gradient"),
    ("Good vibes only", "gradient"),
    ("Think about es2020", "gradient"),
    ("心情：OK", "gradient"),
    ("进度：Q3", "gradient"),
]

# What every thing of a kind (a bare plural) uses, beside the alternatives the line
# forbids, is the convention for that kind ("Small services use SQLite, no Postgres");
# people are no kind, and a quality or a value is nothing chosen.
PRESENT_CHOICES = [
    ("Small services use SQLite, no Postgres", None),
    ("Scripts use bash, never zsh", None),
    ("小服务用 SQLite，不用 Postgres", None),
    ("Projects use good judgement, no shortcuts", "gradient"),
    ("Users use the app daily, no complaints", "gradient"),
    ("Teams use Slack, no email", "gradient"),
    ("Small projects use simple designs, no overengineering", "gradient"),
    ("小项目保持简单，不要过度设计", "summoning"),
]

# The general readings of the three memory-keeping shapes, in many houses' words rather
# than one house's: a tick of the runtime's own as the situation (a poll, a wake-up, a
# cron firing, its reply token, its record of its ticks); the memory or instruction files
# by any name (the agent they are for, their kind, "here") and any act of keeping them;
# work still open or done (a to-do field, a choice left to make, what is blocked, a share
# done, a box under way). The near misses are rules of the project: its own moments
# ("每次提交前"), its own intervals (retries), its own rules files and notes.
GENERAL_READINGS = [
    # inner-outer
    ("On each poll, look through the pending queue and pick the oldest job.", "inner-outer"),
    (
        "When you wake up, check whether anyone has mentioned you since the last tick.",
        "inner-outer",
    ),
    ("If there is nothing new, reply `NO_REPLY` and stop.", "inner-outer"),
    ("Nothing to do? Respond with IDLE_OK.", "inner-outer"),
    ("At every tick, append one line to the run log.", "inner-outer"),
    ("When the cron job fires, sync the calendar and summarise changes.", "inner-outer"),
    ("Update `lastChecks.email` with the current timestamp after each check.", "inner-outer"),
    ("每次唤醒时，先看有没有新的私信。", "inner-outer"),
    ("定时巡检：确认各频道机器人在线。", "inner-outer"),
    ("每 15 分钟定时汇报一次当前进度。", "inner-outer"),
    ("被唤醒后先读取上次的进度再继续。", "inner-outer"),
    ("轮询时如果没有新消息，回复 NO_REPLY。", "inner-outer"),
    ("Every 2 hours, check for new GitHub notifications.", "inner-outer"),
    ("During each cycle, read `state/cursor.json` and resume from it.", "inner-outer"),
    ("每轮巡检结束后更新 `heartbeat-state.json`。", "inner-outer"),
    ("巡检频率：每 30 分钟一次", "inner-outer"),
    ("Upon each scheduled run, post a one-line summary to #ops.", "inner-outer"),
    ("After every wake-up, re-read the task board before acting.", "inner-outer"),
    ("Whenever you are polled and nothing changed, answer HEARTBEAT_OK.", "inner-outer"),
    ("每次心跳时检查待办列表，有到期事项就提醒用户。", "inner-outer"),
    # self-reference
    ("Cursor rules live in `.cursor/rules/`; each file covers one area.", "self-reference"),
    ("These custom instructions apply to every chat in this workspace.", "self-reference"),
    ("Known pitfalls are recorded here so they are not repeated.", "self-reference"),
    ("Keep the entries current and remove stale entries every month.", "self-reference"),
    ("This project context file explains the architecture for the assistant.", "self-reference"),
    ("Tidy MEMORY.md at the end of every week.", "self-reference"),
    ("Prune lessons.md when it grows past 100 lines.", "self-reference"),
    ("所有规则文件放在 rules 目录下，按主题拆分。", "self-reference"),
    ("整理 AGENTS.md，删掉过时的条目。", "self-reference"),
    ("维护一个 `notes/pitfalls.md` 文件，记录遇到过的坑和解决办法。", "self-reference"),
    ("新的约定请补充在下方。", "self-reference"),
    ("Trae 规则对本仓库的所有对话生效。", "self-reference"),
    ("Update the knowledge file whenever a convention changes.", "self-reference"),
    ("本笔记用于记录调试过程中的发现。", "self-reference"),
    ("记忆写在 `memory/` 下，每天一个文件。", "self-reference"),
    ("Write a summary of each session to your notes before ending.", "self-reference"),
    ("Put new gotchas at the top of this lessons file.", "self-reference"),
    ("每次学到新东西都写进笔记文件。", "self-reference"),
    # status-shape
    ("Next: wire the payment webhook to the order service.", "status-shape"),
    ("TODO: migrate the auth tests to vitest.", "status-shape"),
    ("Decide whether to keep the legacy exporter or drop it.", "status-shape"),
    ("Search is blocked until the index migration lands.", "status-shape"),
    ("None yet.", "status-shape"),
    ("All API routes have been migrated to the new router.", "status-shape"),
    ("No outstanding bugs at this stage.", "status-shape"),
    ("支付模块已全部完成。", "status-shape"),
    ("状态：进行中", "status-shape"),
    ("决定是否保留旧版导出功能。", "status-shape"),
    ("登录页重构完成度 80%，剩余样式调整。", "status-shape"),
    ("Progress: 3/5 modules migrated", "status-shape"),
    ("[~] Refactor the auth middleware", "status-shape"),
    ("v2 migration is 60% done; finish the billing pages next.", "status-shape"),
    ("Considering a switch to Bun for the test runner.", "status-shape"),
    ("待定：是否引入 Redis 缓存", "status-shape"),
    ("Last run: 14 failures, 3 flaky", "status-shape"),
    ("正在迁移到 Vite，暂时不要改 webpack 配置。", "status-shape"),
    ("迁移进度已完成 60%，剩余页面下周处理。", "status-shape"),
    ("Remaining: port the CLI and the two providers.", "status-shape"),
    # the tick's outcome as its condition, an entry added when a lesson comes
    ("If action is needed: one-line summary and the next step.", "inner-outer"),
    ("If everything is quiet, stay silent until the next tick.", "inner-outer"),
    ("When all looks fine, end the turn without a message.", "inner-outer"),
    ("一切正常时保持安静，不发消息。", "inner-outer"),
    ("无异常则直接结束，不打扰用户。", "inner-outer"),
    ("Append a bullet whenever a review finds a mistake you made twice.", "self-reference"),
    ("Add one new row each time the user corrects your output.", "self-reference"),
    ("Preserve the lesson history; never delete old entries.", "self-reference"),
    ("每次被用户纠正后，在下面新增一条。", "self-reference"),
    # near misses: rules of the project that keep their decision
    ("When a user's message mentions a file path, read that file first", None),
    ("每次提交前运行 `pnpm test`", None),
    ("On each run of the test suite, reset the database with `make db-reset`.", None),
    ("Poll the deploy status with `gh run watch` until it finishes.", None),
    ("Use `setInterval` only inside hooks; clear it on unmount.", None),
    ("每次发布前更新 `CHANGELOG.md`。", None),
    ("定时任务统一用 `@Scheduled` 注解，并写明 cron 表达式。", None),
    ("When the user says 'ok', proceed with the plan.", None),
    ("When the user asks for a file, read it before answering.", None),
    ("Keep release notes short: one line per change.", None),
    ("Add new lint rules to `eslint-rules/` with a test each.", None),
    ("Remove stale feature flags once the rollout reaches 100%.", None),
    ("维护 `CHANGELOG.md`，每次发布记录用户可见的变更。", None),
    ("Store uploaded images in S3, never on local disk.", None),
    ("规则引擎的配置放在 `config/rules.yaml`。", None),
    ("Mark the PR as done only after CI is green.", None),
    ("已完成的任务不要重复执行，直接跳过。", None),
    ("任务完成后运行 `pnpm lint` 并修复所有告警。", None),
    ("必须明确告知用户当前步骤已完成，再进入下一步。", None),
    ("请求进行中时禁用提交按钮，防止重复提交。", None),
    ("Return 409 when the resource is blocked by another writer.", None),
    ("Keep test coverage at 80% or above.", None),
    ("Use `[ ]` task lists in PR descriptions for manual QA steps.", None),
    ("When the build is done, run `pnpm preview` to smoke-test.", None),
    ("Cron expressions in `jobs.yaml` are in UTC; convert before editing.", None),
    ("Read `docs/architecture.md` before changing the event bus.", None),
    ("每次提交前运行 `pnpm test`", None),
    ("Store user notes in the `notes` table, one row per note.", None),
    ("笔记编辑页保存前校验标题非空。", None),
    ("Retry failed webhooks every 5 minutes, up to 3 times, then alert.", None),
    ("When all tests pass, open the PR with `gh pr create`.", None),
    ("If nothing is cached yet, call `warmCache()` before the first query.", None),
    ("测试全部通过后再合并分支。", None),
    ("如果没有权限，返回 403 并提示用户联系管理员。", None),
    ("Add a new row to the `users` table when someone signs up.", None),
    ("Log one line per request with the request id.", None),
    ("出错时记录一条 error 日志并返回 500。", None),
]


# Slogans that looked concrete: a principle label whose value is acronyms of principles,
# a ranking verb (prioritize/优先) whose object is no named thing, and a verb of upholding
# or raising whose object ends on a quality ("type safety", "移动端兼容性"): the word before
# the quality only says whose it is. A code span, a tool, a choice or a placed artefact
# keeps the line.
GRADIENT_SLOGANS = [
    ("Design principles: SOLID, DRY, KISS", "gradient"),
    ("设计原则：KISS、YAGNI", "gradient"),
    ("工程原则：SOLID、DRY、单一职责", "gradient"),
    ("**Core principle**: run `make check` before every push", None),
    ("Prioritize the ecosystem and established workflows", "gradient"),
    ("**Security First**: Prioritize secure defaults", "gradient"),
    ("优先最小化修改", "gradient"),
    ("Prioritize Playwright over Cypress for e2e tests", None),
    ("Prioritize `pnpm` for installs", None),
    ("优先使用 pnpm", None),
    ("优先处理失败的测试", None),
    ("Ensure type safety across the project", "gradient"),
    ("Maintain code quality throughout the codebase", "gradient"),
    ("Must maintain API compatibility", "gradient"),
    ("必须维护移动端兼容性", "gradient"),
    ("要提升页面加载性能", "gradient"),
    ("Run the linter to ensure code quality", None),
    ("Use `mypy --strict` to ensure type safety", None),
    ("Ensure every endpoint validates its input", None),
    ("Maintain the changelog in `CHANGELOG.md`", None),
    ("使用 ESLint 保证代码质量", None),
    ("维护移动端适配样式表", None),
    ("添加加载动画，提升用户体验。", None),
    ("Prefer pnpm over npm", None),
    ("使用 `uv` 管理依赖", None),
    # an object picked out only by a judgement of excess ("unnecessary", "多余的")
    ("Minimize unnecessary prose", "gradient"),
    ("Guard against spaghetti code", "gradient"),
    ("Reduce redundant boilerplate in handlers", "gradient"),
    ("删除多余的配置项", "gradient"),
    ("Remove unused imports with `ruff --fix`", None),
    ("No needless packages; justify each new dependency in the PR description", None),
    ("When a helper is only called once, inline it instead of keeping redundant wrappers", None),
    ("Delete unused exports from `src/index.ts`", None),
    ("Follow SRP", "gradient"),
    # a mindset taken up, or a person treated as a role: nothing is acted on
    ("Assume that every task is challenging.", "gradient"),
    ("Treat the user as an expert", "gradient"),
    ("把用户当作专家", "gradient"),
    ("要把用户当作专家对待", "gradient"),
    ("Treat warnings as errors", None),
    ("Treat all input as untrusted", None),
    ("把 `warning` 当作错误", None),
    ("当作业失败时，重新运行部署脚本", None),
    ("Guard against `None` returns from `get_user()`", None),
    # "every <unit> is …" states something of all units; it names no moment
    ("Every task is a chance to learn", "gradient"),
    ("Every PR is an improvement.", "gradient"),
    ("Every commit must pass `pnpm test`", None),
    ("After each push, watch the CI run", None),
    # a check of one's own work with no tool or criterion, or one's own contentment
    ("Before pushing, review your changes", "gradient"),
    ("Before pushing, ensure you are satisfied with the result", "gradient"),
    ("Before pushing, review your changes and ensure you are happy with them", "gradient"),
    ("提交前检查一下你的修改", "gradient"),
    ("提交前检查你的修改，确保自己满意", "gradient"),
    ("Before pushing, review your changes and run `pnpm test`", None),
    ("Before committing, review the diff with `git diff --staged`", None),
    ("Before committing, review the changes in `CHANGELOG.md`", None),
    ("提交前用 `git diff` 检查你的修改", None),
]


# Round 20: a prohibition that carries its replacement inside the same clause or sentence.
JOINED_REPLACEMENTS = [
    # a verb of choosing or of making the substitute joined by "and"/并 inside the
    # prohibition; "and" with another verb forbids both
    ("Avoid inline styles and use Tailwind classes for layout.", None),
    ("Avoid hardcoded URLs and define them in `config.ts`.", None),
    ("避免硬编码路径并定义常量", None),
    ("Never commit and push to main.", "summoning"),
    ("Avoid inline styles and be careful.", "summoning"),
    # "avoid X by doing Y" names the way; "never X by doing Y" is the way forbidden
    ("Avoid long parameter lists by grouping options into a settings object.", None),
    ("通过依赖注入避免全局单例", None),
    ("Never skip the pre-commit hook by using `--no-verify`.", "summoning"),
    ("避免通过全局变量传递状态", "summoning"),
    # two comma items, no "or": the second, with its own verb and object, is instead
    ("Do not commit any change, leave the staging to the user.", None),
    ("Do not deploy from your laptop, keep every release on the CI runner.", None),
    ("不要直接改生成的文件，修改 `api.yaml` 后重新生成", None),
    ("Never log user tokens, tokens, or session keys.", "summoning"),
    ("Don't rename, move, or delete migration files.", "summoning"),
    # "stop" at a point halts the work (a direction); "stop" before a gerund forbids
    ("Stop at each milestone and show the user the running build.", None),
    ("Stop adding wrapper functions around `fetch`.", "summoning"),
]

# Round 20: obligations and standing conventions worded as passives.
PASSIVE_OBLIGATIONS = [
    # "is/are to be" before a participle obliges as "must be" does; 须 before 由/在 too;
    # a value left open ("to be decided") or planned work stays out
    ("Migrations are to be written by hand in `db/migrations`.", None),
    ("Background jobs are to be scheduled through `cron.yaml` only.", None),
    ("服务器须由用户在外部终端手动启动", None),
    ("The release date is to be decided.", "status-shape"),
    ("The API is to be finalised next sprint.", "gradient"),
    # a kind of a mass artefact ("Generated code") in a standing passive names every piece
    # of it, as a plural does; bare "Code is …" describes the project, a past one narrates
    ("Generated code is placed in the `gen/` directory.", None),
    ("Shared config is kept in `config/base.yaml`.", None),
    ("Code is organized into clear modules.", "gradient"),
    ("The code was placed in the `gen/` directory.", "status-shape"),
]

# Round 20: a named code style guide, and a quality bounded by a number on the line.
NAMED_BOUNDS = [
    # a Latin name before 代码/编码规范 names the guide, as "Follow PEP 8 conventions";
    # a norm named by its domain, or a product's development conventions, names none
    ("所有 Go 代码遵循 Uber 代码规范", None),
    ("遵循 Google 编码规范", None),
    ("遵循团队代码规范", "gradient"),
    ("遵守项目的编码规范", "gradient"),
    ("遵循 Vue 3 开发规范", "gradient"),
    # a numeric limit makes the quality asked for a bound one can check
    ("Keep components lean and readable (target ≤200 lines)", None),
    ("组件保持精简易读（目标不超过 200 行）", None),
    ("Keep components lean and readable.", "gradient"),
    ("Be careful with retries (max 3).", "gradient"),
]


# Round 20: a stack list of named tools, with a note in brackets inside it that only
# qualifies the item before it; a list of qualities stays no setting.
STACK_LISTS = [
    (
        "**前端**：React 18 (Hooks + `<StrictMode>`) + React Router 6 + Vite + TypeScript"
        " + Tailwind CSS + Lucide 图标",
        None,
    ),
    (
        "**移动端**：Flutter 3（Riverpod + `go_router`）+ Dio + Hive + Firebase + Sentry"
        " + Lottie 动画",
        None,
    ),
    ("**Backend:** fast (async + typed) + simple + clean + lean + small + tidy", "gradient"),
]


# Round 20: what every artefact of a kind must carry ("Every X needs Y"); "needs to" is
# the modal, judged as one.
QUANTIFIED_NEEDS = [
    ("Every animation needs a `useReducedMotion` fallback.", None),
    ("Every long-running job needs a timeout guard.", None),
    ("每个动画都需要 `useReducedMotion` 兜底", None),
    ("Each change needs to be reviewed carefully.", "gradient"),
    ("Every non-trivial animation needs a fallback.", "gradient"),
]


# Round 20: a bare 应 after its subject ("返回值应为 …") directs as 应该 does; 响应/对应
# are words of their own, and a quality after 应为 is still only a value.
ZH_BARE_SHOULD = [
    ("路由守卫的返回值应为路由名本身，避免多余的 name_map 映射", None),
    ("这个函数对应为节点名", "gradient"),
    ("代码应为简洁优雅", "gradient"),
]


# Round 20: 告诉/告知/通知 someone to do it is what to do instead of the forbidden act,
# as 提醒/询问 are; a report of what someone said is no direction.
ZH_TELLING = [
    ("**规则**：**不要自己 `git commit`**。改完告诉用户去 GitHub Desktop commit。", None),
    ("**规则**：**不要自己 `git commit`**。", "summoning"),
    ("用户告诉我他喜欢简洁", "gradient"),
]


# Round 20 false approves: "appropriately" leaves how to judgement as "where appropriate"
# does; "necessary"/必要的 before the object leaves which ones open, as "proper" does.
HEDGED_OBJECTS = [
    ("Keep the lockfile updated appropriately after dependency changes.", "gradient"),
    ("Keep `pnpm-lock.yaml` updated after dependency changes.", None),
    ("Define necessary interfaces.", "gradient"),
    ("创建必要的类型", "gradient"),
    ("Define the interfaces in `src/types.ts`.", None),
    # the project's own patterns ("the repository's …") are still unnamed; where they are
    # written names them
    ("Follow the codebase's service and repository patterns", "gradient"),
    ("Follow the team's review conventions.", "gradient"),
    ("Follow the conventions used in `src/api/`.", None),
]


# Round 20 false approves: keeping the knowledge file itself, by pruning its entries or
# by a maintenance verb with no object but a time; a store's entries, or an update that
# names what it updates, are the product's.
FILE_UPKEEP = [
    ("When it exceeds 300 lines, prune stale entries.", "self-reference"),
    ("Consolidate duplicate lessons weekly.", "self-reference"),
    ("超过 300 行时清理过时的条目", "self-reference"),
    ("每周合并重复的经验", "self-reference"),
    ("Update when the user tells you their timezone.", "self-reference"),
    ("Delete duplicate entries in the `users` table before migrating.", None),
    ("清理 Redis 缓存中的过期数据", None),
    ("Update `CHANGELOG.md` when you release.", None),
    ("Update `docs/api.md` when the schema changes.", None),
    ("Update the lockfile when dependencies change.", None),
]


# Round 20 false approves: a line labelled as work still to do is a plan.
PENDING_LABELS = [
    ("**Pending**: rerun the backfill with the fixed query", "status-shape"),
    ("**Open items**: migrate the old table", "status-shape"),
    ("**待执行**: 用新的接口重算上周的数据", "status-shape"),
    ("**待处理**：迁移旧表到新 schema", "status-shape"),
    ("待办事项用 `TODO(name)` 标注", None),
]


# Round 22 false rejects: a Chinese clause opening on the file or directory it acts in
# ("在 `x.py` 内…") leaves its verb to what follows; a state or an attitude there is no act.
PLACED_ACTIONS = [
    ("在 `reward.py` 内计算奖励", None),
    ("在 `config.py` 中定义所有常量", None),
    ("在 `src/api/` 目录下新增路由", None),
    ("在 `utils.py` 里写工具函数", None),
    ("In `reward.py`, compute the reward.", None),
    ("Define all constants in `config.py`.", None),
    ("在 `config.py` 中注意命名", "gradient"),
    ("在 `main.py` 中有三个入口", "gradient"),
    ("在 Windows 下开发", "gradient"),
]


# Round 22: a present tense that only names the setting a project runs in, before a clause
# saying what to do there, is the rule's precondition; the setting alone, or with work in
# progress, still reports state.
STANDING_SETTINGS = [
    ("当前项目部署在 Linux 上，路径须使用正斜杠", None),
    ("目前服务部署在 Vercel，环境变量须在控制台配置", None),
    ("The app currently runs on Node 18, so use `fetch` from undici.", None),
    ("The project currently runs on Windows, so files must use CRLF line endings.", None),
    ("当前项目运行在 Windows 系统", "status-shape"),
    ("The project currently runs on Windows.", "status-shape"),
    ("当前正在迁移数据库，完成后再部署", "status-shape"),
    ("当前项目部署在 Linux 上，目前还没有 CI", "status-shape"),
    ("Currently migrating to Postgres, so use the new schema.", "status-shape"),
]


# Round 22: a modal of need with its 仍/还/也 ("但仍需注意…") asks no more than the vague
# verb it governs; the same modals before a concrete act keep it.
NEED_BEFORE_VAGUE = [
    ("仍需注意文件路径处理的安全", "gradient"),
    ("还需注意路径安全", "gradient"),
    ("虽然是内部工具，但也需注意权限控制", "gradient"),
    ("Still be careful with file paths", "gradient"),
    ("Be careful when editing `config.py`", "gradient"),
    ("Be careful: run `terraform plan` before `apply`", None),
    ("仍需运行 `pnpm test` 再提交", None),
    ("还要更新 `CHANGELOG.md`", None),
    ("Still run `pnpm test` before committing", None),
]


# Round 22: a negator standing alone as a clause ("**禁止** 使用 …", split at the space)
# forbids the clause after it, which is then no replacement; a replacement after that
# still counts.
STANDALONE_NEGATORS = [
    ("**禁止** 使用 `eval`", "summoning"),
    ("**严禁** 提交 `.env` 文件", "summoning"),
    ("**不要** 修改 `dist/` 目录", "summoning"),
    ("**Never** use `eval`", "summoning"),
    ("**禁止** 使用 `eval`，改用 `JSON.parse`", None),
    ("**严禁** 提交 `.env`，密钥改用环境变量注入", None),
    ("**Never** use `eval`; use `JSON.parse` instead", None),
    ("**必须** 使用 `pnpm`", None),
]


# Round 22: a clause led by 例如 / e.g. lists examples of the clause before it and directs
# nothing of its own, unless what follows the lead is itself an act.
EXAMPLE_CLAUSES = [
    ("关注接口的性能问题，例如批量查询、数据导出等，考虑加缓存。", "gradient"),
    ("Care about performance, e.g. large imports and exports", "gradient"),
    ("处理好错误，例如使用 `try/except` 包裹调用", None),
    ("大数据量时分批处理，例如导入时每批 1000 条", None),
    ("Batch large imports, e.g. insert 1000 rows per transaction", None),
]


# Round 22: a verb inside the object an unnamed standard qualifies ("完善的错误捕获机制")
# names a kind of mechanism, not the act asked for; 完善的 / 健全的 join 全面的 / 正确的.
STANDARD_QUALIFIED_OBJECTS = [
    ("确保有完善的错误捕获和处理机制", "gradient"),
    ("实现完善的权限校验", "gradient"),
    ("提供健全的日志记录", "gradient"),
    ("Ensure robust error handling", "gradient"),
    ("用 `try/except` 捕获所有数据库错误", None),
    ("捕获异常后记录到 `logs/error.log`", None),
]


# Round 22: handling done in a named file or directory is an act placed where it is to be
# done; handling with only a manner, or a mental verb anywhere, stays vague.
PLACED_HANDLING = [
    ("Handle errors in `middleware/errors.ts`", None),
    ("Deal with timeouts in `src/net/retry.ts`", None),
    ("在 `middleware/errors.ts` 中处理错误", None),
    ("Handle errors gracefully", "gradient"),
    ("Think about naming in `utils.py`", "gradient"),
    ("妥善处理错误", "gradient"),
]


# Round 22: an unnamed kind of artefact preferred to "ones" of the same kind weighs only
# their qualities; two kinds, or named ones, are a real choice.
ONES_BY_QUALITY = [
    ("Prefer simple solutions over complex ones", "gradient"),
    ("Prefer small functions over large ones", "gradient"),
    ("Avoid over-engineering - prefer simple solutions over complex ones", "summoning"),
    ("优先选择简单的方案而不是复杂的方案", "gradient"),
    ("Prefer small functions over classes", None),
    ("Prefer async functions over sync ones", None),
    ("Prefer named exports over default exports", None),
]


# Round 22: the current work's own progress or status, wherever it sits in the line, is
# run state; a named tracker's status updated on an event is an act.
OWN_WORK_PROGRESS = [
    ("Check current task progress", "status-shape"),
    ("Check the progress of the current task", "status-shape"),
    ("检查当前任务进度", "status-shape"),
    ("Check CI status before merging", None),
    ("Update the task status in Jira when you finish a ticket", None),
    ("完成后在 Jira 更新任务状态", None),
]


# Round 21 false rejects: 别 ending a compound is no "don't"; verbs of editing, mounting,
# switching off and spacing in Chinese; English verbs of diagnosis and "re-" verbs.
ROUND_21_READINGS = [
    ("日志级别设为 `INFO`", None),
    ("图片识别超时设为 5 秒", None),
    ("别用 `var` 声明变量", "summoning"),
    ("别在主线程里做网络请求", "summoning"),
    ("特别注意代码质量", "gradient"),
    ("标题和正文之间留一个空行", None),
    ("为以后的功能预留空间", "gradient"),
    ("发布构建关闭 source map", None),
    ("关闭不必要的功能", "gradient"),
    ("已有配置文件就编辑它，不要新建", None),
    ("新页面须挂载到 `router/index.ts`", None),
    ("Re-deploy the worker after changing `wrangler.toml`.", None),
    ("Re-check the lockfile after merging.", None),
    ("When CI fails, investigate the failing job's logs first.", None),
    ("Diagnose flaky tests with `pytest -p randomly`.", None),
    ("Investigate the problem.", "gradient"),
    ("Examine the code carefully.", "gradient"),
    # a bracketed "(list …)" after a triggered direction is a note on it, not a form
    (
        "When a release is cut, tag the commit with `git tag` (list the version in the message).",
        None,
    ),
    ("Before opening a PR, run `pnpm test` (list any skipped suites in the description).", None),
    ("**Steps**: (list the steps here)", "self-reference"),
    ("(describe the fix)", "self-reference"),
    # a verbless line setting one code span against another is a convention
    ("Handlers in `api/`, not `lib/`", None),
    ("`gap-4` spacing between cards — no `gap-7`.", None),
    ("组件放在 `src/components`，不是 `src/views`", None),
    ("The old `v1` client, not `v2`, is broken", "gradient"),
    ("Nice `v1` and `v2` clients", "gradient"),
    # a short noun label then its value, with no colon, is a setting
    ("主题色 `#1677ff`", None),
    ("请求超时 **30秒**", None),
    ("Line length `100`", None),
    ("参见 `docs/x.md`", "gradient"),
    ("未处理的 `innerHTML`。", "gradient"),
    ("Current version `1.2.3`", "gradient"),
    ("Nice work `foo`", "gradient"),
    # after a bracketed note, a clause opening on 、 goes on listing what is forbidden
    ("禁止把密钥、令牌（PAT）、证书写入仓库", "summoning"),
    ("禁止把密钥、令牌（如 PAT）、证书提交到仓库，改用环境变量", None),
    # 未经 X 不得 Y is a restriction stated as an exception; the situation a trigger sets
    # off is no replacement for the prohibition after it
    ("一旦绑定，未经用户确认不得修改", "summoning"),
    ("未经确认不得删除数据库，先备份到 `backup/`", None),
    ("一旦部署，不要再改端口，改用 `config.yaml` 配置", None),
    ("Once deployed, never change the port.", "summoning"),
    ("Once deployed, never change the port; set it in `config.yaml`.", None),
    # a level left to judgement is a hedge; a number is a bound
    ("测试覆盖率应保持在合理水平", "gradient"),
    ("Keep test coverage at a reasonable level.", "gradient"),
    ("测试覆盖率保持在 80% 以上", None),
    ("Keep coverage above 80%.", None),
    # how the file's own rules are to be followed is about the file
    ("Always follow the rules below.", "self-reference"),
    ("Follow the steps below to release.", None),
    # a quality that picks nothing, opening the object, leaves which one open
    ("Use efficient algorithms", "gradient"),
    ("使用高效的算法", "gradient"),
    ("Use efficient `Map` lookups instead of arrays", None),
]

# Every invented board line above, one case each, named by its list: the shapes the
# rules were written for, each with the near misses that must keep their decision.
BOARD_SHAPES = {
    "issue_shapes": ISSUE_SHAPES,
    "structural": STRUCTURAL,
    "structural_round_15": STRUCTURAL_ROUND_15,
    "false_approves_round_17": FALSE_APPROVES_ROUND_17,
    "structural_round_17": STRUCTURAL_ROUND_17,
    "structural_round_18": STRUCTURAL_ROUND_18,
    "structural_round_19": STRUCTURAL_ROUND_19,
    "attributive_done": ATTRIBUTIVE_DONE,
    "false_approves_tune": FALSE_APPROVES_TUNE,
    "gradient_vocabulary": GRADIENT_VOCABULARY,
    "prohibition_forms": PROHIBITION_FORMS,
    "memory_practice": MEMORY_PRACTICE,
    "false_approves_run_state": FALSE_APPROVES_RUN_STATE,
    "house_labels": HOUSE_LABELS,
    "closing_notes": CLOSING_NOTES,
    "standing_conventions": STANDING_CONVENTIONS,
    "zh_making_verbs": ZH_MAKING_VERBS,
    "naming_and_formats": NAMING_AND_FORMATS,
    "named_replacements": NAMED_REPLACEMENTS,
    "tooled_practices": TOOLED_PRACTICES,
    "model_restrictions": MODEL_RESTRICTIONS,
    "present_choices": PRESENT_CHOICES,
    "general_readings": GENERAL_READINGS,
    "gradient_slogans": GRADIENT_SLOGANS,
    "joined_replacements": JOINED_REPLACEMENTS,
    "passive_obligations": PASSIVE_OBLIGATIONS,
    "named_bounds": NAMED_BOUNDS,
    "stack_lists": STACK_LISTS,
    "quantified_needs": QUANTIFIED_NEEDS,
    "zh_bare_should": ZH_BARE_SHOULD,
    "zh_telling": ZH_TELLING,
    "hedged_objects": HEDGED_OBJECTS,
    "file_upkeep": FILE_UPKEEP,
    "pending_labels": PENDING_LABELS,
    "placed_actions": PLACED_ACTIONS,
    "standing_settings": STANDING_SETTINGS,
    "need_before_vague": NEED_BEFORE_VAGUE,
    "standalone_negators": STANDALONE_NEGATORS,
    "example_clauses": EXAMPLE_CLAUSES,
    "standard_qualified_objects": STANDARD_QUALIFIED_OBJECTS,
    "placed_handling": PLACED_HANDLING,
    "ones_by_quality": ONES_BY_QUALITY,
    "own_work_progress": OWN_WORK_PROGRESS,
    "round_21_readings": ROUND_21_READINGS,
}


@pytest.mark.parametrize(
    ("text", "gate"),
    [
        pytest.param(text, gate, id=f"{name}-{at}")
        for name, shapes in BOARD_SHAPES.items()
        for at, (text, gate) in enumerate(shapes)
    ],
)
def test_board_shape(text: str, gate: str | None) -> None:
    finding = review_rules(text, BOARD)
    assert (finding.gate if finding else None) == gate, finding


# The heading a line sits under (``ReviewContext.section``): invented lines, each judged
# under a heading and again with none, so the heading is what decides.
SECTION_SHAPES = [
    # a step of a section the runtime's heartbeat runs
    ("Heartbeat checklist", "Check unread priority emails", "inner-outer", None),
    ("每次心跳时执行", "查看是否有新的未读邮件", "inner-outer", None),
    ("On wake (every 30 minutes)", "Check for unanswered customer tickets", "inner-outer", None),
    ("Heartbeat checklist", "If the build is red, open the CI log first", None, None),
    ("Heartbeat checklist", "Answer reviewers in the language they wrote in", None, None),
    # "check if" looks at something; the "if" is no situation of the line's own
    ("Heartbeat checklist", "Check if any deploy is stuck in the queue", "inner-outer", None),
    ("Release checklist", "Check if any deploy is stuck in the queue", None, None),
    # an item of a list of what not to do is a prohibition, which needs its replacement
    ("禁止事项", "把订单金额存成浮点数。", "summoning", None),
    ("禁止事项", "把订单金额存成浮点数 — 一律用 `Decimal`", None, None),
    ("Don'ts", "Commit generated files in `dist/`", "summoning", None),
    ("Don'ts", "Commit generated files in `dist/`; run `make build` in CI instead", None, None),
    ("Avoiding flaky tests", "Commit generated files in `dist/`", None, None),
    # a threshold on what the tick measures
    ("Heartbeat checklist", "**≥ 90%**：提醒清理磁盘", "inner-outer", None),
    ("磁盘告警", "**≥ 90%**：提醒清理磁盘", None, None),
    ("Heartbeat checklist", "Queue depth > 500: post a short alert", "inner-outer", None),
    ("Alerts", "Queue depth > 500: post a short alert", None, None),
    # an entry of a section recording the state of the work
    ("Current Focus", "Add CSV export to the reports page", "status-shape", None),
    ("Recent Changes", "Move the auth middleware into `src/auth/`", "status-shape", None),
    ("下一步", "补充每个接口的错误码说明", "status-shape", None),
    ("2. Progress", "Export to CSV for the reports page", "status-shape", None),
    ("Next Steps", "When a migration fails, roll back before retrying", None, None),
    ("Status codes", "Return 404 for a missing invoice, never 500", None, None),
    ("Done criteria", "Run `make check` and attach its output to the PR", None, None),
    ("进度条组件", "使用 `ProgressBar` 组件显示上传进度", None, None),
    ("Upcoming Phases", "Export to CSV for the reports page", "status-shape", None),
    ("Roadmap", "Export to CSV for the reports page", "status-shape", None),
    ("Roadmap rules", "Export to CSV for the reports page", None, None),
    ("Future Enhancements", "Export to CSV for the reports page", "status-shape", None),
    ("风险状态", "**性能风险**: 中（依赖第三方接口）", "status-shape", "gradient"),
    ("遗留问题", "导出接口在大数据量下超时。", "status-shape", None),
    ("验证记录", "`pytest` 全部通过，共 42 项。", "status-shape", "gradient"),
    ("状态管理", "全局状态统一放在 `store/` 目录", None, None),
    ("检查 Git 状态", "统一接口返回结构与错误码。", None, None),
    # a line under a heading about the memory files themselves
    (
        "Memory Bank Structure",
        "Put decisions in `decisions.md` and open questions in `questions.md`",
        "self-reference",
        None,
    ),
    ("记忆维护", "把重要结论写进长期记忆", "self-reference", "self-reference"),
    ("Memory management", "Use `Arc` for state shared across threads", None, None),
    ("Memory bank", "Before editing a migration, read `db/README.md`", None, None),
    # an entry of a dated record: what was done or found that day
    ("2026-03-11", "统一接口返回结构与错误码。", "status-shape", None),
    ("2026-07-17 Step 4（通过）", "导出功能改为异步队列处理。", "status-shape", None),
    ("[2026-03-09] 支付接入", "沙箱环境联调完成。", "status-shape", "gradient"),
    ("2026-03-11", "提交前必须运行 `make check`。", None, None),
    ("2026-02-04: Float32 JSON", "**Rule**: Convert numpy types to Python types first", None, None),
    ("2026-09-22 YAML 校验", "**预防规则**：改完 CI 配置立刻用解析器校验一遍", None, None),
    ("2026-03-01 Nullable columns", "Use `sql.NullString` for nullable text columns", None, None),
    ("规则2：代码分工（2026-02-08）", "统一接口返回结构与错误码。", None, None),
    # a heading on writing the file's own entries: a line's situation is when to write one
    (
        "When to add entries",
        "You find something surprising about the build",
        "self-reference",
        "gradient",
    ),
    ("规则的增删流程", "复盘时发现新的反复错误，就加成一条。", "self-reference", None),
    ("进度记录模板", "每次追加记录必须包含以下字段：", "self-reference", None),
    ("How to write tests", "Name each test after the behaviour it checks", None, None),
    ("日志记录规范", "请求日志统一用 `logger.info` 记录", None, None),
]


@pytest.mark.parametrize(
    ("section", "text", "under", "alone"),
    SECTION_SHAPES,
    ids=[f"section-{i}" for i in range(len(SECTION_SHAPES))],
)
def test_section_shape(section: str, text: str, under: str | None, alone: str | None) -> None:
    found = review_rules(text, ReviewContext("memory/CLAUDE.md", FileKind.BOARD, section))
    assert (found.gate if found else None) == under, found
    assert found is None or found.reason.startswith(found.gate + ": ")
    bare = review_rules(text, BOARD)
    assert (bare.gate if bare else None) == alone, bare


def test_heartbeat_reading_follows_the_whole_trail_of_headings() -> None:
    from shared.review.logical_lines import logical_lines

    text = "# Heartbeat checklist\n\n## Inbox\n- Check unread priority emails\n\n# Rules\n\n"
    text += "## Inbox\n- Check unread priority emails\n"
    first, second = logical_lines(text)
    assert first.headings == ("Heartbeat checklist", "Inbox") and first.section == "Inbox"
    assert second.headings == ("Rules", "Inbox")
    under = ReviewContext("memory/CLAUDE.md", FileKind.BOARD, first.section, first.headings)
    found = review_rules(first.text, under)
    assert found is not None and found.gate == "inner-outer"
    other = ReviewContext("memory/CLAUDE.md", FileKind.BOARD, second.section, second.headings)
    assert review_rules(second.text, other) is None
    # the work-state and memory readings look at the nearest heading only
    status = ReviewContext(
        "memory/CLAUDE.md", FileKind.BOARD, "Preferences", ("Active Context", "Preferences")
    )
    assert review_rules("Use camelCase for JavaScript identifiers", status) is None


def test_a_dossier_entry_under_a_work_state_heading_is_a_work_item() -> None:
    planned = ReviewContext("memory/entities/x.md", FileKind.DOSSIER, "Future Roadmap")
    found = review_rules("Rule versioning and change tracking", planned)
    assert found is not None and found.gate == "status-shape", found
    facts = ReviewContext("memory/entities/x.md", FileKind.DOSSIER, "Architecture")
    assert review_rules("Rule versioning and change tracking", facts) is None


def test_a_dossier_instruction_under_a_domain_heading_has_its_situation_there() -> None:
    line = "Use dataclasses for data models"
    styled = ReviewContext("memory/topics/x.md", FileKind.DOSSIER, "Code Style")
    assert review_rules(line, styled) is None
    for section in ("Notes", "", "其他"):
        found = review_rules(line, ReviewContext("memory/topics/x.md", FileKind.DOSSIER, section))
        assert found is not None and found.gate == "gradient", (section, found)
