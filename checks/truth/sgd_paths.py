"""One-dimensional SGD on the power loss along index sequences — every sequence, or a
seeded sample — and the largest change of its averaged output over neighbouring datasets:
the kernel of the argument-stability oracle (:mod:`checks.oracles.stability`) and of the
output-perturbation profile (:mod:`checks.truth.profiles_sgd`).

SGD runs from w_1 = 0 with a constant step η (projected on [−R, R] with a radius), one
index per step, on l(w, z) = c|w − z|^{1+ν}/(1+ν); the output is w̄ = (1/T)Σ_{t=1}^T w_t.
"""
from __future__ import annotations

import itertools

import numpy as np

#: index sequences enumerated exhaustively up to this many (n^T)
ENUMERATE_MAX = 4096
#: sampled sequences per scenario otherwise (at the default budget)
SAMPLE = 512


def sequences(n: int, T: int, *, limit: int = ENUMERATE_MAX, sample: int = SAMPLE,
              seed: int = 0) -> tuple[np.ndarray, bool]:
    """(index sequences as a (k, T) array, exhaustive?): all n^T when at most ``limit``,
    else ``sample`` drawn uniformly (seeded)."""
    if n < 1 or T < 1:
        raise ValueError(f"n and T must be >= 1, got n={n}, T={T}")
    if n ** T <= limit:
        return np.array(list(itertools.product(range(n), repeat=T)), dtype=int), True
    rng = np.random.default_rng(seed)
    return rng.integers(0, n, size=(sample, T)), False


def run_sgd(z: np.ndarray, seqs: np.ndarray, *, nu: float, c: float, eta: float,
            radius: float | None) -> tuple[np.ndarray, np.ndarray]:
    """(w̄ per sequence, max_t w_t² per sequence over t = 2..T+1) for 1-D SGD from 0 on
    the power loss c|w − z|^{1+ν}/(1+ν) with data ``z``."""
    w = np.zeros(seqs.shape[0])
    acc = np.zeros_like(w)
    peak = np.zeros_like(w)
    for t in range(seqs.shape[1]):
        acc += w                                   # w_1 … w_T enter the average
        x = w - z[seqs[:, t]]
        g = c * np.sign(x) * np.abs(x) ** nu if nu > 0 else c * np.sign(x)
        w = w - eta * g
        if radius is not None:
            w = np.clip(w, -radius, radius)
        peak = np.maximum(peak, w * w)
    return acc / seqs.shape[1], peak


def neighbour_sup(z: np.ndarray, a: float, seqs: np.ndarray, *, nu: float, c: float,
                  eta: float, radius: float | None) -> np.ndarray:
    """max over i and z'_i ∈ {−a, 0, a} of |w̄(S) − w̄(S')| for every sequence."""
    wbar, _ = run_sgd(z, seqs, nu=nu, c=c, eta=eta, radius=radius)
    sup = np.zeros(len(seqs))
    for i in range(len(z)):
        for zi in (-a, 0.0, a):
            if zi == z[i]:
                continue
            z2 = z.copy()
            z2[i] = zi
            w2, _ = run_sgd(z2, seqs, nu=nu, c=c, eta=eta, radius=radius)
            sup = np.maximum(sup, np.abs(wbar - w2))
    return sup
