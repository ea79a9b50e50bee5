"""What the agent did, as evidence for or against a board line.

Real users rarely say "you followed the rule"; the evidence is in the agent's tool calls.
A board line that prescribes a command (a code span such as ``golangci-lint run`` or
``pnpm install``, or a kind of step such as "run the tests" / "运行测试") is followed when
the turn's tool calls run it, and broken when the line forbids a command ("use pnpm rather
than `npm`", "不要用 `pip`") and the agent ran that one. Only commands count: a shell
command's words in a tool call's input, never a bare mention in prose.

A command is compared by its *head*: the program and the plain words after it, flags,
paths and arguments left out (``go test -v ./...`` has the head ``go test``; ``mise run
fmt`` has ``mise run fmt``). A run matches when its tokens hold the head in order and
next to each other, anywhere in the call (``cd cli && go test ./...`` runs ``go test``).

The programs and the step kinds are data (:data:`PROGRAMS`, :data:`STEPS`), each with the
examples the tests run.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from shared.language import lexicon
from shared.language.text import split_trigger, token_set
from shared.weaver.scan.turns import Turn, TurnRow

# Programs whose first word starts a command in a code span (lower case).
PROGRAMS: frozenset[str] = frozenset(
    [
        "git",
        "go",
        "gofmt",
        "goimports",
        "golangci-lint",
        "cargo",
        "rustc",
        "rustfmt",
        "npm",
        "npx",
        "pnpm",
        "yarn",
        "bun",
        "bunx",
        "node",
        "deno",
        "tsc",
        "eslint",
        "prettier",
        "biome",
        "jest",
        "vitest",
        "playwright",
        "python",
        "python3",
        "pip",
        "pip3",
        "pipx",
        "uv",
        "uvx",
        "poetry",
        "pdm",
        "hatch",
        "tox",
        "nox",
        "pytest",
        "ruff",
        "black",
        "isort",
        "flake8",
        "pylint",
        "mypy",
        "pyright",
        "make",
        "cmake",
        "ninja",
        "just",
        "mise",
        "task",
        "docker",
        "docker-compose",
        "kubectl",
        "helm",
        "terraform",
        "mvn",
        "gradle",
        "./gradlew",
        "dotnet",
        "swift",
        "xcodebuild",
        "flutter",
        "dart",
        "php",
        "composer",
        "phpunit",
        "bundle",
        "rake",
        "rspec",
        "rails",
        "gem",
        "mix",
        "elixir",
        "cabal",
        "stack",
        "sbt",
        "lein",
        "clojure",
        "zig",
        "gcc",
        "clang",
        "ctest",
        "conan",
        "vcpkg",
        "bazel",
        "buck",
        "pre-commit",
        "alembic",
        "prisma",
        "drizzle-kit",
        "supabase",
        "wrangler",
        "vercel",
        "netlify",
        "gh",
        "hugo",
        "mkdocs",
        "sphinx-build",
        "jekyll",
        "astro",
        "next",
        "nuxt",
        "vite",
        "webpack",
        "turbo",
        "nx",
        "lerna",
        "changeset",
        "specstory",
        "minsky",
        "entire",
        "aider",
        "claude",
        "codex",
    ]
)

# Package managers that stand in for each other, and the commands by which each adds a
# dependency: a line telling the agent to use one ("Use `uv` for Python package
# management", "use `pnpm`") is broken by adding one with another ("pip install …"),
# though the line names no rival.
_ADDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "pip": (("pip", "install"),),
    "pip3": (("pip3", "install"),),
    "uv": (("uv", "add"), ("uv", "pip", "install")),
    "poetry": (("poetry", "add"),),
    "pdm": (("pdm", "add"),),
    "pipenv": (("pipenv", "install"),),
    "conda": (("conda", "install"),),
    "npm": (("npm", "install"), ("npm", "i")),
    "pnpm": (("pnpm", "add"), ("pnpm", "install")),
    "yarn": (("yarn", "add"),),
    "bun": (("bun", "add"), ("bun", "install")),
}
_ECOSYSTEMS: tuple[frozenset[str], ...] = (
    frozenset({"pip", "pip3", "uv", "poetry", "pdm", "pipenv", "conda"}),
    frozenset({"npm", "pnpm", "yarn", "bun"}),
)


def _rivals(prescribed: list[tuple[str, ...]]) -> tuple[tuple[str, ...], ...]:
    """The dependency-adding commands of the package managers rivalling the one a line
    prescribes as a tool (its bare name, or one of its own adding commands)."""
    out: list[tuple[str, ...]] = []
    for found in prescribed:
        program = found[0]
        if len(found) > 1 and found not in _ADDS.get(program, ()):
            continue  # "uv run pytest" runs a tool through uv; it says nothing of pip
        for members in _ECOSYSTEMS:
            if program in members:
                out.extend(h for rival in sorted(members - {program}) for h in _ADDS[rival])
    return tuple(dict.fromkeys(out))


# A kind of step a line can prescribe without naming the command, and the command heads
# that perform it. The words that name the step are the lexicon's ``step:<kind>``.
STEPS: dict[str, tuple[tuple[str, ...], ...]] = {
    "test": (
        ("pytest",),
        ("go", "test"),
        ("npm", "test"),
        ("npm", "run", "test"),
        ("pnpm", "test"),
        ("pnpm", "run", "test"),
        ("yarn", "test"),
        ("bun", "test"),
        ("cargo", "test"),
        ("jest",),
        ("vitest",),
        ("npx", "vitest"),
        ("npx", "jest"),
        ("mvn", "test"),
        ("gradle", "test"),
        ("./gradlew", "test"),
        ("make", "test"),
        ("tox",),
        ("nox",),
        ("phpunit",),
        ("rspec",),
        ("dotnet", "test"),
        ("swift", "test"),
        ("mix", "test"),
        ("ctest",),
        ("uv", "run", "pytest"),
        ("python", "-m", "pytest"),
        ("bun", "run", "test"),
        ("deno", "test"),
        ("flutter", "test"),
        ("just", "test"),
        ("mise", "run", "test"),
    ),
    "lint": (
        ("ruff", "check"),
        ("eslint",),
        ("npx", "eslint"),
        ("golangci-lint", "run"),
        ("flake8",),
        ("pylint",),
        ("npm", "run", "lint"),
        ("pnpm", "lint"),
        ("pnpm", "run", "lint"),
        ("yarn", "lint"),
        ("bun", "run", "lint"),
        ("make", "lint"),
        ("cargo", "clippy"),
        ("biome", "check"),
        ("npx", "biome"),
        ("just", "lint"),
        ("mise", "run", "lint"),
        ("pre-commit", "run"),
    ),
    "format": (
        ("gofmt",),
        ("goimports",),
        ("ruff", "format"),
        ("prettier",),
        ("npx", "prettier"),
        ("black",),
        ("cargo", "fmt"),
        ("npm", "run", "format"),
        ("pnpm", "format"),
        ("mise", "run", "fmt"),
        ("make", "fmt"),
        ("biome", "format"),
        ("isort",),
    ),
    "typecheck": (
        ("mypy",),
        ("pyright",),
        ("tsc",),
        ("npx", "tsc"),
        ("npm", "run", "typecheck"),
        ("pnpm", "typecheck"),
        ("pnpm", "run", "typecheck"),
    ),
    "build": (
        ("go", "build"),
        ("npm", "run", "build"),
        ("pnpm", "build"),
        ("pnpm", "run", "build"),
        ("yarn", "build"),
        ("cargo", "build"),
        ("make",),
        ("bun", "run", "build"),
        ("mvn", "package"),
        ("gradle", "build"),
        ("dotnet", "build"),
    ),
    "push": (("git", "push"),),
}

# A line's situation that is itself a step, and the command heads that take it. The words
# that name the situation are the lexicon's ``situation:<kind>``.
SITUATIONS: dict[str, tuple[tuple[str, ...], ...]] = {
    "commit": (("git", "commit"),),
    "push": (("git", "push"), ("gh", "pr", "create")),
}

# Tools whose input is a shell command (Claude Code, Codex, Cursor, SpecStory's renderings).
SHELL_TOOLS = frozenset(
    {
        "bash",
        "shell",
        "local_shell",
        "exec_command",
        "run_terminal_cmd",
        "terminal",
        "run_command",
        "execute_command",
        "command",
        "powershell",
        "container.exec",
    }
)
_SPAN = re.compile(r"`([^`\n]{1,200})`")
# An operator or a flag a line can forbid inside commands: `&&`, `|`, `;`, `--force`.
_LITERAL = re.compile(r"[&|;>]{1,2}|--?[a-z][\w-]*")
# A branch a line may forbid pushing to, and the words that say so before it.
_BRANCH = re.compile(r"[A-Za-z][\w./-]{0,60}")
_PUSH_TO = lexicon.matcher("push_to")
# A file name or path in a code span: a name with an extension, or an all-caps name.
_FILE = re.compile(r"(?:[\w.-]+/)*(?:[\w-]+\.[A-Za-z0-9]{1,8}|[A-Z][A-Z0-9_]{2,})")
EDIT_TOOLS = frozenset(
    {
        "edit",
        "write",
        "multiedit",
        "notebookedit",
        "apply_patch",
        "edit_file",
        "write_file",
        "create_file",
        "str_replace_editor",
        "search_replace",
        "str_replace_based_edit_tool",
    }
)
# Tool results that report an edit the agent made (the tool's own words, lower case):
# aider writes "Applied edit to <file>" after each edit it applies (aider/coders).
EDIT_REPORTS: tuple[str, ...] = ("aider applied edit to ",)
# Tool results that report a shell command the agent ran: aider logs "Running <command>"
# once the person accepted the command it suggested.
RUN_REPORTS: tuple[str, ...] = ("aider running ",)
# Sources whose transcripts record every command the agent ran (a tool call, or aider's
# "Running" line): a ```bash block in their replies is a suggestion to the person, not
# a run. SpecStory's older Cursor transcripts show a run only as such a block.
RUNS_RECORDED: frozenset[str] = frozenset({"aider", "claude-code", "codex"})
_SHELL_BLOCK = re.compile(r"```(?:bash|sh|shell|zsh|console|powershell|ps1)\s+(.+?)(?:```|$)", re.S)
_TOKEN = re.compile(r"[^\s;&|()`'\"<>]+")
# Where a clause ends: a forbidding word reaches no further than this.
# A colon after a prohibition opens what to do instead ("never use `agentv` directly:
# run `bun apps/cli/src/cli.ts`").
_CLAUSE = re.compile(r"[.;!?。；！？\n：]|:\s|,\s+(?:and|but|then)\s|，|、")
# Where the object of a writing verb ends: a colon opens a list of what the clause
# names ("Keep the modules' separation of concerns: `main.rs` coordinates …" names
# files, it does not ask to write them).
_OBJECT_GAP = re.compile(r"[:：]")
_HEAD_WORD = re.compile(r"[a-z][a-z0-9:_.-]*")


@dataclass(frozen=True)
class LineActions:
    """The command heads a line prescribes and the ones it forbids."""

    prescribed: tuple[tuple[str, ...], ...] = ()
    forbidden: tuple[tuple[str, ...], ...] = ()
    # The line's situation is itself a step ("before committing"): what it prescribes
    # counts only in a turn that takes that step too.
    situation: tuple[tuple[str, ...], ...] = ()
    # The commands come from the line's code spans; False when only a kind of step is
    # named ("run the tests"), which counts only where the turn meets the line's trigger.
    explicit: bool = True
    # Files the line says to write or update (`CHANGELOG.md`, `VERSION`), and ones it
    # says never to touch: an edit of one by the agent follows or breaks it.
    files: tuple[str, ...] = ()
    forbidden_files: tuple[str, ...] = ()
    # What the line forbids inside a command that is no command itself: an operator or a
    # flag ("do not chain commands with `&&`", "never use `--force`").
    forbidden_literals: tuple[str, ...] = ()
    # The line asks for Conventional Commits messages: a commit's message follows or
    # breaks it.
    commit_style: bool = False
    # The line names a situation ("When testing in a session, … not the global `minsky`"):
    # running what it forbids breaks it only where the turn meets that situation.
    conditional: bool = False
    # Per prescribed head, the flags its span gives that change what the command does
    # (`git commit -s` signs off): a run follows the line only with all of them.
    flags: tuple[tuple[str, ...], ...] = ()
    # Per forbidden head, the flags that make it what the line forbids ("never use `git
    # commit --no-verify`"): a run breaks the line only with all of them.
    forbidden_flags: tuple[tuple[str, ...], ...] = ()
    # What adds a dependency with a package manager rivalling the one prescribed.
    rivals: tuple[tuple[str, ...], ...] = ()
    # Branches the line forbids pushing to ("never push directly to `main`").
    push_forbidden: tuple[str, ...] = ()

    def followed_by(self, ran: list[tuple[str, ...]]) -> tuple[str, ...] | None:
        """The first prescribed head some command in ``ran`` runs with its flags."""
        return _first_run(self.prescribed, self.flags, ran)

    def broken_by(self, ran: list[tuple[str, ...]]) -> tuple[str, ...] | None:
        """The first forbidden head some command in ``ran`` runs with its flags."""
        return _first_run(self.forbidden, self.forbidden_flags, ran)

    def __bool__(self) -> bool:
        return bool(
            self.prescribed
            or self.push_forbidden
            or self.forbidden
            or self.files
            or self.forbidden_files
            or self.forbidden_literals
            or self.commit_style
        )


def _first_run(
    heads: tuple[tuple[str, ...], ...],
    flags: tuple[tuple[str, ...], ...],
    ran: list[tuple[str, ...]],
) -> tuple[str, ...] | None:
    """The first of ``heads`` some command in ``ran`` runs with all of its ``flags``."""
    for k, wanted in enumerate(heads):
        needed = flags[k] if k < len(flags) else ()
        if any(runs([tokens], wanted) and set(needed) <= set(tokens) for tokens in ran):
            return wanted
    return None


def head(command: str) -> tuple[str, ...] | None:
    """The head of a command in a code span, or None when the span is no command.

    >>> head("go test -v ./...")
    ('go', 'test')
    >>> head("mise run fmt")
    ('mise', 'run', 'fmt')
    >>> head("fmt.Println") is None
    True
    """
    tokens = command.strip().split()
    if not tokens:
        return None
    script = _script_head(tokens)
    if script is not None:
        return script
    if tokens[0].lower() not in PROGRAMS:
        return None
    out = [tokens[0].lower()]
    for token in tokens[1:3]:
        if not _HEAD_WORD.fullmatch(token) or "/" in token or "." in token.strip("."):
            break
        out.append(token)
    return tuple(out)


# A project's own script ("cleanup.py", "./scripts/check.sh") and the interpreters that
# run one ("python cleanup.py status").
_SCRIPT = re.compile(
    r"(?:\.{0,2}/)?(?:[\w.-]+/)*([\w-][\w.-]*\.(?:py|sh|bash|js|mjs|cjs|ts|rb|pl|ps1))"
)
_INTERPRETERS = frozenset(
    {
        "python",
        "python3",
        "py",
        "node",
        "bun",
        "deno",
        "tsx",
        "ts-node",
        "bash",
        "sh",
        "zsh",
        "ruby",
        "perl",
    }
)


def _script_head(tokens: list[str]) -> tuple[str, ...] | None:
    """A script run by its name, ``(basename,)``: ``cleanup.py update``, ``./check.sh``
    or ``python cleanup.py`` (not a file named alone, ``src/app.py``, which is no run).
    Its arguments are left out: running the project's script is what a line about it
    asks ("run `cleanup.py status`" is followed by ``python cleanup.py``)."""
    first = tokens[0]
    if first.lower() in _INTERPRETERS and len(tokens) > 1:
        found = _SCRIPT.fullmatch(tokens[1])
        return (found.group(1).lower(),) if found else None
    found = _SCRIPT.fullmatch(first)
    if found is None or not (len(tokens) > 1 or first.startswith(("./", "../"))):
        return None
    return (found.group(1).lower(),)


_CHAIN = re.compile(r"&&|\|\||;")


def _chain_head(command: str) -> tuple[str, ...] | None:
    """The head of the command a chain runs ("cd frontend && bun run css:build" runs
    ``bun run css:build``): the first part that is a command other than ``cd``."""
    for part in _CHAIN.split(command):
        found = head(part)
        if found is not None and found[0] != "cd":
            return found
    return None


def _forbids(before: str) -> bool:
    """The clause text before a span forbids what follows."""
    return lexicon.matcher("command_forbidden").search(before) is not None


@functools.lru_cache(maxsize=4096)
def line_actions(text: str) -> LineActions:
    """What a board line's text prescribes and forbids (see the module docstring)."""
    prescribed: list[tuple[str, ...]] = []
    forbidden: list[tuple[str, ...]] = []
    files: list[str] = []
    forbidden_files: list[str] = []
    literals: list[str] = []
    flags: dict[tuple[str, ...], tuple[str, ...]] = {}
    banned_flags: dict[tuple[str, ...], tuple[str, ...]] = {}
    pushes: list[str] = []
    # Clause marks inside a code span (`;`, `a, b`) end no clause.
    masked = _SPAN.sub(lambda m: "`" + "x" * len(m.group(1)) + "`", text)
    for match in _SPAN.finditer(text):
        start = max((m.end() for m in _CLAUSE.finditer(masked, 0, match.start())), default=0)
        against = _forbids(text[start : match.start()])
        found = _chain_head(match.group(1))
        if found is None:
            name = match.group(1).strip()
            if against and _LITERAL.fullmatch(name):
                literals.append(name)
                continue
            if against and _BRANCH.fullmatch(name) and _PUSH_TO.search(text[start : match.start()]):
                pushes.append(name.lower())
                continue
            lead = text[start : match.start()]
            lead = lead[max((m.end() for m in _OBJECT_GAP.finditer(lead)), default=0) :]
            if _FILE.fullmatch(name) and lexicon.matcher("file_write").search(lead):
                (forbidden_files if against else files).append(name.lower())
            continue
        if against:
            forbidden.append(found)
            banned_flags[found] = banned_flags.get(found, ()) + _flags(match.group(1))
        else:
            prescribed.append(found)
            flags[found] = flags.get(found, ()) + _flags(match.group(1))
    commit_style = lexicon.matcher("conventional_commits").search(text) is not None
    # A commit-message rule is decided by the commits the agent made, wherever it was.
    explicit = bool(prescribed or forbidden or files or forbidden_files or literals or pushes)
    explicit = explicit or commit_style
    if not prescribed:
        # the kind of step the line's direction names: "When running E2E tests, use
        # `/e2e-test-runner`" names tests only as its situation, and asks for no test run
        direction = split_trigger(text)[1]
        for step, heads in STEPS.items():
            if lexicon.matcher(f"step:{step}").search(direction) is not None:
                prescribed.extend(heads)
    situation: list[tuple[str, ...]] = []
    if prescribed or forbidden:
        for step, heads in SITUATIONS.items():
            if lexicon.matcher(f"situation:{step}").search(text) is not None:
                situation.extend(heads)
    heads = tuple(dict.fromkeys(prescribed))
    banned = tuple(dict.fromkeys(forbidden))
    return LineActions(
        heads,
        banned,
        tuple(situation),
        explicit,
        tuple(files),
        tuple(forbidden_files),
        conditional=bool(split_trigger(text)[0]),
        forbidden_literals=tuple(literals),
        commit_style=commit_style,
        flags=tuple(flags.get(h, ()) for h in heads),
        forbidden_flags=tuple(banned_flags.get(h, ()) for h in banned),
        rivals=() if forbidden else _rivals(prescribed),
        push_forbidden=tuple(pushes),
    )


# Flags that change how a command reports, not what it does: a run without them still
# does what the line asks ("`go test -v ./...`" is followed by ``go test ./...``).
_REPORTING_FLAGS = frozenset({"-v", "-vv", "--verbose", "-q", "--quiet", "--color", "--no-color"})


def _pushes_to(ran: list[tuple[str, ...]], branch: str) -> bool:
    """Some command is a ``git push`` naming ``branch`` as what it pushes (``origin
    main``, ``HEAD:main``)."""
    for tokens in ran:
        for i in range(len(tokens) - 1):
            if tokens[i : i + 2] == ("git", "push"):
                args = [t for t in tokens[i + 2 :] if not t.startswith("-")]
                if any(a == branch or a.endswith(":" + branch) for a in args[1:]):
                    return True
    return False


def _flags(span: str) -> tuple[str, ...]:
    """The flags of a command span that change what it does (lower case, as run)."""
    return tuple(
        t for t in _tokens(span) if t.startswith("-") and t.strip("-") and t not in _REPORTING_FLAGS
    )


def shell_commands(turn: Turn) -> list[str]:
    """The shell commands the turn ran, as written: its shell tool calls' inputs, the
    commands a tool reports it ran, and the shell blocks in the agent's replies where
    the transcript records runs no other way (older Cursor transcripts, as SpecStory
    saves them, show a terminal command the agent ran only as a ```bash block)."""
    out = []
    blocks_ran = turn.get("kind") not in RUNS_RECORDED
    for row in turn.get("rows", []):
        if row["type"] == "agent.result":
            if blocks_ran:
                out.extend(_SHELL_BLOCK.findall(row["text"]))
            continue
        if row["type"] == "agent.tool_result":
            low = row["text"].lower()
            for report in RUN_REPORTS:
                if low.startswith(report):
                    out.append(row["text"][len(report) :])
            continue
        if row["type"] != "agent.tool_use":
            continue
        name, _, rest = row["text"].partition(" ")
        if name.lower() in SHELL_TOOLS:
            out.append(rest)
    return out


def commands_run(turn: Turn) -> list[tuple[str, ...]]:
    """The token lists (lower case) of :func:`shell_commands`."""
    return [_tokens(c) for c in shell_commands(turn)]


def _tokens(command: str) -> tuple[str, ...]:
    """Lower-case tokens, a script path by its name (``./scripts/check.sh`` runs
    ``check.sh``, as a line names it)."""
    out = []
    for token in _TOKEN.findall(command):
        found = _SCRIPT.fullmatch(token)
        out.append((found.group(1) if found else token).lower())
    return tuple(out)


def checks_after_changes(turn: Turn) -> list[tuple[str, ...]]:
    """The shell commands a turn ran after its last file edit, when it edited at all:
    what it checked its changes with (for a step the next turn takes, see
    :func:`action_evidence`). A turn that changed nothing checked nothing of its own."""
    rows = turn.get("rows", [])
    last_edit = -1
    for k, row in enumerate(rows):
        if edit_of(row) is not None:
            last_edit = k
    if last_edit < 0:
        return []
    return commands_run({**turn, "rows": rows[last_edit + 1 :]})


# A commit command's message: the first -m argument, quoted or a bare word.
_COMMIT_MESSAGE = re.compile(
    r"\bgit\s+(?:-C\s+\S+\s+)?commit\b[^\n]*?\s-(?:m|-message)[ =]?(?:\"([^\"]+)|'([^']+)|(\S+))"
)
# The Conventional Commits subject (conventionalcommits.org): a type, an optional scope,
# an optional "!", then ": ".
_CONVENTIONAL = re.compile(
    r"(?:feat|fix|chore|refactor|docs|test|tests|style|perf|build|ci|revert)(?:\([^)]*\))?!?: \S"
)


# A message written through a here-document, as Claude Code writes every commit:
# git commit -m "$(cat <<'EOF'\nfix: …\nEOF\n)".
_HEREDOC_LEAD = re.compile(r"^\$\(\s*cat\s+<<-?\s*['\"]?\w+['\"]?\s*")


def commit_messages(commands: list[str]) -> list[str]:
    """The messages of the commits among ``commands`` that give one with -m (a
    here-document's text, not the shell around it)."""
    out = []
    for command in commands:
        for match in _COMMIT_MESSAGE.finditer(command):
            message = next(g for g in match.groups() if g is not None)
            out.append(_HEREDOC_LEAD.sub("", message.strip()).strip())
    return out


def _holds(command: str, literal: str) -> bool:
    """``command`` holds the operator or flag ``literal`` as a word of its own (not
    inside a longer one: ``|`` is not in ``||``, ``-f`` not in ``-fx``)."""
    escaped = re.escape(literal)
    return re.search(rf"(?<![\w&|;>-]){escaped}(?![\w&|;>-])", command) is not None


def runs(commands: Iterable[tuple[str, ...]], wanted: tuple[str, ...]) -> bool:
    """Some command holds ``wanted`` as consecutive tokens (a program at a word start)."""
    n = len(wanted)
    for tokens in commands:
        for i in range(len(tokens) - n + 1):
            if tokens[i : i + n] == wanted:
                return True
    return False


@dataclass(frozen=True)
class ActionEvidence:
    """One line the turn's commands bear on: followed (True) or broken, and the command."""

    index: int
    followed: bool
    command: str


def action_evidence(
    turn: Turn,
    actions: list[LineActions],
    triggered: Callable[[], set[int]],
    before: Callable[[], list[tuple[str, ...]]] | None = None,
) -> list[ActionEvidence]:
    """The lines whose prescribed or forbidden commands the turn ran (board order).
    ``triggered()`` gives the lines whose trigger the turn's words meet (asked only
    when a line names a kind of step rather than a command). ``before()`` gives what
    the session's previous turn ran after its last edit
    (:func:`checks_after_changes`): a line whose situation is a step ("before
    committing, run `mise run fmt`") is followed when the turn takes the step and the
    command ran in it, or checked the changes of the turn just before ("fix the
    lint" ... "commit this")."""
    raw = shell_commands(turn)
    ran = [_tokens(c) for c in raw]
    earlier: list[tuple[str, ...]] | None = None

    def edited() -> list[str]:
        return files_edited(turn)

    edited_cache: list[str] | None = None
    if not ran and not any(a.files or a.forbidden_files for a in actions):
        return []
    out = []
    met: set[int] | None = None
    for i, acts in enumerate(actions):
        if not acts:
            continue
        if acts.situation:
            if not any(runs(ran, h) for h in acts.situation):
                continue  # the line's situation did not arise in this turn
        elif not acts.explicit:
            met = triggered() if met is None else met
            if i not in met:
                continue
        broken = acts.broken_by(ran)
        if broken is None and acts.rivals:
            # "uv pip install" adds through uv: a rival counts only without the
            # prescribed program in the same command
            own = {h[0] for h in acts.prescribed}
            broken = next(
                (h for h in acts.rivals for t in ran if runs([t], h) and not own & set(t)),
                None,
            )
        if broken is None and acts.push_forbidden:
            broken = next(
                (("pushed to", b) for b in acts.push_forbidden if _pushes_to(ran, b)), None
            )
        if broken is None and acts.forbidden_literals:
            broken = next(
                (
                    ("used", lit)
                    for lit in acts.forbidden_literals
                    if any(_holds(c, lit) for c in raw)
                ),
                None,
            )
        if broken is not None and acts.conditional and not acts.situation:
            met = triggered() if met is None else met
            if i not in met:
                broken = None
        if broken is not None:
            out.append(ActionEvidence(i, False, " ".join(broken)))
            continue
        done = acts.followed_by(ran)
        if done is None and acts.situation and before is not None:
            earlier = before() if earlier is None else earlier
            done = acts.followed_by(earlier)
        if done is not None:
            out.append(ActionEvidence(i, True, " ".join(done)))
            continue
        if acts.commit_style:
            messages = commit_messages(raw)
            if messages:
                bad = next((m for m in messages if not _CONVENTIONAL.match(m)), None)
                message = bad if bad is not None else messages[0]
                out.append(ActionEvidence(i, bad is None, f'committed "{message[:60]}"'))
                continue
        touched = edited() if edited_cache is None else edited_cache
        edited_cache = touched
        bad = next((f for f in acts.forbidden_files if _names(touched, f)), None)
        if bad is not None and not (acts.conditional and i not in (met := met or triggered())):
            out.append(ActionEvidence(i, False, f"edited {bad}"))
            continue
        wrote = next((f for f in acts.files if _names(touched, f)), None)
        if wrote is not None:
            out.append(ActionEvidence(i, True, f"edited {wrote}"))
    return out


def commands_named(
    text: str, actions: list[LineActions], min_words: int = 1, *, bare: bool = False
) -> set[int]:
    """Lines whose own commands (from their code spans) the user's ``text`` names:
    "why didn't you run `mise run fmt`", "we should always run `go test`". A one-word
    head counts only inside a code span (or, with ``bare``, anywhere: right after the
    person stopped the agent, "Use uv pip" names the program to use), so a program
    named in passing is not enough; ``min_words`` leaves out shorter heads (a program's
    bare name is how one uses it, not a request to run the line's step)."""
    low = text.lower()
    spans = [_tokens(m.group(1)) for m in _SPAN.finditer(low)]
    words = _tokens(low)
    found = set()
    for i, acts in enumerate(actions):
        if not acts.explicit:
            continue
        for wanted in acts.prescribed:
            if len(wanted) < min_words:
                continue
            if runs(spans, wanted) or ((bare or len(wanted) >= 2) and runs([words], wanted)):
                found.add(i)
                break
    return found


_WORD = re.compile(r"[a-z0-9_]+")


def files_named(text: str, actions: list[LineActions]) -> set[int]:
    """Lines whose files to write the user's ``text`` names, by the file's name without
    its extension and in any case, as the object of a verb of writing ("update the
    changelog" names `CHANGELOG.md`, "bump the version" and "update version and
    changelog" name `VERSION`; "the new version of the script" names no file)."""
    low = text.lower()
    written = _written_words(low)
    if not written:
        return set()
    found = set()
    for i, acts in enumerate(actions):
        for file in acts.files:
            stem = file.rsplit("/", 1)[-1].split(".", 1)[0]
            if len(stem) >= 4 and stem in written:
                found.add(i)
                break
    return found


# How many words may stand between a verb of writing and the file it names ("update
# the version", "update version and changelog").
_OBJECT_WINDOW = 3


def _written_words(low: str) -> set[str]:
    """The words of ``low`` a verb of writing governs: each within ``_OBJECT_WINDOW``
    words after such a verb."""
    verbs = [m.end() for m in lexicon.matcher("file_write").finditer(low)]
    if not verbs:
        return set()
    words = list(_WORD.finditer(low))
    out: set[str] = set()
    for end in verbs:
        after = [w.group(0) for w in words if w.start() >= end]
        out.update(after[:_OBJECT_WINDOW])
    return out


def skipped(turn: Turn, acts: LineActions) -> bool:
    """The agent worked in the turn and did none of what the line prescribes: ran none
    of its commands and wrote none of its files. (Some transcripts show an edit only
    as prose, so the work is any tool call or reply, not an edit.)"""
    edited = files_edited(turn)
    ran = commands_run(turn)
    if any(runs(ran, h) for h in acts.prescribed):
        return False
    return not any(_names(edited, f) for f in acts.files)


def asks_instead(
    turn: Turn, lines_asking_not_to_ask: list[int], situations: list[frozenset[str]]
) -> list[ActionEvidence]:
    """The agent closed the turn by offering its next step ("Would you like me to …?",
    "下一步可以…") where a line says to act without asking: that line is broken. A line
    with a situation of its own ("if Supabase needs updating, update it directly") is
    broken only by an offer about that situation (one of its trigger cues).
    ``situations`` are each line's situation cues (empty: it has none), by board index;
    an offer meets a situation with two of its cues (one when it has one)."""
    if not lines_asking_not_to_ask:
        return []
    replies = [r["text"] for r in turn.get("rows", []) if r["type"] == "agent.result"]
    if not replies:
        return []
    # An excerpt's cut mark is not the reply's end.
    last = replies[-1].strip().removesuffix("[…]").rstrip()
    if lexicon.matcher("agent_offer").search(last[-300:]) is None:
        return []
    said = token_set(last[-300:])
    return [
        ActionEvidence(i, False, "asked before acting")
        for i in lines_asking_not_to_ask
        if len(situations[i] & said) >= min(2, len(situations[i]))
    ]


# A phrase a line quotes: straight or curly double quotes, or CJK corner brackets.
_QUOTED = re.compile(r'["\u201c\u300c]([^"\u201d\u300d\n]{4,160})["\u201d\u300d]')
# Where a quoted phrase's fixed words end: a placeholder ("[specific thing]", "<name>").
_PLACEHOLDER = re.compile(r"[\[<{(\uff08\u3010]")
_SAY_REACH = 40  # characters before the quote the verb that introduces it may stand in
_SPACES = re.compile(r"\s+")


@functools.lru_cache(maxsize=4096)
def line_phrases(text: str) -> tuple[str, ...]:
    """The words a line tells the agent to say, lower case: a quoted phrase right after
    a verb of saying (``say "I need clarification on [specific thing]"`` -> ``i need
    clarification on``), cut at its first placeholder; three words at least (four
    characters in an unspaced language), so a quoted name or a single word is none."""
    say = lexicon.matcher("say_verb")
    out: list[str] = []
    for match in _QUOTED.finditer(text):
        if say.search(text[max(0, match.start() - _SAY_REACH) : match.start()]) is None:
            continue
        fixed = _PLACEHOLDER.split(match.group(1), 1)[0]
        phrase = _SPACES.sub(" ", fixed).strip(" ,.:;!?").lower()
        if len(phrase.split()) >= 3 or (not phrase.isascii() and len(phrase) >= 4):
            out.append(phrase)
    return tuple(out)


# Kinds of speech a line may forbid the agent (lexicon ``speech:<kind>``).
SPEECH: tuple[str, ...] = ("apology",)


def line_speech(text: str) -> tuple[str, ...]:
    """The kinds of speech a line forbids the agent ("Never use apologies", "不要道歉"):
    a kind named after a forbidding word in its clause."""
    out = []
    for kind in SPEECH:
        found = lexicon.matcher(f"speech:{kind}").search(text)
        if found is None:
            continue
        start = max((m.end() for m in _CLAUSE.finditer(text, 0, found.start())), default=0)
        if _forbids(text[start : found.start()]):
            out.append(kind)
    return tuple(out)


def speech_evidence(turn: Turn, unsaid: list[tuple[str, ...]]) -> list[ActionEvidence]:
    """The lines whose forbidden kind of speech the agent's replies in the turn hold
    (broken: "I apologize for the confusion" against "Never use apologies")."""
    if not any(unsaid):
        return []  # the common board forbids no speech: no reply is read
    replies = "\n".join(r["text"] for r in turn.get("rows", []) if r["type"] == "agent.result")
    if not replies:
        return []
    out = []
    for i, kinds in enumerate(unsaid):
        for kind in kinds:
            found = lexicon.matcher(f"speech:{kind}").search(replies)
            if found is not None:
                out.append(ActionEvidence(i, False, f'said "{found.group(0).lower()}"'))
                break
    return out


def said_evidence(turn: Turn, phrases: list[tuple[str, ...]]) -> list[ActionEvidence]:
    """The lines whose quoted words the agent's replies in the turn say (followed)."""
    if not any(phrases):
        return []  # the common board quotes no words to say: no reply is read
    replies = [r["text"] for r in turn.get("rows", []) if r["type"] == "agent.result"]
    if not replies:
        return []
    said = _SPACES.sub(" ", " ".join(replies)).lower()
    out = []
    for i, wanted in enumerate(phrases):
        hit = next((p for p in wanted if p in said), None)
        if hit is not None:
            out.append(ActionEvidence(i, True, f'said "{hit}"'))
    return out


def edit_of(row: TurnRow) -> str | None:
    """What a row edited, lower case (a file-writing tool call's input, or the file a
    tool reports it edited), or None when the row is no edit."""
    if row["type"] == "agent.tool_use":
        name, _, rest = row["text"].partition(" ")
        return rest.lower() if name.lower() in EDIT_TOOLS else None
    if row["type"] == "agent.tool_result":
        low = row["text"].lower()
        for report in EDIT_REPORTS:
            if low.startswith(report):
                return low[len(report) :]
    return None


def files_edited(turn: Turn) -> list[str]:
    """The lower-cased inputs of the turn's file-writing tool calls (paths in them), and
    the files its tools report they edited."""
    return [edit for row in turn.get("rows", []) if (edit := edit_of(row)) is not None]


def _names(edited: list[str], file: str) -> bool:
    """Some edit's input names ``file`` as a whole path component."""
    pattern = re.compile(rf"(?:^|[\s/\\`'\"]){re.escape(file)}(?:$|[\s`'\",:;)])")
    return any(pattern.search(text) for text in edited)
