"""`subcon commit`, `subcon review`, `subcon audit` through ``workers.cli.main``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from shared.kernel.paths import KernelPaths
from shared.review.gates.rules import RULES
from testing.gitrepo import BAD_LINE, BOARD, DOSSIER, GOOD_LINE, git, head, status, write
from workers.cli import main


def cli(paths: KernelPaths, *args: str) -> int:
    return main(["--kernel", str(paths.kernel), "--runtime", str(paths.runtime), *args])


def test_commit_json_and_audit(repo: KernelPaths, capsys: pytest.CaptureFixture[str]) -> None:
    write(repo.kernel, "memory/CLAUDE.md", BOARD + BAD_LINE)
    write(repo.kernel, "memory/entities/beta.md", DOSSIER)
    repo.subcon_state_dir.mkdir(parents=True)
    (repo.subcon_state_dir / "tick.json").write_text('{\n  "tick": 41\n}\n', "utf-8")
    assert cli(repo, "commit", "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["outcome"] == "committed"
    assert report["text"].startswith(f"Committed: {report['short']} (1 files). ")
    assert report["rejected"][0]["gate"] == "self-reference"
    assert "Meta-Tick: 41" in git(repo.kernel, "log", "-1", "--format=%B")
    assert cli(repo, "audit", "--json", "--file", "memory/CLAUDE.md") == 0
    records = json.loads(capsys.readouterr().out)
    assert [(r["decision"], r["line"], r["tick"]) for r in records] == [("held", 4, 41)]
    # the audit record names the rule that held the line back, as the report does
    assert records[0]["rule"] == "self-reference.memory-maintenance-line"
    assert report["rejected"][0]["rule"] == records[0]["rule"]
    assert cli(repo, "audit") == 0
    text = capsys.readouterr().out
    assert (
        "held memory/CLAUDE.md:4 self-reference.memory-maintenance-line "
        "self-reference: memory-maintenance line"
    ) in text


def test_commit_plain_text_and_dry_run(
    repo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    write(repo.kernel, "memory/CLAUDE.md", BOARD + GOOD_LINE)
    before = head(repo.kernel)
    assert cli(repo, "commit", "--dry-run") == 0
    out = capsys.readouterr()
    assert out.out == "Dry run: would commit 1 files. Add 1 broadcast line.\n"
    assert out.err == ""  # a dry run writes no audit record, not even to stderr
    assert not (repo.runtime / "var").exists() or not list(repo.runtime.rglob("audit/*.jsonl"))
    assert head(repo.kernel) == before and status(repo.kernel) == " M memory/CLAUDE.md\n"
    assert cli(repo, "commit") == 0
    assert capsys.readouterr().out.startswith("Committed: ")
    assert cli(repo, "commit") == 0
    assert capsys.readouterr().out == "NO_NEW_GRADIENT\nskipped: no allowlisted changes\n"


def test_commit_missing_kernel_is_a_config_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["--kernel", str(tmp_path / "nope"), "--runtime", str(tmp_path), "commit"])
    assert code == 2
    assert "does not exist" in capsys.readouterr().err


def test_review_json_and_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "memory" / "CLAUDE.md"
    write(tmp_path, "memory/CLAUDE.md", BOARD + BAD_LINE + "- 用户喜欢简洁的回答。\n")
    assert main(["review", "--json", str(board)]) == 1
    rows = json.loads(capsys.readouterr().out)
    assert [(r["line"], r["decision"], r["gate"]) for r in rows] == [
        (3, "approve", None),
        (4, "reject", "self-reference"),
        (5, "reject", "gradient"),
    ]
    keys = {"file", "line", "decision", "gate", "rule", "reading", "reason", "why", "text", "kind"}
    assert set(rows[0]) == keys
    assert {r["kind"] for r in rows} == {"board"}
    assert rows[0]["reason"] is None and rows[2]["reason"] == "gradient: missing concrete trigger"
    # each rejected line names the rule that decided it
    assert [r["rule"] for r in rows] == [
        None,
        "self-reference.memory-maintenance-line",
        "gradient.missing-concrete-trigger",
    ]
    assert main(["review", str(board)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[2] == (
        f"{board}:5: reject gradient.missing-concrete-trigger "
        "`gradient: missing concrete trigger`: 用户喜欢简洁的回答。"
    )
    clean = write(tmp_path, "memory/entities/a.md", DOSSIER)
    assert main(["review", str(clean)]) == 0
    assert capsys.readouterr().out == (
        f"{clean}: reviewed as dossier (from its path): 1 approved, 0 rejected\n"
        "1 approved, 0 rejected\n"
    )


def test_review_names_the_reading_a_rule_decided_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the gradient gate tried the line without its closing note and still rejects it as
    # written (a line the precedent judge is sure of, p ~0.9, so a refit leaves it alone);
    # an item under a heading of what not to do is read as a prohibition
    text = (
        "- Performance is important (see benchmarks)\n\n## 禁止事项\n\n- 把订单金额存成浮点数。\n"
    )
    board = write(tmp_path, "memory/CLAUDE.md", text)
    assert main(["review", "--json", str(board)]) == 1
    rows = json.loads(capsys.readouterr().out)
    assert [(r["rule"], r["reading"]) for r in rows if r["decision"] == "reject"] == [
        ("gradient.missing-concrete-trigger", "as written"),
        ("summoning.no-recognizable-trigger", "as a prohibition under its heading"),
    ]
    assert main(["review", str(board)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1] == (
        f"{board}:1: reject gradient.missing-concrete-trigger [as written] "
        "`gradient: missing concrete trigger`: Performance is important (see benchmarks)"
    )


def test_review_names_the_reading_that_passed_a_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # as written a labelled setting names no situation; read without its label it is a
    # concrete setting and passes, and the review says so and which rule it escaped
    board = write(tmp_path, "memory/CLAUDE.md", "- **Board:** RP2040 only\n")
    assert main(["review", "--json", str(board)]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["decision"], row["reason"]) == ("approve", None)
    assert (row["rule"], row["reading"]) == (
        "gradient.missing-concrete-trigger",
        "without its label",
    )
    assert main(["review", str(board)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == (
        f"{board}:1: approve [without its label] over gradient.missing-concrete-trigger "
        "as written: **Board:** RP2040 only"
    )


def test_a_held_line_audits_the_reading_its_rule_decided_on(
    repo: KernelPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    write(repo.kernel, "memory/CLAUDE.md", BOARD + "- Performance is important (see benchmarks)\n")
    assert cli(repo, "commit", "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert [(r["rule"], r["reading"]) for r in report["rejected"]] == [
        ("gradient.missing-concrete-trigger", "as written")
    ]
    assert cli(repo, "audit", "--json", "--file", "memory/CLAUDE.md") == 0
    (held,) = json.loads(capsys.readouterr().out)
    assert (held["decision"], held["rule"], held["reading"]) == (
        "held",
        "gradient.missing-concrete-trigger",
        "as written",
    )
    assert cli(repo, "audit") == 0
    assert "gradient.missing-concrete-trigger [as written] gradient:" in capsys.readouterr().out


def test_review_rules_lists_the_catalog(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "--rules"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == f"{len(RULES)} rules"
    line = next(x for x in out if x.startswith("gradient.missing-concrete-trigger "))
    assert re.search(
        r"  gradient: missing concrete trigger  examples: \d+ reject, \d+ approve \(en, zh\)$", line
    )
    assert main(["review", "--rules", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["rule"] for r in rows] == list(RULES)
    secret = next(r for r in rows if r["rule"] == "secret.credential")
    assert secret["gate"] == "secret" and secret["reason"] == "secret: credential"
    assert secret["examples"]["reject"] >= 1 and secret["examples"]["approve"] >= 1
    assert main(["review", "--rules", "memory/CLAUDE.md"]) == 2
    assert main(["review"]) == 2


def test_review_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"ok\n\xff\n")
    assert main(["review", str(bad)]) == 2
    assert f"{bad}:2:1: not valid UTF-8" in capsys.readouterr().err
    assert main(["review", str(tmp_path / "missing.md")]) == 2


def test_review_says_when_the_precedent_judge_passed_a_rejected_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A real tune line a written gate rejects and the shipped judge is sure a careful
    # reader approves (the corpus row has no heading either).
    line = "减少小标题使用，倾向用简洁易懂的方式回答。"
    board = write(tmp_path, "memory/CLAUDE.md", f"- {line}\n")
    assert main(["review", "--json", str(board)]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["decision"] == "approve" and row["gate"] is None
    assert row["reason"].startswith("precedent: approved over `gradient: ")
    # the approval names the rule it overruled, in its reason and in "rule"
    assert row["rule"].startswith("gradient.") and f"({row['rule']}, p=" in row["reason"]
    assert main(["review", str(board)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == f"{board}:1: approve ({row['reason']}): {line}"
