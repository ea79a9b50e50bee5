"""Interval tokens: every form and every malformed form."""

from __future__ import annotations

import pytest

from shared.errors import InputError
from shared.spine.interval import Band, Window, merge_hours, parse_interval, render_interval


def test_band_tokens_parse_and_render() -> None:
    items = parse_interval("20260105[03,05] 20260105[14,15]")
    assert items == [Band("2026-01-05", 3, 5), Band("2026-01-05", 14, 15)]
    assert render_interval(items) == "20260105[03,05] 20260105[14,15]"


def test_single_digit_hours_are_normalised() -> None:
    assert parse_interval("20260105[3,5]") == [Band("2026-01-05", 3, 5)]
    assert render_interval(parse_interval("20260105[3,5]")) == "20260105[03,05]"


def test_full_day_and_single_hour_bands() -> None:
    assert parse_interval("20260105[00,23]") == [Band("2026-01-05", 0, 23)]
    assert parse_interval("20260105[07,07]") == [Band("2026-01-05", 7, 7)]


def test_window_token_round_trip() -> None:
    text = "2026-01-05[2026-01-05T10:00:00.000Z,2026-01-05T12:30:00.000Z]"
    items = parse_interval(text)
    assert items == [Window("2026-01-05", "2026-01-05T10:00:00.000Z", "2026-01-05T12:30:00.000Z")]
    assert render_interval(items) == text


def test_window_without_lower_bound() -> None:
    (item,) = parse_interval("2026-01-05[,2026-01-05T12:30:00.000Z]")
    assert isinstance(item, Window)
    assert item.after_ts == ""
    assert item.contains_ts("2026-01-05T00:00:00.000Z")


def test_window_is_open_below_and_closed_above() -> None:
    w = Window("2026-01-05", "2026-01-05T10:00:00.000Z", "2026-01-05T12:00:00.000Z")
    assert not w.contains_ts("2026-01-05T10:00:00.000Z")
    assert w.contains_ts("2026-01-05T10:00:00.001Z")
    assert w.contains_ts("2026-01-05T12:00:00.000Z")
    assert not w.contains_ts("2026-01-05T12:00:00.001Z")


def test_mixed_tokens_and_extra_spaces() -> None:
    items = parse_interval("  20260105[03,05]  2026-01-06[,2026-01-06T01:00:00.000Z] ")
    assert [type(i) for i in items] == [Band, Window]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty interval"),
        ("   ", "empty interval"),
        ("20261305[03,05]", "is not a date"),
        ("20260230[03,05]", "is not a date"),
        ("20260105[03,24]", "hour 24 is not 00..23"),
        ("20260105[25,25]", "hour 25 is not 00..23"),
        ("20260105[05,03]", "band is reversed (05 > 03)"),
        ("20260105", "missing '['"),
        ("20260105[03,05", "missing closing ']'"),
        ("20260105[03 05]", "missing"),
        ("20260105[03]", "exactly two bounds"),
        ("20260105[03,05,07]", "exactly two bounds"),
        ("20260105[003,05]", "one or two digits"),
        ("20260105[-1,05]", "one or two digits"),
        ("2026015[03,05]", "is not YYYYMMDD or YYYY-MM-DD"),
        ("garbage", "missing '['"),
        ("[03,05]", "is not YYYYMMDD"),
        ("20260105[03,05][06,07]", "more than one bracket pair"),
        ("2026-01-05[noon,2026-01-05T12:00:00.000Z]", "'noon' is not a timestamp"),
        ("2026-01-05[2026-01-05T12:00:00.000Z,]", "second non-empty"),
        ("2026-01-05[2026-01-05T12:00:00.000Z,2026-01-05T11:00:00.000Z]", "window is empty"),
        ("2026-02-30[,2026-01-05T12:00:00.000Z]", "is not a date"),
        ("20260105[03,05] 20260105[9,x]", "one or two digits"),
    ],
)
def test_malformed_tokens_raise_clear_errors(text: str, reason: str) -> None:
    with pytest.raises(InputError) as info:
        parse_interval(text)
    assert reason in str(info.value)


def test_error_names_the_path_when_given() -> None:
    with pytest.raises(InputError) as info:
        parse_interval("20260105[05,03]", "inbox/scan-gap.md.pending")
    assert str(info.value).startswith("inbox/scan-gap.md.pending: ")


def test_merge_hours_into_inclusive_runs() -> None:
    assert merge_hours({3, 4, 5, 14, 15}) == [(3, 5), (14, 15)]
    assert merge_hours([0, 23, 1]) == [(0, 1), (23, 23)]
    assert merge_hours([]) == []


@pytest.mark.parametrize(
    "token",
    [
        "２０２６０１０５[03,05]",  # full-width digits
        "20260105[０3,05]",
        "٢٠٢٦٠١٠٥[03,05]",  # Arabic-Indic digits
        "２０２６-01-05[2026-01-05T10:00:00.000Z,2026-01-05T12:00:00.000Z]",
    ],
)
def test_only_ascii_digits_make_a_token(token: str) -> None:
    """Python's \\d takes any Unicode digit; the original's tokens are ASCII only."""
    with pytest.raises(InputError):
        parse_interval(token)
