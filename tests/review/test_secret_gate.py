"""The secret gate: a credential in any allowlisted file is rejected, never passed by the
precedent judge, and its value never quoted by review, audit or report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared.language.claims import analyse
from shared.review.allowlist import FileKind
from shared.review.gates import secret
from shared.review.gates.base import ReviewContext
from shared.review.gates.registry import review_claim, review_ruling
from shared.review.reviewer import review_paths

FAKE = "ghp_" + "Zq9XwL2mNc8vRt5YpK3sJd7Hf4Gb6An1Ue0W"  # valid-shaped, not a real token
CORPUS = Path(__file__).resolve().parent.parent / "corpora" / "gates" / "lines.jsonl"


@pytest.mark.parametrize("kind", list(FileKind))
def test_a_credential_is_rejected_in_every_file_kind_without_its_value(kind: FileKind) -> None:
    line = f"When deploying, authenticate with {FAKE} as the token"
    finding = review_claim(line, ReviewContext("x", kind))
    assert finding is not None and finding.gate == "secret"
    assert finding.reason == "secret: credential (github-token)"
    assert FAKE[4:16] not in finding.reason + finding.why


def test_the_precedent_judge_never_passes_a_credential() -> None:
    line = f"- When calling the GitHub API, use the token {FAKE} [[lesson-gh]]"
    ruling = review_ruling(line, ReviewContext("memory/CLAUDE.md", FileKind.BOARD))
    assert ruling.finding is not None and ruling.finding.gate == "secret"


def test_review_output_quotes_the_line_with_the_value_replaced(tmp_path: Path) -> None:
    board = tmp_path / "memory" / "CLAUDE.md"
    board.parent.mkdir()
    board.write_text(
        f"# B\n\n- When calling the API, send `Authorization: Bearer {FAKE}` [[lesson-a]]\n"
        "- When deploying, run the smoke tests first [[lesson-b]]\n",
        encoding="utf-8",
    )
    decisions = review_paths([board])
    rejected = [d for d in decisions if d.gate == "secret"]
    assert len(rejected) == 1 and "[redacted:" in rejected[0].text
    assert all(FAKE[4:16] not in json.dumps(d.__dict__) for d in decisions)


def test_no_real_memory_line_of_the_gates_corpus_is_taken_for_a_credential() -> None:
    """False positives on the 5,029 real lines: at most 0.5% (issue #30)."""
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    ctx = ReviewContext("", FileKind.BOARD)
    flagged = [r["text"] for r in rows if secret.check(analyse(r["text"]), ctx) is not None]
    assert len(rows) >= 5000 and len(flagged) <= 0.005 * len(rows), flagged[:5]


def test_the_committer_holds_back_a_file_with_a_credential_and_audits_no_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess

    from shared.kernel.paths import KernelPaths
    from shared.settings import Settings
    from shared.setup.bootstrap import init_kernel
    from workers.embedded import run_partition

    for name in ("SUBCON_BROKER_URL", "SUBCON_REDIS_URL", "SUBCON_RESULT_BACKEND"):
        monkeypatch.delenv(name, raising=False)
    paths = KernelPaths(kernel=tmp_path / "k", runtime=tmp_path / "r")
    init_kernel(paths, demo=False, force=False)
    dossier = paths.entities_dir / "deploy-bot.md"
    dossier.parent.mkdir(parents=True, exist_ok=True)
    dossier.write_text(
        f"# deploy-bot\n\n- Deploys through GitHub with the token {FAKE} (see ci.yml)\n",
        encoding="utf-8",
    )
    report = run_partition(Settings(kernel_dir=paths.kernel, runtime_dir=paths.runtime),
                           "memory-committer")  # fmt: skip
    assert "memory/entities/deploy-bot.md" in json.dumps(report)
    status = subprocess.run(
        ["git", "-C", str(paths.kernel), "status", "--porcelain", "-uall"],
        capture_output=True,
        text=True,
    ).stdout
    assert "deploy-bot.md" in status  # held back, not committed
    objects = subprocess.run(
        ["git", "-C", str(paths.kernel), "cat-file", "--batch-all-objects", "--batch"],
        capture_output=True,
    ).stdout
    assert FAKE[4:16].encode() not in objects
    audit = b"".join(p.read_bytes() for p in paths.audit_dir.glob("*.jsonl"))
    assert b"secret: credential (github-token)" in audit and FAKE[4:16].encode() not in audit
    assert FAKE[4:16] not in json.dumps(report)
