"""pass^k (tau-bench) as the server computes it (scoring/pass-k.ts)."""

from __future__ import annotations

from math import comb
from typing import Iterable

__all__ = ["pass_hat_k"]


def pass_hat_k(successes: Iterable[bool]) -> dict[int, float]:
    """For k = 1 … n runs of one task: the chance that k of them, drawn at random, all succeed (C(c, k) / C(n, k))."""
    runs = [bool(success) for success in successes]
    n, c = len(runs), sum(runs)
    return {k: comb(c, k) / comb(n, k) for k in range(1, n + 1)}
