"""``bench/RESULTS.md`` from the JSON of ``bench/run.py --json``: one table per section.

    python bench/run.py --json > /tmp/bench.json      # exit 1 only says a target was missed
    python -m bench.results /tmp/bench.json           # writes bench/RESULTS.md
    python bench/run.py --quick --json --only gap | python -m bench.results - \\
        --command "python bench/run.py --quick --json --only gap"

The file is generated, never edited by hand: its header names the command that made the
JSON, when and on which machine it was turned into tables (run it on the machine that ran
the bench, right after), and the sections the run left out. Rows keep the runner's order;
a value is shown as measured, with its unit, target and whether the target was met.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.run import SECTIONS, machine  # noqa: E402

RESULTS = ROOT / "bench" / "RESULTS.md"
DEFAULT_COMMAND = "python bench/run.py --json"
KEYS = frozenset({"name", "value", "unit", "target", "met"})
Row = dict[str, Any]


class ResultsError(ValueError):
    """The input is not the runner's JSON list of rows."""


def parse(text: str | bytes) -> list[Row]:
    """The runner's rows, checked: a JSON list of ``{name, value, unit, target, met}``."""
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise ResultsError(f"not JSON: {exc}") from None
    if not isinstance(data, list) or not data:
        raise ResultsError("expected the non-empty JSON list that `bench/run.py --json` prints")
    for n, row in enumerate(data, 1):
        if not isinstance(row, dict) or set(row) != KEYS:
            raise ResultsError(f"row {n}: expected the keys {sorted(KEYS)}, got {row!r}")
        if not isinstance(row["name"], str) or not row["name"]:
            raise ResultsError(f"row {n}: name must be a non-empty string")
        value = row["value"]
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise ResultsError(f"row {n} ({row['name']}): value must be a number or null")
        if row["met"] not in (True, False, None):
            raise ResultsError(f"row {n} ({row['name']}): met must be true, false or null")
    return data


# Rows named after a block of a section rather than the section itself.
BLOCK_SECTIONS = {"real_sessions": "quality"}


def section_of(row: Row) -> str:
    prefix = str(row["name"]).split(".", 1)[0]
    return BLOCK_SECTIONS.get(prefix, prefix)


def number(value: float) -> str:
    """A measured value as a reader wants it: thousands separated, four significant
    figures below 1,000 (``14.4``, ``0.8561``), whole numbers above."""
    if float(value).is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.4g}"


def status(row: Row) -> str:
    unit = str(row["unit"])
    if row["value"] is None:
        return "error" if unit.startswith("error") or row["met"] is False else "skipped"
    if row["met"] is None:
        return ""
    return "met" if row["met"] else "**missed**"


def _cell(text: object) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def table(rows: Sequence[Row]) -> list[str]:
    out = ["| measurement | value | unit | target | status |", "|---|---:|---|---|---|"]
    for r in rows:
        value = "-" if r["value"] is None else number(r["value"])
        out.append(
            f"| `{_cell(r['name'])}` | {value} | {_cell(r['unit'])} | "
            f"{_cell(r['target'] or '')} | {status(r)} |"
        )
    return out


def summary(rows: Sequence[Row]) -> list[str]:
    targeted = [r for r in rows if r["target"] is not None and r["value"] is not None]
    met = sum(1 for r in targeted if r["met"] is True)
    missed = [r for r in targeted if r["met"] is False]
    skipped = sum(1 for r in rows if status(r) == "skipped")
    errors = [r for r in rows if status(r) == "error"]
    lines = [
        f"**{len(rows)} rows**; {len(targeted)} with a target: {met} met, "
        f"{len(missed)} missed; {skipped} skipped; {len(errors)} errors."
    ]
    if missed:
        lines.append("")
        lines.append(
            "Missed: "
            + "; ".join(
                f"`{r['name']}` {number(r['value'])} {_cell(r['unit'])} (target {r['target']})"
                for r in missed
            )
            + "."
        )
    if errors:
        lines.append("")
        lines.append(
            "Errors: " + "; ".join(f"`{r['name']}`: {_cell(r['unit'])}" for r in errors) + "."
        )
    return lines


def render(rows: Sequence[Row], *, command: str, machine_line: str, generated: str) -> str:
    """The whole of ``bench/RESULTS.md`` for ``rows``."""
    by_section: dict[str, list[Row]] = {}
    for r in rows:
        by_section.setdefault(section_of(r), []).append(r)
    left_out = [s for s in SECTIONS if s not in by_section]
    lines = [
        "# Benchmark results",
        "",
        "<!-- Generated by `python -m bench.results`; do not edit by hand. -->",
        "",
        f"Generated by `python -m bench.results` on {generated} ({machine_line})",
        "from the JSON this command printed:",
        "",
        "```sh",
        command,
        "```",
        "",
        "Do not edit it by hand; to refresh it (every section, full size):",
        "",
        "```sh",
        "python bench/run.py --json > /tmp/bench.json",
        "python -m bench.results /tmp/bench.json",
        "```",
        "",
        "What each row measures, and the targets: `docs/performance.md` and",
        "`docs/review-quality.md`. Ratios compare both sides in the same run; absolute",
        "times on a shared machine are noise.",
        "",
    ]
    if left_out:
        lines += [
            f"Sections not in this run: {', '.join(left_out)}"
            f" (`python bench/run.py --json --only {','.join(left_out)}`).",
            "",
        ]
    lines += summary(rows)
    for name, section_rows in by_section.items():
        lines += ["", f"## {name}", "", *table(section_rows)]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.results", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "json", nargs="?", default="-", help="the runner's JSON output (default or -: stdin)"
    )
    parser.add_argument("--out", type=Path, default=RESULTS, help="default: bench/RESULTS.md")
    parser.add_argument(
        "--command", default=DEFAULT_COMMAND, help="the bench command that made the JSON"
    )
    args = parser.parse_args(argv)
    try:
        raw = sys.stdin.buffer.read() if args.json == "-" else Path(args.json).read_bytes()
        rows = parse(raw)
    except (OSError, ResultsError) as exc:
        print(f"bench.results: {args.json}: {exc}", file=sys.stderr)
        return 2
    generated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    text = render(rows, command=args.command, machine_line=machine(), generated=generated)
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out} ({len(rows)} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
