"""The memory-weaver pass as plain functions: plan → scan (fan-out) → crystallize →
update → settle. The Celery tasks call these; :func:`run_pass_inprocess` runs them
in order without Celery. Between the stages travel records with a JSON form
(:mod:`~shared.weaver.records`, :mod:`~shared.weaver.results`); settle's report is JSON.

Stage 1 scans the interval of ``scan-gap.md.pending`` (or an operator interval); a day
is marked covered only when every slice of its scan-gap bands was read, and the item
is acked only after ``memory/fragments/<date>/`` exists. Stage 2 settles at most one
actionable directed item and acks it only on a terminal status.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared.constants import SCAN_GAP_PENDING, WEAVER
from shared.errors import InputError
from shared.formats.board import Board, parse_board, read_board
from shared.formats.fragments import fragment_filename
from shared.kernel.files import open_regular, remove_stale_temps
from shared.kernel.lock.base import Lease
from shared.kernel.paths import KernelPaths
from shared.language.text import token_set
from shared.partitions.inbox import list_items
from shared.settings import Settings
from shared.spine.coverage import mark_day_covered, pass_progress
from shared.spine.event import ts_key
from shared.spine.interval import Band, Window, parse_interval, render_interval
from shared.spine.reader import ReadStats
from shared.spine.scangap import parse_scan_gap_body
from shared.spine.slices import plan_slices
from shared.timestamps import iso
from shared.weaver.crystallize.crystallizer import crystallize_fragments
from shared.weaver.judging.interfaces import JudgeContext, JudgeSet
from shared.weaver.judging.registry import check as check_judge
from shared.weaver.judging.registry import judge_set
from shared.weaver.plan import PassPlan
from shared.weaver.records import FragmentSummary, Record, ScanResult, SlicePlan, SliceRole
from shared.weaver.results import CrystallizeResult, Judgement, UpdateResult
from shared.weaver.scan.rulefiles import cited_rule_files
from shared.weaver.scan.scanner import ScannedFragment, read_slice_turns, scan_turns
from shared.weaver.scan.thinning import SpineHydrator, merge_turns, planned_end, thin_turns
from shared.weaver.settle.directed import Route, select_item, waiting_note
from shared.weaver.settle.settlement import settle
from shared.weaver.update.updater import update_board

__all__ = [
    "PassPlan",
    "crystallize",
    "plan_pass",
    "run_pass_inprocess",
    "scan_slice",
    "settle",
    "update",
]

Progress = Callable[[int, int], None]
REASONS_KEPT = 500


def _slices(
    paths: KernelPaths, settings: Settings, interval: str, role: SliceRole
) -> list[SlicePlan]:
    items = parse_interval(interval)
    planned = plan_slices(
        paths, items, settings.scan_slice_events, max_line_bytes=settings.max_line_bytes
    )
    return [SlicePlan(s, role) for s in planned]


def _whole_days(items: list[Band | Window]) -> list[str]:
    """Dates an operator interval reads completely: its bands cover hours 00..23.

    Only such a date may be marked covered (docs/formats.md §9.1); a partial band of an
    uncovered day leaves its fragments deferred rather than hide the unread hours from
    the gap check.
    """
    hours: dict[str, set[int]] = {}
    for item in items:
        if isinstance(item, Band):
            hours.setdefault(item.date, set()).update(range(item.start_hour, item.end_hour + 1))
    return sorted(date for date, seen in hours.items() if len(seen) == 24)


def plan_pass(
    paths: KernelPaths,
    settings: Settings,
    *,
    interval: str | None = None,
    directed: str | None = None,
) -> PassPlan:
    """Decide the pass: Stage-1 interval and its slices, the Stage-2 item.

    ``interval`` = an operator interval (overrides the scan-gap item, which stays on
    disk); ``directed`` = the basename of the item an operator asked for.

    Raises:
        InputError: a malformed operator interval.
        ConfigError: the kernel dir does not exist, or ``SUBCON_JUDGE`` names no
            registered judge.
    """
    paths.require_kernel()
    check_judge(settings.judge)
    notes: list[str] = []
    items = list_items(paths, WEAVER)
    source = scan_gap_item = None
    full_days: list[str] = []
    if interval is not None:
        parsed = parse_interval(interval)
        interval = render_interval(parsed)
        source = "operator"
        full_days = _whole_days(parsed)
    else:
        gap = next((i for i in items if i.name == SCAN_GAP_PENDING), None)
        if gap is not None:
            try:
                body = parse_scan_gap_body(gap.body, str(paths.inbox_dir(WEAVER) / gap.name))
                interval = render_interval(body.items())
                source, scan_gap_item = "scan-gap", gap.name
                full_days = sorted({item.date for item in body.items()})
            except InputError as exc:
                notes.append(f"{SCAN_GAP_PENDING} left on disk: {exc}")
    slices = _slices(paths, settings, interval, SliceRole.GAP) if interval else []
    chosen, others = select_item(items, directed)
    board = read_board(paths.board)
    if directed is not None and chosen is None:
        raise InputError(paths.inbox_dir(WEAVER) / directed, None, "no such directed item")
    if chosen is not None and chosen.route == "scan" and chosen.interval:
        slices += _slices(paths, settings, chosen.interval, SliceRole.DIRECTED)
    return PassPlan(
        interval=interval,
        source=source,
        scan_gap_item=scan_gap_item,
        directed_item=chosen.to_json() if chosen else None,
        slices=tuple(slices),
        full_days=full_days,
        board_hash=board.hash,
        created=iso(),
        notes=notes,
        waiting=[waiting_note(r) for r in others if r.route == "unclear"],
        board_text=board.text,
        context=_context(paths, chosen).to_json(),
    )


def scan_slice(
    paths: KernelPaths,
    settings: Settings,
    plan: PassPlan,
    planned: SlicePlan,
    progress: Progress | None = None,
) -> ScanResult:
    """Read one slice and judge its turns against the board (read-only; writes nothing).

    Returns the turns, the fragments as data (``fragments``) and each turn's recorded
    judgement with the previous-turn state it assumed (``judged``). A slice cannot see
    the sessions' turns before it, so :func:`crystallize` replays all slices in order,
    reuses every recorded judgement whose assumption holds and re-judges the rest
    (a correction at the start of a slice judging the previous slice's turn): the
    result does not depend on how the day was sliced. Turns it should not need to
    re-judge travel thin (:mod:`~shared.weaver.scan.thinning`); it reads any it does again.
    """
    s = planned.spine
    stats = ReadStats()
    turns = read_slice_turns(
        paths, s, stats, settings.max_line_bytes, progress=progress, ahead_end=planned_end(s)
    )
    last = max(turns, key=lambda t: (ts_key(t["ts"]) or "", t["line"]), default=None)
    if plan.board_text is not None and plan.context is not None:
        board, ctx = parse_board(plan.board_text), JudgeContext.from_json(plan.context)
    else:
        board, ctx = read_board(paths.board), _context(paths, plan.route)
    judges = judge_set(settings.judge)
    record: dict[str, dict[str, Any]] = {}
    scanned = scan_turns(board, turns, ctx, judges.event(), record=record, provenance=judges.key)
    return ScanResult(
        slice=planned,
        # Full only where crystallize may re-judge them: text and rows are the bulk.
        turns=thin_turns(turns, record),
        stats=stats,
        last_event_id=last["id"] if last else None,
        last_ts=(ts_key(last["ts"]) if last else None),
        board_hash=board.hash,
        context=ctx.signature(),
        # Recorded verdicts are replayed only for the judge (and version) that made them.
        judge=judges.key,
        # A summary per fragment; the full data is in ``judged`` (rebuilt in crystallize).
        fragments=tuple(
            FragmentSummary(
                item.date,
                fragment_filename(item.fragment),
                item.fragment.trajectory,
                item.fragment.claude_md_ref,
                item.reason,
            )
            for item in scanned
        ),
        judged=record,
    )


def _dossier_texts(paths: KernelPaths, topics: frozenset[str]) -> dict[str, str]:
    """Each topic dossier's text (the first 64 KiB)."""
    texts: dict[str, str] = {}
    for slug in sorted(topics):
        try:
            with open_regular(paths.topics_dir / f"{slug}.md") as handle:
                texts[slug] = handle.read(64 * 1024).decode("utf-8", errors="replace")
        except OSError:
            continue
    return texts


def _context(paths: KernelPaths, route: Route | None) -> JudgeContext:
    def stems(root: Any) -> frozenset[str]:
        return frozenset(p.stem for p in root.glob("*.md")) if root.is_dir() else frozenset()

    topics, entities = stems(paths.topics_dir), stems(paths.entities_dir)
    texts = _dossier_texts(paths, topics)
    return JudgeContext(
        # Tokens of each dossier, for the recall-miss diagnosis; the rule files it cites.
        dossier_cues={slug: token_set(text) for slug, text in texts.items()},
        rule_files=cited_rule_files(texts),
        dossiers=topics | entities,
        entities=entities,
        directed_markers=frozenset(route.slugs) if route else frozenset(),
        directed_lines=frozenset(route.lines) if route else frozenset(),
    )


def _pass_window(slices: list[SlicePlan]) -> tuple[str | None, str] | None:
    """The (after, until] window a tail pass read for one date, or None for bands."""
    windows = [(s.spine.after_ts, s.spine.until_ts) for s in slices if s.spine.until_ts]
    if not windows:
        return None
    afters = [ts_key(a) or "" if a else "" for a, _ in windows]
    lowest = min(afters)
    return (lowest or None, max((ts_key(u) or u for _, u in windows)))


def _rejudge(
    paths: KernelPaths,
    settings: Settings,
    plan: PassPlan,
    ordered: list[ScanResult],
    board: Board,
    judges: JudgeSet,
) -> tuple[list[ScannedFragment], int]:
    """Every turn of the slices in file order, judged with each slice's recorded
    verdicts reused where the board, context and judge they assumed still hold;
    returns the fragments and the number of turns."""
    turns, sources = merge_turns(ordered)
    ctx = _context(paths, plan.route)
    key = (board.hash, ctx.signature(), judges.key)
    cache: Record = {}
    for r in ordered:
        if (r.board_hash, r.context, r.judge) == key:
            cache.update(r.judged)
    hydrate = SpineHydrator(paths, settings.max_line_bytes, sources)
    scanned = scan_turns(
        board, turns, ctx, judges.event(), cache=cache, hydrate=hydrate, provenance=judges.key
    )
    return scanned, len(turns)


def _cover_day(
    paths: KernelPaths,
    settings: Settings,
    date: str,
    mine: list[SlicePlan],
    results: list[ScanResult],
    lease: Lease,
) -> None:
    """Mark ``date`` covered up to what its gap slices judged."""
    last = max((r for r in results if r.last_ts), key=lambda r: r.last_ts or "", default=None)
    size = max((s.spine.file_size for s in mine), default=0)
    # Only what was judged counts as read: an event the plan's file holds outside
    # the posted bands (appended after the gap was posted) stays for the tail.
    progress = pass_progress(
        paths,
        date,
        hours=frozenset(h for s in mine for a, b in s.spine.bands for h in range(a, b + 1)),
        window=_pass_window(mine),
        file_size=size,
        last_event_id=last.last_event_id if last else None,
        last_ts=last.last_ts if last else None,
        max_line_bytes=settings.max_line_bytes,
    )
    lease.ensure()
    mark_day_covered(paths, date, progress)


def _writable(
    paths: KernelPaths, scanned: list[ScannedFragment], fully_read: list[str]
) -> tuple[list[ScannedFragment], list[ScannedFragment]]:
    """The fragments that may be written now, and those deferred.

    Writing a fragment creates fragments/<date>/, which covers the date for the gap
    check; so a date is written to only once it was fully read (or already covered).
    """
    writable = {
        d
        for d in {s.date for s in scanned}
        if d in fully_read or paths.fragment_day_dir(d).is_dir()
    }
    return [s for s in scanned if s.date in writable], [
        s for s in scanned if s.date not in writable
    ]


def crystallize(
    paths: KernelPaths,
    settings: Settings,
    plan: PassPlan,
    slice_results: list[ScanResult],
    lease: Lease,
) -> CrystallizeResult:
    """Judge every turn, write fragments and derived files, mark fully read days."""
    # A redelivered pass cleans up after the writer that was killed mid-write.
    lease.ensure()
    remove_stale_temps(paths.memory_dir)
    board = read_board(paths.board)
    by_key = {r.slice.key: r for r in slice_results}
    ordered = [by_key[s.key] for s in plan.slices if s.key in by_key]
    judges = judge_set(settings.judge)
    scanned, turns = _rejudge(paths, settings, plan, ordered, board, judges)
    stats = ReadStats()
    for r in ordered:
        stats.merge(r.stats)
    missing = [s for s in plan.slices if s.key not in by_key]
    fully_read = [
        date
        for date in plan.full_days
        if all(s.key in by_key for s in plan.slices_of(date, SliceRole.GAP))
    ]
    scanned, deferred = _writable(paths, scanned, fully_read)
    report = crystallize_fragments(paths, settings, board, scanned, lease, judges.dossier())
    for date in fully_read:
        mine = plan.slices_of(date, SliceRole.GAP)
        _cover_day(paths, settings, date, mine, [by_key[s.key] for s in mine], lease)
    return CrystallizeResult(
        status=report.status,
        fragments_new=tuple(report.fragments_new),
        fragments_prior=tuple(report.fragments_prior),
        per_line=dict(report.per_line),
        effectiveness_written=tuple(report.effectiveness_written),
        effectiveness_deleted=tuple(report.effectiveness_deleted),
        new_signals_written=report.new_signals_written,
        entities_written=tuple(report.entities_written),
        node_create=tuple(report.node_create),
        malformed=tuple(report.malformed),
        bootstrapped=tuple(report.bootstrapped),
        external_events=turns,
        stats=stats,
        covered=tuple(fully_read),
        deferred=len(deferred),
        missing_slices=tuple(s.spine.token() for s in missing),
        # Every decision's reason, capped so the chain's messages stay small.
        judgements=tuple(
            Judgement(fragment=f"{s.date}/{s.fragment.source_event_id}", reason=s.reason)
            for s in scanned[:REASONS_KEPT]
        ),
        judgements_total=len(scanned),
    )


def update(
    paths: KernelPaths,
    settings: Settings,
    plan: PassPlan,
    crystallized: CrystallizeResult,
    lease: Lease,
) -> UpdateResult:
    """Run the intuition updater over the board (writes ``memory/CLAUDE.md`` only)."""
    lease.ensure()
    remove_stale_temps(paths.memory_dir)
    fresh = {m: v.new for m, v in crystallized.per_line.items()}
    judge = judge_set(settings.judge).line()
    return update_board(paths, settings, lease, judge=judge, new_evidence=fresh)


def run_pass_inprocess(
    paths: KernelPaths,
    settings: Settings,
    lease: Lease,
    *,
    interval: str | None = None,
    directed: str | None = None,
) -> dict[str, Any]:
    """Every stage in order, in this process (tests, benchmarks, embedded mode)."""
    plan = plan_pass(paths, settings, interval=interval, directed=directed)
    results = [scan_slice(paths, settings, plan, s) for s in plan.slices]
    crystallized = crystallize(paths, settings, plan, results, lease)
    updated = update(paths, settings, plan, crystallized, lease)
    return settle(paths, settings, plan, crystallized, updated, lease)
