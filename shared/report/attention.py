"""What an operator should look at first: the "is anything stuck" list of the page.

Derived only from :class:`~shared.report.model.Report` fields (so a JSON consumer can
compute the same): files held back, partitions in backoff or failing, inbox items
waiting over a day, spine days not yet dreamt, weakening lines, skipped input.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.report.model import DayState, PartitionRow, Report, Trajectory

STALE_ITEM_SECONDS = 86_400


@dataclass(frozen=True)
class Attention:
    """One item: a short headline, the page anchor that explains it, and its weight
    (``warn`` = something is stuck or failing, ``info`` = worth a look)."""

    text: str
    anchor: str
    level: str


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _held(report: Report) -> list[Attention]:
    out = []
    for held in report.held:
        gates = sorted({x.gate for x in held.rejected if x.gate})
        since = f" since {held.decided_at}" if held.decided_at else ""
        out.append(
            Attention(
                f"{held.path} is held back{since}: "
                f"{_plural(len(held.rejected), 'rejected line')}"
                + (f" ({', '.join(gates)})" if gates else ""),
                "held",
                "warn",
            )
        )
    return out


def _partition(p: PartitionRow) -> list[Attention]:
    """A partition in backoff or failing, and its inbox items waiting over a day."""
    out = []
    if p.backed_off:
        out.append(
            Attention(
                f"{p.name} is backed off until {p.backoff_until} after "
                f"{_plural(p.consecutive_failures, 'consecutive failure')}",
                "partitions",
                "warn",
            )
        )
    elif p.consecutive_failures:
        out.append(
            Attention(
                f"{p.name}: last run {p.last_result}, "
                f"{_plural(p.consecutive_failures, 'consecutive failure')}",
                "partitions",
                "warn",
            )
        )
    stale = [i for i in p.inbox if i.age_seconds >= STALE_ITEM_SECONDS]
    if stale:
        oldest = max(stale, key=lambda i: i.age_seconds)
        out.append(
            Attention(
                f"{p.name}: {_plural(len(stale), 'inbox item')} waiting over a day "
                f"(oldest {oldest.name}, {oldest.age_seconds // 86_400} d)",
                "partitions",
                "warn",
            )
        )
    return out


def _content(report: Report) -> list[Attention]:
    """Spine days not yet dreamt, weakening board lines, skipped input."""
    out = []
    undreamt = [d.date for d in report.coverage if d.state in (DayState.GAP, DayState.TAIL)]
    if undreamt:
        shown = ", ".join(undreamt[-5:]) + (" …" if len(undreamt) > 5 else "")
        out.append(
            Attention(
                f"{_plural(len(undreamt), 'spine day')} with external events not yet dreamt: "
                f"{shown}",
                "coverage",
                "info",
            )
        )
    weakening = [r for r in report.board if r.trajectory is Trajectory.WEAKENING]
    if weakening:
        out.append(
            Attention(
                f"{_plural(len(weakening), 'board line')} WEAKENING: "
                + ", ".join(f"L{r.number}" for r in weakening[:10]),
                "board",
                "info",
            )
        )
    if report.problems:
        out.append(
            Attention(
                f"{_plural(len(report.problems), 'input problem')} skipped", "problems", "info"
            )
        )
    return out


def attention(report: Report) -> tuple[Attention, ...]:
    """The items in the page's order: held files, partitions, then the content."""
    out = _held(report)
    for p in report.partitions:
        out += _partition(p)
    return tuple(out + _content(report))
