"""``bench-live``'s table: each target beside the figure it applies to (issue 67)."""

from __future__ import annotations

from lab.commands.bench_live import format_row


def _row(case: str, frame_ms: float, cpu: float) -> dict:
    return {
        "case": case,
        "frame_ms_median": frame_ms,
        "cpu_percent": cpu,
        "loop_cpu_percent": cpu,
        "frames": 100,
        "in_view": True,
        "route_drawn": True,
        "paints": 3,
        "paint_ms_median": 2.5,
    }


def test_the_baseline_row_carries_no_target() -> None:
    """The baseline's 29 ms was printed beside "(target ≤5.0 ms)", which read as a failure
    of the product; the targets are the tracked loop's."""
    tracked = _row("live-1280x720-tracked", 4.4, 4.5)
    tracked.update(target_frame_ms=5.0, target_cpu_percent=5.0)
    baseline = _row("live-1280x720-baseline-locate-every-frame", 29.0, 27.0)
    assert "frame median   4.40 ms (target ≤5.0 ms)" in format_row(tracked)
    assert "process CPU   4.5% (target ≤5.0%)" in format_row(tracked)
    assert "target" not in format_row(baseline)
    walk = _row("live-1280x720-walk-through", 9.0, 12.0)
    walk.update(
        view_changes=8, relocations=7, relocations_per_change=0.88,
        target_relocations_per_change=1.0, solved=True,
    )  # fmt: skip
    assert "(0.88 per change, target ≤1)" in format_row(walk)
