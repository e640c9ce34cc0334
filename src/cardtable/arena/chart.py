"""The arena's chart: win rates with their 95% intervals as a PNG (needs matplotlib)."""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence

from .errors import ArenaError
from .statistics import AgentStats

__all__ = ["win_rate_chart"]


def win_rate_chart(
    path: str | os.PathLike[str],
    stats: Sequence[AgentStats],
    *,
    variant: str,
    players: int,
    games: int,
    seed: int,
) -> None:
    """Draw the win rates of ``stats`` with their 95% intervals as a PNG bar chart at ``path``.

    A dashed line marks ``1 / players``, the win rate of equally strong agents; the title names
    the ``variant``, ``players``, ``games`` and ``seed`` of the run.
    """
    try:
        matplotlib = importlib.import_module("matplotlib")
    except ImportError as err:
        raise ArenaError("charts need matplotlib: pip install cardtable[arena]") from err
    matplotlib.use("Agg")
    plt = importlib.import_module("matplotlib.pyplot")
    labels = [s.label for s in stats]
    rates = [s.win_rate for s in stats]
    below = [s.win_rate - s.ci_low for s in stats]
    above = [s.ci_high - s.win_rate for s in stats]
    fig, ax = plt.subplots(figsize=(max(4.0, 1.3 * len(labels) + 2), 4.0), dpi=120)
    try:
        ax.bar(labels, rates, color="#4C72B0", yerr=[below, above], capsize=6)
        ax.axhline(
            1 / players,
            color="grey",
            linestyle="--",
            linewidth=1,
            label=f"equal strength (1/{players})",
        )
        ax.legend(loc="upper right", fontsize=8)
        ax.set_ylim(0, 1)
        ax.set_ylabel("win rate (95% Wilson interval)")
        ax.set_title(f"{variant} · {players} players · {games} games (seed {seed})")
        for x, rate in enumerate(rates):
            ax.annotate(
                f"{rate:.3f}",
                (x, rate),
                ha="center",
                va="bottom",
                fontsize=8,
                xytext=(12, 2),
                textcoords="offset points",
            )
        fig.tight_layout()
        fig.savefig(os.fspath(path), format="png")
    finally:
        plt.close(fig)
