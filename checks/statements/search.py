"""The targeted (Hypothesis) phase of the driver's searches (DESIGN.md, *Statement
checks*), through the engine's one targeted search (:mod:`checks.search`)."""
from __future__ import annotations

from checks.search import point_strategy, targeted
from checks.statements.space import Space

__all__ = ["hypothesis_phase", "point_strategy"]


def hypothesis_phase(space: Space, consider, n: int, seed: int) -> None:
    """``n`` points of ``space`` searched toward the largest ``consider(point)`` (the
    ratio truth/bound; None where a point gives none)."""
    def score(ms, us):
        pts = space.from_modes(ms, us)
        r = consider(pts[0]) if pts else None
        return None if r is None else float(min(r, 1e6))

    targeted(len(space.doms), score, n=n, seed=seed, label="truth/bound")
