"""The precedent judge: features, a deterministic fit, the shipped file, the second opinion."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from bench.precedent.__main__ import model_bytes
from bench.quality import CORPUS, context
from shared.errors import ConfigError
from shared.review.allowlist import FileKind
from shared.review.gates.base import Finding, ReviewContext
from shared.review.gates.registry import GATE_SETS, review_claim, review_rules, review_ruling
from shared.review.gates.second_opinion import PASSED, second_opinion
from shared.review.logical_lines import logical_lines
from shared.review.precedent.features import (
    heading_runs,
    letter_runs,
    readable,
    vector,
    word_runs,
)
from shared.review.precedent.model import MODEL_PATH, Model, dump, parse, shipped
from shared.review.precedent.training import Example, fit, rarity
from shared.setup.demo.board import ENTITY, ENTITY_SLUG, TOPICS

BOARD_GATES = GATE_SETS[FileKind.BOARD]


def test_letter_runs_read_chinese_and_english_alike() -> None:
    zh = letter_runs("提交前运行测试")
    assert zh["c:测试"] == 1 and zh["c: 提交前"] == 1 and zh["c:试 "] == 1
    en = letter_runs("Run tests")
    assert en["c: ru"] == 1 and en["c:sts "] == 1 and "c:n t" not in en  # not across words
    assert word_runs("Run the tests")["w:the tests"] == 1


def test_kernel_structure_is_not_read() -> None:
    line = "[observation] When asked, answer first [[groove-answers]] Details: memory/topics/a.md"
    text = readable(line)
    assert "observation" not in text and "groove" not in text and "memory/topics" not in text
    assert "When asked, answer first" in text
    idf = {"w:groove": 1.0, "w:answer": 1.0}
    assert set(vector(line, False, idf)) == {"w:answer"}


def test_the_heading_is_read_apart_from_the_line() -> None:
    assert heading_runs("Current Status") == {"h:current": 1, "h:status": 1}
    idf = {"w:status": 1.0, "h:status": 1.0}
    assert set(vector("status", False, idf, "Status")) == {"w:status", "h:status"}
    assert set(vector("status", False, idf)) == {"w:status"}


def test_rarity_keeps_runs_seen_in_two_lines_and_weights_rare_ones_higher() -> None:
    idf = rarity([Example("run tests", False, None), Example("run lint", False, None)])
    assert "w:tests" not in idf  # one line only
    assert idf["c: r"] == pytest.approx(1.0)  # in every line: the floor


def _toy() -> list[Example]:
    good = [f"Before each {w} run the {w} suite with pytest" for w in ("push", "merge", "tag")]
    bad = [f"Embrace {w} and be excellent always" for w in ("quality", "clarity", "care")]
    return [Example(t, False, None) for t in good] + [Example(t, False, "gradient") for t in bad]


def test_fit_is_deterministic_and_separates_what_it_was_shown() -> None:
    a, b = fit(_toy(), c=3.0), fit(_toy(), c=3.0)
    assert dump(a, c=3.0, reject_at=0.7, approve_below=0.1, digest="x") == dump(
        b, c=3.0, reject_at=0.7, approve_below=0.1, digest="x"
    )
    model = parse(dump(a, c=3.0, reject_at=0.7, approve_below=0.1, digest="x").splitlines(), "toy")
    assert model.opinion("Embrace excellence and be excellent", False).reject > 0.5
    assert model.opinion("Before each release run the suite with pytest", False).reject < 0.5
    assert set(model.centroids) == {"gradient"}


@pytest.mark.slow  # a refit of the judge on the whole tune part
def test_shipped_model_is_the_fit_of_the_tune_rows_alone(tmp_path: Path) -> None:
    # Refit on a copy of the corpus with every held-out row removed: the same bytes, so
    # no held-out row had any say, and the shipped file is in step with the corpus.
    rows = [orjson.loads(x) for x in CORPUS.read_bytes().splitlines() if x.strip()]
    tune_only = tmp_path / "lines.jsonl"
    tune_only.write_bytes(b"\n".join(orjson.dumps(r) for r in rows if r["split"] == "tune"))
    assert any(r["split"] == "heldout" for r in rows)
    assert model_bytes(tune_only) == MODEL_PATH.read_bytes(), "refit: python -m bench.precedent fit"


def test_a_malformed_model_file_names_its_line() -> None:
    head = orjson.dumps(
        {
            "rows": 1,
            "c": 1.0,
            "bias": 0.0,
            "reject_at": 0.7,
            "approve_below": 0.1,
            "gates": ["gradient"],
            "digest": "x",
        }
    )
    with pytest.raises(ConfigError, match=r"m\.jsonl:3: malformed precedent feature"):
        parse([head, b'["w:a", 1.0, 0.5, [0.1]]', b'["w:b", 1.0]'], "m.jsonl")
    with pytest.raises(ConfigError, match=r"m\.jsonl:1: malformed precedent header"):
        parse([b'{"rows": 1}'], "m.jsonl")
    with pytest.raises(ConfigError, match=r"m\.jsonl:1: empty precedent model"):
        parse([], "m.jsonl")


def _model(weight: float, dossier_reject_at: float | None = None) -> Model:
    """One feature, ``w:slogan``; its weight sets the reject probability of a line with it."""
    idf = {"w:slogan": 1.0, "w:plain": 1.0}
    centroids = {
        "dossier": {"w:slogan": 0.9},  # nearest, but not a board gate
        "gradient": {"w:slogan": 0.5},
        "summoning": {"w:slogan": 0.1},
    }
    return Model(idf, {"w:slogan": weight}, 0.0, centroids, 7, 0.7, 0.1, "x", dossier_reject_at)


RULE = Finding("gradient", "gradient: no action direction", "why")


def test_a_sure_reject_overrules_a_pass_under_the_nearest_board_gate() -> None:
    ruling = second_opinion("a slogan", FileKind.BOARD, "", BOARD_GATES, None, _model(5.0))
    found = ruling.finding
    assert found is not None and found.gate == "gradient" and ruling.overruled is None
    assert found.reason == "gradient: reads like labelled gradient rejects (precedent p=0.99)"
    assert "7 labelled real memory lines" in found.why and "p=0.99" in found.why
    assert "'slogan'" in found.why
    # the judge's reject is a rule of its own, under the gate it put the line with
    assert found.rule == "gradient.precedent"


def test_a_sure_approve_overrules_a_reject_and_keeps_what_it_overruled() -> None:
    ruling = second_opinion("a slogan", FileKind.BOARD, "", BOARD_GATES, RULE, _model(-5.0))
    assert ruling.finding is None and ruling.overruled is RULE
    assert ruling.reject is not None and ruling.reject < 0.01
    # the approval names the rule it overruled
    assert RULE.rule == "gradient.no-action-direction"
    assert ruling.note == (
        "precedent: approved over `gradient: no action direction` "
        "(gradient.no-action-direction, p=0.01)"
    )


def test_an_internal_source_is_never_passed() -> None:
    inner = Finding("inner-outer", "inner-outer: internal source only", "why")
    ruling = second_opinion("a slogan", FileKind.BOARD, "", BOARD_GATES, inner, _model(-5.0))
    assert ruling.finding is inner and ruling.overruled is None


def test_only_gradient_rejects_are_passed() -> None:
    # on the repository-grouped cross-validation the judge's approvals of other gates'
    # rejects lost more true rejects than they saved good lines
    assert {"gradient"} == PASSED
    for gate, reason in (
        ("summoning", "summoning: no replacement action"),
        ("status-shape", "status-shape: run state"),
        ("self-reference", "self-reference: memory system"),
    ):
        rejected = Finding(gate, reason, "why")
        ruling = second_opinion("a slogan", FileKind.BOARD, "", BOARD_GATES, rejected, _model(-5.0))
        assert ruling.finding is rejected and ruling.overruled is None


def test_doubt_keeps_the_rules_verdict() -> None:
    # p = 0.5: between the thresholds, both verdicts stand
    assert (
        second_opinion("plain", FileKind.BOARD, "", BOARD_GATES, RULE, _model(5.0)).finding is RULE
    )
    kept = second_opinion("plain", FileKind.BOARD, "", BOARD_GATES, None, _model(5.0))
    assert kept.finding is None and kept.overruled is None


def test_topics_prompts_and_configs_keep_the_rules_verdict() -> None:
    sure = _model(5.0, dossier_reject_at=0.7)
    for kind in (FileKind.TOPIC, FileKind.PROMPT, FileKind.CONFIG, FileKind.PLAYLIST):
        ruling = second_opinion("a slogan", kind, "", GATE_SETS[kind], None, sure)
        assert ruling.finding is None and ruling.reject is None


def test_dossiers_are_judged_only_when_the_model_names_a_threshold() -> None:
    kind = FileKind.DOSSIER
    ruling = second_opinion("a slogan", kind, "", GATE_SETS[kind], None, _model(5.0))
    assert ruling.finding is None and ruling.reject is None


def test_a_sure_dossier_reject_goes_under_the_nearest_dossier_gate() -> None:
    kind = FileKind.DOSSIER
    ruling = second_opinion(
        "a slogan", kind, "", GATE_SETS[kind], None, _model(5.0, dossier_reject_at=0.7)
    )
    found = ruling.finding
    assert found is not None and found.gate == "dossier" and found.rule == "dossier.precedent"


def test_the_demo_kernels_topics_and_dossier_keep_the_rules_verdict() -> None:
    # subcon's own demo kernel: grooves and lessons (topics, not judged) and an entity
    # dossier in the kernel's format, every line of which the rules pass
    files = {f"memory/topics/{slug}.md": text for slug, text in TOPICS.items()}
    files[f"memory/entities/{ENTITY_SLUG}.md"] = ENTITY
    for path, text in files.items():
        kind = FileKind.DOSSIER if "/entities/" in path else FileKind.TOPIC
        for line in logical_lines(text):
            ctx = ReviewContext(path, kind, line.section, line.headings)
            assert review_claim(line.text, ctx) == review_rules(line.text, ctx), (path, line)


def test_a_dossier_reject_is_never_passed() -> None:
    # on dossiers the judge only adds rejects: its approvals lost lines the rules had right
    ruling = second_opinion(
        "a slogan",
        FileKind.DOSSIER,
        "",
        GATE_SETS[FileKind.DOSSIER],
        RULE,
        _model(-5.0, dossier_reject_at=0.7),
    )
    assert ruling.finding is RULE and ruling.overruled is None and ruling.reject is not None


def test_a_plain_kernel_dossier_line_keeps_the_rules_verdict() -> None:
    kernel = ReviewContext("memory/entities/acme.md", FileKind.DOSSIER)
    line = "[observation] Acme is a logistics company based in Berlin."
    assert review_claim(line, kernel) is None and review_rules(line, kernel) is None


@pytest.mark.parametrize(
    ("section", "line"),
    [
        (
            "What it is now",
            '[observation] "the deploy broke again, check staging" (2026-01-06/e.md)',
        ),
        (
            "Open variables",
            "[conditional: next turn about [[acme]]] check the correction in "
            "2026-01-06/e.md still holds",
        ),
        ("Trend", "[observation] Present in external evidence from 2026-01-01 to 2026-01-05."),
        ("What it is now", "[observation] evidence in 2026-01-05/evt_1.md"),
        (
            "Relationship / stance",
            "[inference] The agent meets [[acme]] in recurring external turns.",
        ),
    ],
)
def test_the_lines_subcons_crystallizer_writes_keep_the_rules_verdict(
    section: str, line: str
) -> None:
    # The judge was fitted on memory-bank prose; at the dossier threshold it tried, it
    # rejected these (p 0.89-0.99), and the committer would hold back subcon's own output.
    kernel = ReviewContext("memory/entities/acme.md", FileKind.DOSSIER, section, ("acme", section))
    assert shipped().dossier_reject_at is None
    assert review_claim(line, kernel) == review_rules(line, kernel) is None


def _tune_board_rows() -> list[dict[str, object]]:
    rows = [orjson.loads(x) for x in CORPUS.read_bytes().splitlines() if x.strip()]
    return [r for r in rows if r["split"] == "tune" and r["kind"] == "board"]


def test_real_board_lines_where_the_judge_is_sure_get_its_verdict() -> None:
    # Tune lines the rules pass and the shipped judge is sure a careful reader rejects,
    # and lines the rules reject and it is sure one approves.
    model = shipped()
    rejected = approved = 0
    for r in _tune_board_rows():
        ctx = context(r)
        rules = review_rules(str(r["text"]), ctx)
        p = model.opinion(str(r["text"]), False, ctx.section).reject
        ruling = review_ruling(str(r["text"]), ctx)
        if rules is None and p >= model.reject_at:
            rejected += 1
            assert ruling.finding is not None and ruling.finding.gate in BOARD_GATES
            assert ruling.finding.reason.endswith(f"(precedent p={p:.2f})")
        elif rules is not None and p < model.approve_below and rules.gate in PASSED:
            approved += 1
            assert ruling.finding is None and ruling.overruled == rules
        else:
            assert ruling.finding == rules and ruling.overruled is None
    assert rejected and approved


def test_importing_the_gates_reads_no_model() -> None:
    code = (
        "import shared.review.gates.registry\n"
        "from shared.review.precedent.model import shipped\n"
        "assert shipped.cache_info().currsize == 0\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[2])
