"""The arena's chart: win rates with their 95% intervals as PNG, SVG or PDF (needs
matplotlib); the file's extension picks the format."""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from pathlib import Path

from .errors import ArenaError
from .statistics import AgentStats

__all__ = ["CHART_FORMATS", "chart_format", "win_rate_chart"]

CHART_FORMATS: dict[str, str] = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
"""The chart's file extensions and the format each one is written in."""


def chart_format(path: str | os.PathLike[str]) -> str:
    """The format a chart at ``path`` is written in (``png``, ``svg`` or ``pdf``, from the
    extension, in any case); :class:`ArenaError` for any other extension."""
    suffix = Path(path).suffix.lower()
    if suffix not in CHART_FORMATS:
        raise ArenaError(
            f"the chart {os.fspath(path)!r} must end in .png, .svg or .pdf "
            f"(the format follows the extension), not {suffix or 'no extension'!r}"
        )
    return CHART_FORMATS[suffix]


def win_rate_chart(
    path: str | os.PathLike[str],
    stats: Sequence[AgentStats],
    *,
    variant: str,
    players: int,
    games: int,
    seed: int,
) -> None:
    """Draw the win rates of ``stats`` with their 95% intervals as a bar chart at ``path``.

    The extension picks the format: ``.png`` (150 dpi), ``.svg`` or ``.pdf``; any other raises
    :class:`ArenaError` before anything is drawn. A dashed line marks ``1 / players``, the win
    rate of equally strong agents; the title names the ``variant``, ``players``, ``games`` and
    ``seed`` of the run. An agent without finished games gets no bar, only "no games".
    """
    fmt = chart_format(path)
    try:
        matplotlib = importlib.import_module("matplotlib")
    except ImportError as err:
        raise ArenaError("charts need matplotlib: pip install cardtable[arena]") from err
    matplotlib.use("Agg")
    plt = importlib.import_module("matplotlib.pyplot")
    labels = [s.label for s in stats]
    rates = [s.win_rate if s.seats else 0.0 for s in stats]
    below = [s.win_rate - s.ci_low if s.seats else 0.0 for s in stats]
    above = [s.ci_high - s.win_rate if s.seats else 0.0 for s in stats]
    width = max(6.4, 1.2 * len(labels) + 3.0)
    fig, ax = plt.subplots(figsize=(width, 4.8), dpi=150)
    try:
        ax.bar(labels, rates, color="#4C72B0", yerr=[below, above], capsize=6)
        ax.axhline(
            1 / players,
            color="grey",
            linestyle="--",
            linewidth=1,
            label=f"equal strength (1/{players})",
        )
        ax.legend(loc="upper right", fontsize=9)
        ax.set_ylim(0, 1)
        ax.set_ylabel("win rate (95% Wilson interval)")
        ax.set_title(f"{variant} · {players} players · {games} games (seed {seed})")
        for x, (st, rate) in enumerate(zip(stats, rates, strict=True)):
            ax.annotate(
                f"{rate:.3f}" if st.seats else "no games",
                (x, rate),
                ha="center",
                va="bottom",
                fontsize=9,
                xytext=(14, 2) if st.seats else (0, 2),
                textcoords="offset points",
            )
        fig.tight_layout()
        fig.savefig(os.fspath(path), format=fmt)
    finally:
        plt.close(fig)
