"""Inline SVG charts drawn at render time (no chart library, no script in the page).

Every chart is returned as :class:`markupsafe.Markup` built from numbers and from text
passed through :func:`markupsafe.escape`, so a date or label can never break out of
its element. Colours come from CSS classes defined in the page's stylesheet.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from markupsafe import Markup, escape

from shared.report.model import CoverageDay, DayCounts

CELL = 12
GAP = 2


def _title(text: str) -> str:
    return f"<title>{escape(text)}</title>"


def trajectory_strip(days: Sequence[DayCounts], width_per_day: int = 6, height: int = 22) -> Markup:
    """One line's per-day fragment counts: strengthening stacked up from the midline,
    weakening down from it, neutral as a grey tick; scaled to the busiest day."""
    peak = max((max(d.strengthening, d.weakening) for d in days), default=0)
    peak = max(peak, 1)
    half = (height - 2) / 2
    mid = height / 2
    width = max(len(days) * width_per_day, width_per_day)
    parts = [
        f'<svg class="strip" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">',
        _title(
            f"{sum(d.strengthening for d in days)} strengthening, "
            f"{sum(d.neutral for d in days)} neutral, "
            f"{sum(d.weakening for d in days)} weakening fragments, "
            f"{days[0].date if days else ''}..{days[-1].date if days else ''}"
        ),
        f'<line class="axis" x1="0" y1="{mid}" x2="{width}" y2="{mid}"/>',
    ]
    for i, d in enumerate(days):
        if not d.total:
            continue
        x = i * width_per_day
        w = max(width_per_day - 1, 1)
        label = f"{d.date}: {d.strengthening} S / {d.neutral} N / {d.weakening} W"
        parts.append(f"<g>{_title(label)}")
        if d.strengthening:
            h = half * d.strengthening / peak
            parts.append(
                f'<rect class="s" x="{x}" y="{mid - h:.1f}" width="{w}" height="{h:.1f}"/>'
            )
        if d.weakening:
            h = half * d.weakening / peak
            parts.append(f'<rect class="w" x="{x}" y="{mid}" width="{w}" height="{h:.1f}"/>')
        if d.neutral:
            parts.append(f'<rect class="n" x="{x}" y="{mid - 1}" width="{w}" height="2"/>')
        parts.append("</g>")
    parts.append("</svg>")
    return Markup("".join(parts))


def coverage_calendar(days: Sequence[CoverageDay]) -> Markup:
    """A week-column calendar (Monday on top): one cell per day coloured by its state,
    its opacity by external events relative to the busiest day."""
    if not days:
        return Markup("")
    first = date.fromisoformat(days[0].date)
    offset = first.weekday()
    weeks = (offset + len(days) + 6) // 7
    width = weeks * (CELL + GAP) + 30
    height = 7 * (CELL + GAP) + 16
    peak = max((d.external for d in days), default=0) or 1
    parts = [
        f'<svg class="calendar" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">',
        _title(f"spine coverage {days[0].date}..{days[-1].date}"),
    ]
    for row, name in ((0, "Mon"), (2, "Wed"), (4, "Fri")):
        parts.append(
            f'<text class="lbl" x="0" y="{16 + row * (CELL + GAP) + CELL - 2}">{name}</text>'
        )
    last_month = ""
    for i, d in enumerate(days):
        slot = offset + i
        col, row = divmod(slot, 7)
        x = 30 + col * (CELL + GAP)
        y = 16 + row * (CELL + GAP)
        month = d.date[:7]
        if month != last_month and row <= 1:
            parts.append(f'<text class="lbl" x="{x}" y="10">{escape(d.date[5:7])}</text>')
        last_month = month if row <= 1 else last_month
        opacity = 0.35 + 0.65 * (d.external / peak) if d.external else 1.0
        label = (
            f"{d.date}: {d.state.value}; {d.external} external of {d.events} events; "
            f"{d.fragments} fragments; {d.malformed} malformed lines skipped"
        )
        parts.append(
            f'<rect class="day {escape(d.state.value)}" data-date="{escape(d.date)}" '
            f'x="{x}" y="{y}" width="{CELL}" height="{CELL}" rx="2" '
            f'fill-opacity="{opacity:.2f}">{_title(label)}</rect>'
        )
        if d.malformed:
            parts.append(
                f'<circle class="bad" cx="{x + CELL - 3}" cy="{y + 3}" r="3">'
                f"{_title(f'{d.date}: {d.malformed} malformed lines skipped')}</circle>"
            )
    parts.append("</svg>")
    return Markup("".join(parts))


# The events chart's margins: room for the y axis's ticks, its title above the plot,
# and the x axis's first and last dates with its title below.
_BARS_LEFT = 34
_BARS_TOP = 18
_BARS_BOTTOM = 30
_BARS_RIGHT = 8
# The narrowest plot that fits the first and last dates side by side.
_BARS_MIN_PLOT = 130
X_AXIS_LABEL = "day (UTC)"
Y_AXIS_LABEL = "events per day"


def events_bars(days: Sequence[CoverageDay], height: int = 60, bar: int = 6) -> Markup:
    """Events per day as bars (grey: all events, blue: external) with both axes labelled:
    the x axis ``day (UTC)`` from the first to the last date of the window, the y axis
    ``events per day`` from 0 to the busiest day's count."""
    if not days:
        return Markup("")
    bar = max(bar, -(-_BARS_MIN_PLOT // len(days)))
    peak = max((d.events for d in days), default=0) or 1
    plot_w = len(days) * bar
    width = _BARS_LEFT + plot_w + _BARS_RIGHT
    base = _BARS_TOP + height  # the x axis
    total_h = base + _BARS_BOTTOM
    right = _BARS_LEFT + plot_w
    parts = [
        f'<svg class="bars" role="img" width="{width}" height="{total_h}" '
        f'viewBox="0 0 {width} {total_h}" xmlns="http://www.w3.org/2000/svg">',
        _title(
            f"{Y_AXIS_LABEL} (grey: all events, blue: external), {days[0].date}..{days[-1].date}"
        ),
        f'<line class="axis" x1="{_BARS_LEFT}" y1="{_BARS_TOP}" x2="{_BARS_LEFT}" y2="{base}"/>',
        f'<line class="axis" x1="{_BARS_LEFT}" y1="{base}" x2="{right}" y2="{base}"/>',
        f'<text class="lbl axis-label y" x="0" y="10">{escape(Y_AXIS_LABEL)}</text>',
        f'<text class="lbl tick y" x="{_BARS_LEFT - 3}" y="{_BARS_TOP + 7}" '
        f'text-anchor="end">{peak}</text>',
        f'<text class="lbl tick y" x="{_BARS_LEFT - 3}" y="{base}" text-anchor="end">0</text>',
        f'<text class="lbl tick x" x="{_BARS_LEFT}" y="{base + 11}">{escape(days[0].date)}</text>',
    ]
    if len(days) > 1:
        parts.append(
            f'<text class="lbl tick x" x="{right}" y="{base + 11}" '
            f'text-anchor="end">{escape(days[-1].date)}</text>'
        )
    parts.append(
        f'<text class="lbl axis-label x" x="{_BARS_LEFT + plot_w / 2:.1f}" y="{total_h - 3}" '
        f'text-anchor="middle">{escape(X_AXIS_LABEL)}</text>'
    )
    for i, d in enumerate(days):
        if not d.events:
            continue
        x = _BARS_LEFT + 1 + i * bar
        total = (height - 1) * d.events / peak
        ext = (height - 1) * d.external / peak
        parts.append(
            f"<g>{_title(f'{d.date}: {d.external} external / {d.events} events')}"
            f'<rect class="all" x="{x}" y="{base - total:.1f}" width="{max(bar - 1, 1)}" '
            f'height="{total:.1f}"/>'
            f'<rect class="ext" x="{x}" y="{base - ext:.1f}" width="{max(bar - 1, 1)}" '
            f'height="{ext:.1f}"/></g>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
