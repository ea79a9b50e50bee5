"""The redactor on its rules' own examples and on a corpus of made-up credentials.

``tests/fixtures/secrets/credentials.jsonl`` holds one made-up credential per row
(``kind``, ``context``, ``secret``, ``text``; ``also`` names other kinds the text holds):
values of the right prefix, length and alphabet drawn from a seeded random generator
(JWTs are real base64url JSON headers and payloads with a random signature), none
copied from anywhere, set in English and Chinese prose, ``.env`` dumps, ``curl``
commands, JSON tool output (JSON inside a JSON string), stack traces and URLs.
``near_misses.jsonl`` holds what must come through untouched (``what``, ``text``):
commit SHAs, UUIDs, lockfile hashes, placeholders, paths, the words in prose, public
keys, and a base64 image (left alone: the envelope drops blobs before redacting).
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.importing.redaction import Redacted, find, is_placeholder, looks_secret, redact
from shared.importing.redaction_rules import RULES

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "secrets"


def _rows(name: str) -> list[dict[str, Any]]:
    with (FIXTURES / name).open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


CREDENTIALS = _rows("credentials.jsonl")
NEAR_MISSES = _rows("near_misses.jsonl")
# The kinds the importer promises to report (docs: one per credential shape).
PROMISED_KINDS = {
    *("github-token", "openai-key", "anthropic-key", "aws-access-key", "aws-secret-key"),
    *("slack-token", "stripe-key", "google-api-key", "gitlab-token", "npm-token"),
    *("pypi-token", "huggingface-token", "twilio-key", "sendgrid-key", "discord-token"),
    *("telegram-token", "azure-key", "private-key", "jwt", "url-password", "bearer-token"),
    *("password", "secret", "api-key"),
}
CONTEXTS = {"prose-en", "prose-zh", "env", "curl", "json", "traceback", "url"}


def _leaks(secret: str, text: str) -> list[str]:
    """Every 8-character piece of ``secret`` still in ``text``."""
    return [secret[i : i + 8] for i in range(len(secret) - 7) if secret[i : i + 8] in text]


# ------------------------------------------------------------------ the rule table
RULE_EXAMPLES = [
    pytest.param(i, text, id=f"{i}-{rule.kind}-{n}")
    for i, rule in enumerate(RULES)
    for n, text in enumerate(rule.examples)
]
RULE_NEAR_MISSES = [
    pytest.param(text, id=f"{i}-{rule.kind}-{n}")
    for i, rule in enumerate(RULES)
    for n, text in enumerate(rule.near_misses)
]


@pytest.mark.parametrize(("index", "text"), RULE_EXAMPLES)
def test_each_rule_redacts_its_examples(index, text):
    rule = RULES[index]
    assert find(index, text), "the rule alone finds nothing in its own example"
    result = redact(text)
    assert rule.kind in result.kinds
    assert redact(result.text) == Redacted(result.text, ())


@pytest.mark.parametrize("text", RULE_NEAR_MISSES)
def test_each_rule_leaves_its_near_misses_alone(text):
    result = redact(text)
    assert result.text is text
    assert result.kinds == ()


def test_every_rule_says_where_it_comes_from():
    for rule in RULES:
        assert rule.examples, rule
        assert rule.source.startswith("detect-secrets:") or rule.note, rule
        assert all(t == t.lower() for t in rule.triggers), rule


def test_every_rule_example_holds_a_trigger():
    for rule in RULES:
        for text in rule.examples:
            assert any(t in text.lower() for t in rule.triggers), (rule.kind, text)


def test_detect_secrets_keywords_are_covered():
    """Every keyword of detect-secrets' KeywordDetector labels an assignment here."""
    from detect_secrets.plugins.keyword import DENYLIST

    for keyword in DENYLIST:
        for label in {keyword.replace("_?", "_"), keyword.replace("_?", "")}:
            for text in (f"{label}=Xk9#mQ2!vLp", f'{label.upper()} = "Xk9#mQ2!vLp"'):
                result = redact(text)
                assert result.kinds in {("password",), ("api-key",), ("secret",)}, text
                assert "Xk9#mQ2!vLp" not in result.text


# ------------------------------------------------------------------ the corpus
@pytest.mark.parametrize(
    "row", CREDENTIALS, ids=[f"{r['kind']}-{r['context']}-{n}" for n, r in enumerate(CREDENTIALS)]
)
def test_credentials_are_redacted_whole(row):
    result = redact(row["text"])
    assert sorted(result.kinds) == sorted([row["kind"], *row.get("also", ())])
    assert _leaks(row["secret"], result.text) == []
    assert f"[redacted: {row['kind']}]" in result.text
    assert redact(result.text) == Redacted(result.text, ())


@pytest.mark.parametrize("row", NEAR_MISSES, ids=[r["what"] for r in NEAR_MISSES])
def test_near_misses_come_through_untouched(row):
    result = redact(row["text"])
    assert result.text == row["text"]
    assert result.kinds == ()


def test_corpus_covers_every_kind_and_context():
    assert {r["kind"] for r in CREDENTIALS} >= PROMISED_KINDS
    assert {rule.kind for rule in RULES} >= PROMISED_KINDS
    assert {r["context"] for r in CREDENTIALS} >= CONTEXTS
    for kind in ("github-token", "openai-key", "password", "url-password", "jwt"):
        contexts = {r["context"] for r in CREDENTIALS if r["kind"] == kind}
        assert {"prose-en", "prose-zh"} <= contexts, kind


def test_corpus_secrets_are_distinct():
    secrets = [r["secret"] for r in CREDENTIALS]
    assert len(set(secrets)) == len(secrets)


# ------------------------------------------------------------------ behaviour
def test_text_without_secrets_is_returned_as_is():
    text = "Let's refactor the parser first, then 把测试补上。The key point: keep it simple."
    result = redact(text)
    assert result.text is text
    assert result.kinds == ()
    assert redact("") == Redacted("", ())


def test_redacted_is_a_frozen_record():
    result = redact("x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.text = "y"  # type: ignore[misc]


def test_kinds_come_in_text_order_and_overlaps_count_once():
    github = next(r["secret"] for r in CREDENTIALS if r["kind"] == "github-token")
    anthropic = next(r["secret"] for r in CREDENTIALS if r["kind"] == "anthropic-key")
    text = f"PASSWORD=Xk9#mQ2!vLp\nexport TOKEN={github}\napi_key = '{anthropic}'"
    result = redact(text)
    # the assignments of token and api_key overlap the tokens: one redaction each,
    # named by the more specific rule
    assert result.kinds == ("password", "github-token", "anthropic-key")
    assert result.text == (
        "PASSWORD=[redacted: password]\nexport TOKEN=[redacted: github-token]\n"
        "api_key = '[redacted: anthropic-key]'"
    )


def test_only_the_password_of_a_url_goes():
    text = "postgres://app:Xk9#mQ2!vLp@db.internal:5432/app?sslmode=require"
    assert (
        redact(text).text
        == "postgres://app:[redacted: url-password]@db.internal:5432/app?sslmode=require"
    )


def test_an_earlier_marks_kind_is_no_label():
    # found by test_redaction_is_idempotent: "[redacted: api-key]: #ff00aa" read the
    # mark's "api-key" as the label of a value
    once = redact("MISTRAL_API_KEY=tBtlyvMMo5zbFQQiDU2lyafLQ25u6Woo: #ff00aa").text
    assert once == "MISTRAL_API_KEY=[redacted: api-key]: #ff00aa"
    assert redact(once).text == once


def test_go_test_verdicts_are_not_passwords_but_a_pass_label_still_is():
    log = (
        "=== RUN   TestImport/bash\n"
        "    --- PASS: TestImport/bash (0.00s)\n--- PASS: TestImport (0.01s)"
    )
    assert redact(log).text == log
    # the same words around something that is not a test's name are a label and a value
    assert redact("--- PASS: Zq9xk2Lm").text == "--- PASS: [redacted: password]"
    assert redact("--- pass: TestZq9xk2Lm").text == "--- pass: [redacted: password]"
    assert redact("db pass: TestZq9xk2Lm").text == "db pass: [redacted: password]"


def test_a_private_key_cut_before_its_end_goes_to_the_end_of_its_body():
    block = next(r for r in CREDENTIALS if r["kind"] == "private-key" and r["context"] == "cut")
    text = block["text"] + "\n"
    result = redact(text)
    assert result.kinds == ("private-key",)
    assert result.text.endswith("[redacted: private-key]\n")


@pytest.mark.parametrize(
    "value",
    [
        "xxx", "XXXXXXXX", "<your-key>", "${VAR}", "$DB_PASSWORD", "{{ secrets.TOKEN }}",
        "changeme", "your_api_key_here", "****", "********", "os.environ['X']",
        "os.environ[", "process.env.X", "settings.SECRET_KEY", "getenv(", "None", "true",
        "null", "string", "/run/secrets/db_password", "~/.aws/credentials",
        "C:\\Users\\bob\\token.txt", "secrets/api.key", "https://vault.example.com/x",
        "[redacted: password]", "Optional[str]",
    ],
)  # fmt: skip
def test_placeholders(value):
    assert is_placeholder(value)
    assert not looks_secret(value, strong=True, numeric=True)


@pytest.mark.parametrize(
    ("value", "strong", "secret"),
    [
        ("Xk9#mQ2!vLp", False, True),
        ("hunter2-prod", False, True),
        ("wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPKEY", False, True),
        ("correct horse battery 42", True, True),
        ("prodpassphrase", True, True),
        ("prodpassphrase", False, False),
        ("authentication", False, False),
        ("SecretStr", False, False),
        ("483920", True, True),
        ("483920", False, False),
        ("The user name", True, False),
        ("short", True, False),
    ],
)  # fmt: skip
def test_what_looks_like_a_secret(value, strong, secret):
    assert looks_secret(value, strong=strong, numeric=True) is secret


def test_cjk_and_lone_surrogates_around_secrets():
    text = "\ud800密码：Xk9#mQ2!vLp，\udfff好的 token=" + "a1B2c3D4e5F6g7H8i9J0" + "\ud83d"
    result = redact(text)
    assert result.kinds == ("password", "secret")
    assert (
        result.text == "\ud800密码：[redacted: password]，\udfff好的 token=[redacted: secret]\ud83d"
    )


def test_importing_does_not_load_detect_secrets():
    code = (
        "import sys, shared.importing.redaction as r\n"
        "assert 'detect_secrets' not in sys.modules\n"
        "assert r.redact('PASSWORD=Xk9#mQ2!vLp').kinds == ('password',)\n"
        "assert 'detect_secrets' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[2])


# ------------------------------------------------------------------ size and shape
@pytest.mark.slow  # 5 MB through the whole detector
def test_a_five_megabyte_text():
    rows = CREDENTIALS[:40]
    filler = "Ordinary prose about refactoring, 还有一些中文句子，and paths like /usr/lib.\n" * 400
    parts = [filler + row["text"] for row in rows]
    text = "\n".join(parts * (5_000_000 // len("\n".join(parts)) + 1))
    assert len(text) >= 5_000_000
    result = redact(text)
    repeats = text.count(rows[0]["text"])
    expected = sum(1 + len(r.get("also", ())) for r in rows) * repeats
    assert len(result.kinds) == expected
    for row in rows:
        assert _leaks(row["secret"], result.text) == []


PATHOLOGICAL = {
    "long run after a separator": ("a=" + "A" * 1_000_000, ()),
    "password then one letter": ("password=" + "A" * 1_000_000, ()),
    "password then a long value": ("password=" + "aB3" * 300_000, ("password",)),
    "repeated sk- prefix": ("sk-" * 300_000, ()),
    "repeated JWT start": ("eyJ" * 300_000, ()),
    "repeated JWT segments": ("eyJabcde." * 100_000, ()),
    "repeated scheme separator": ("://a:" * 200_000, ()),
    "a scheme and a long user": ("://" + "a" * 1_000_000 + ":", ()),
    "repeated Slack digits": ("xoxb-" + "1-" * 500_000, ("slack-token",)),
    "one letter": ("M" * 1_000_000, ()),
    "digits": ("1" * 1_000_000, ()),
    "repeated labels": ("password: " * 100_000, ()),
    "repeated Bearer": ("Bearer " * 150_000, ()),
    "repeated Chinese labels": ("密码：" * 300_000, ()),
    "hex before -us": (("a" * 31 + "-us1") * 30_000, ()),
    "letters then a capital": ("token=" + "a" * 200 + "B", ("secret",)),
}


@pytest.mark.parametrize(("text", "kinds"), PATHOLOGICAL.values(), ids=PATHOLOGICAL.keys())
def test_pathological_inputs_take_one_pass(text, kinds):
    """Each of these would take minutes to hours with a backtracking blow-up; the
    suite's timeout is the bound."""
    assert redact(text).kinds == kinds


# ------------------------------------------------------------------ properties
_FRAGMENTS = [r["text"] for r in CREDENTIALS] + [r["text"] for r in NEAR_MISSES]
_JOINERS = ["", " ", "\n", "，", "=", ":", '"', "'", "\\n", "[redacted: password]"]


@settings(max_examples=300, deadline=None)
@given(
    parts=st.lists(
        st.one_of(
            st.sampled_from(_FRAGMENTS),
            st.sampled_from(_JOINERS),
            st.text(st.characters(blacklist_categories=()), max_size=40),
        ),
        max_size=6,
    )
)
def test_redaction_is_idempotent(parts):
    once = redact("".join(parts))
    twice = redact(once.text)
    assert twice.text == once.text
    assert twice.kinds == ()
