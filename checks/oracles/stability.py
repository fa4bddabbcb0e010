"""Argument stability and iterate norms of SGD measured on neighbouring datasets: the step
oracles ``sgd-argument-stability`` and ``sgd-iterate-norm`` (generic).

**Instance.**  d = 1, data z ∈ Z = [−a, a], l(w, z) = c|w − z|^{1+ν}/(1+ν) with
c = L/2^{1−ν}: convex, non-negative and ν-Hölder smooth with constant L (the power-loss
family of :mod:`checks.truth.power_loss` in one dimension); sup_z |∂l(0, z)| = c a^ν and
sup_z l(0, z) = c a^{1+ν}/(1+ν) — the values an :class:`~theory.classes.OriginBounds`
class in force receives.  The dataset S has its n points evenly spread over [−a, a].
SGD runs from w_1 = 0 with a constant step η (projected on [−R, R] when the oracle is
given a radius), drawing one index per step; the output is w̄ = (1/T)Σ_{t=1}^T w_t.

**Truth.**  For every index sequence (i_1, …, i_T) — all n^T of them when there are at
most :data:`ENUMERATE_MAX` (their law is uniform: probabilities are exact fractions),
otherwise a seeded sample with a Clopper–Pearson interval — the oracle computes
max over neighbours S' (z_i replaced by −a, 0 or a) of |w̄(S) − w̄(S')|, a lower bound of
sup_{S≃S'} δ_A(S, S'), and the fraction of sequences on which it reaches the claimed
bound.  REFUTED when that fraction exceeds the claimed failure probability (enumerated:
exactly; sampled: the lower end of the 99.9% interval), with the bound evaluated at 50
digits and a relative margin of 10⁻⁹ (far above the rounding of ≤ 10⁴ double steps);
otherwise SUPPORTED with the largest ratio measured/bound.

Which symbols are the step size, iteration count, sample size, failure probability and
radius is said by ``oracle_args`` (names of the step's symbols); the class constants come
from ``Holder(ν, L)`` and ``OriginBounds(M, M0)`` in force; every other symbol of the
bound must be defined by an equation in force (``c = …``), computed at each scenario.
Named predicates in force (``W = R^d``) are the oracle's own setting (``radius``) and are
not otherwise read.
"""
from __future__ import annotations

import time
from types import SimpleNamespace

import mpmath
import numpy as np
import sympy as sp
from scipy.special import betaincinv

from checks.plugins import step_oracle
from checks.statements import Space
from checks.truth.base import Unavailable, evaluate, evaluate_mp
from checks.truth.sgd_paths import (
    ENUMERATE_MAX,
    neighbour_sup,
    sequences,
)
from checks.verdict import StepReport, Verdict
from theory.classes import Holder, OriginBounds, classes_in
from theory.model import Located

#: scenario grid: (ν, L, n, T, a, γ, R); η is taken at fractions of its admissible range
SCENARIOS = [
    (0.0, 1.0, 2, 8, 1.0, 0.5, 2.0), (0.5, 1.0, 2, 8, 1.0, 0.5, 2.0),
    (0.9, 0.5, 3, 6, 2.0, 0.3, 1.0), (0.25, 2.0, 3, 6, 1.0, 0.9, 0.5),
    (0.0, 0.5, 4, 5, 3.0, 0.1, 1.0), (0.75, 1.5, 2, 10, 1.0, 0.2, 1.0),
    (0.99, 1.0, 2, 12, 1.0, 0.05, 1.0), (0.0, 4.0, 4, 6, 0.5, 0.01, 0.25),
]
#: sampled scenarios (larger n, T) used from twice the default budget
LARGE = [(0.0, 1.0, 10, 60, 1.0, 0.1, 1.0), (0.5, 1.0, 20, 100, 1.0, 0.5, 1.0),
         (0.9, 1.0, 50, 200, 2.0, 0.05, 2.0)]
ETA_FRACTIONS = (0.05, 0.5, 0.95)
DEFAULT_BUDGET = 2000
MARGIN = 1e-9


def _clopper_pearson_lower(k: int, m: int, conf: float = 0.999) -> float:
    if k == 0:
        return 0.0
    return float(betaincinv(k, m - k + 1, 1 - conf))


# --------------------------------------------------------------------------------------
class _Roles:
    """The step's symbols by role (oracle_args) and the classes in force."""

    def __init__(self, loc: Located):
        args = dict(loc.step.oracle_args)
        syms = {s.name: s for s in loc.step.free_symbols}
        for h in loc.hypotheses:
            if h.expr is not None:
                syms.update({s.name: s for s in h.expr.free_symbols})
        self.syms = syms
        self.args = args
        hol = [c for c in classes_in(loc.hypotheses) if isinstance(c, Holder)]
        if not hol:
            raise ValueError("the oracle needs a Holder(nu, L) class in force")
        self.nu, self.L = hol[0].nu, hol[0].L
        ob = [c for c in classes_in(loc.hypotheses) if isinstance(c, OriginBounds)]
        self.M = ob[0].M if ob else None
        self.M0 = ob[0].M0 if ob else None

    def name(self, role: str) -> str | None:
        v = self.args.get(role)
        return None if v in (None, "") else str(v)



def _space(loc: Located):
    hyps = tuple(h for h in loc.hypotheses if not h.is_predicate)
    return Space(SimpleNamespace(hypotheses=hyps, free_symbols=loc.step.free_symbols))


def _scenario_points(loc: Located, roles: _Roles, budget: int):
    """(scenario tuple, η, admissible point, instance constants) over the grid."""
    space = _space(loc)
    grid = SCENARIOS + (LARGE if budget >= 2 * DEFAULT_BUDGET else [])
    for (nu, L, n, T, a, gamma, R) in grid:
        c = L / 2 ** (1 - nu)
        M, M0 = c * a ** nu, c * a ** (1 + nu) / (1 + nu)
        base = {}
        for role, val in (("n", n), ("T", T), ("confidence", gamma), ("radius", R)):
            nm = roles.name(role)
            if nm is not None:
                base[nm] = float(val)
        for expr, val in ((roles.nu, nu), (roles.L, L), (roles.M, M), (roles.M0, M0)):
            if isinstance(expr, sp.Symbol):
                base[expr.name] = float(val)
        lo, hi = 1.0 / T, min(1.0, 1.0 / L)
        for f in ETA_FRACTIONS:
            eta = lo + f * (hi - lo)
            v = dict(base)
            if roles.name("eta"):
                v[roles.name("eta")] = eta
            # symbols the grid does not set take a plain value the hypotheses admit
            w = None
            for plain in (0.5, 1.0, 2.0, 0.1):
                u = dict(v)
                for dom in space.doms:
                    u.setdefault(dom.sym.name, float(max(1, round(plain))) if dom.integer
                                 else plain)
                w = space.admissible(u)
                if w is not None:
                    break
            if w is None:
                continue
            yield (nu, L, n, T, a, gamma, R), eta, w, (c, M, M0)


@step_oracle("sgd-argument-stability",
             arguments={"eta": "the step-size symbol", "T": "the iteration-count symbol",
                        "n": "the sample-size symbol",
                        "confidence": "the failure-probability symbol (the claim holds with "
                                      "probability ≥ 1 − it)",
                        "radius": "the radius symbol of W ⊆ B(0, R) (empty: W = R^d)"},
             supports="sup_{S≃S'} ||A(S) − A(S')|| <= rhs with probability ≥ 1 − confidence, "
                      "A = averaged SGD from 0 on a Hölder-smooth loss")
def sgd_argument_stability(loc: Located, *, budget: int, seed: int) -> StepReport:
    """Averaged SGD on neighbouring datasets of 1-D members of the class, every index
    sequence enumerated (sampled beyond 4096 sequences), against the claimed bound."""
    t0 = time.perf_counter()
    st = loc.step
    roles = _Roles(loc)
    rad_name = roles.name("radius")
    worst, tried, seen = None, 0, 0
    for (nu, L, n, T, a, gamma, R), eta, v, (c, M, M0) in _scenario_points(loc, roles, budget):
        try:
            bound = evaluate(st.rhs, v)
            conf = evaluate(sp.Symbol(roles.name("confidence")) if roles.name("confidence")
                            else sp.Float(gamma), v)
        except Unavailable:
            continue
        seqs, exhaustive = sequences(n, T, seed=seed + tried)
        z = np.linspace(-a, a, n)
        sup = neighbour_sup(z, a, seqs, nu=nu, c=c, eta=eta,
                            radius=R if rad_name else None)
        k = int(np.sum(sup >= bound * (1 + MARGIN)))
        frac = k / len(seqs)
        ratio = float(sup.max() / bound)
        tried += 1
        seen += len(seqs)
        where = {"alpha": f"{nu:g}", "L": f"{L:g}", "n": str(n), "T": str(T), "a": f"{a:g}",
                 "gamma": f"{conf:g}", "eta": f"{eta:.6g}", "c": f"{c:.6g}", "M": f"{M:.6g}",
                 "M0": f"{M0:.6g}", "bound": f"{bound:.6g}"}
        if rad_name:
            where["R"] = f"{R:g}"
        lower = frac if exhaustive else _clopper_pearson_lower(k, len(seqs))
        if lower > conf:
            bmp = evaluate_mp(st.rhs, v, 50)
            return StepReport(loc.id, st.eq, st.kind.value, Verdict.REFUTED,
                              "oracle:sgd-argument-stability",
                              counterexample=dict(where, P=str(frac),
                                                  bound_50_digits=mpmath.nstr(bmp, 20)),
                              slack=bound - float(sup.max()), samples=seen,
                              seconds=time.perf_counter() - t0, where=where,
                              detail=f"P(sup δ ≥ bound) {'=' if exhaustive else '≥'} "
                                     f"{lower:.4g} > {conf:g} over "
                                     f"{'all' if exhaustive else 'a sample of'} {len(seqs)} "
                                     f"index sequences")
        if worst is None or ratio > worst[0]:
            worst = (ratio, where)
    if worst is None:
        return StepReport(loc.id, st.eq, st.kind.value, Verdict.UNCHECKED,
                          "oracle:sgd-argument-stability", seconds=time.perf_counter() - t0,
                          detail="no scenario of the grid satisfies the hypotheses in force")
    ratio, where = worst
    return StepReport(loc.id, st.eq, st.kind.value, Verdict.SUPPORTED,
                      "oracle:sgd-argument-stability", slack=1 - ratio, samples=seen,
                      seconds=time.perf_counter() - t0, where=where,
                      detail=f"{tried} scenarios (1-D members of the class, α from 0 to 0.99, "
                             f"{seen} index sequences, enumerated up to {ENUMERATE_MAX} per "
                             f"scenario, neighbours z_i → −a, 0, a): the largest "
                             f"max_seq sup|w̄ − w̄'| / bound = {ratio:.3g} (the bound is never "
                             f"reached)")


@step_oracle("sgd-iterate-norm",
             arguments={"eta": "the step-size symbol", "t": "the iteration-index symbol",
                        "T": "the iteration-count symbol, if the hypotheses use one",
                        "n": "the sample-size symbol, if the hypotheses use one"},
             supports="||w_{t+1}||² <= rhs for every trajectory of SGD from 0 on W = R^d")
def sgd_iterate_norm(loc: Located, *, budget: int, seed: int) -> StepReport:
    """max over every index sequence and t of ||w_{t+1}||² / rhs on 1-D members."""
    t0 = time.perf_counter()
    st = loc.step
    roles = _Roles(loc)
    t_name = roles.name("t")
    worst, tried = None, 0
    for (nu, L, n, T, a, gamma, R), eta, v, (c, M, M0) in _scenario_points(loc, roles, budget):
        seqs, _ = sequences(n, T, seed=seed + tried)
        z = np.linspace(-a, a, n)
        w = np.zeros(len(seqs))
        for t in range(1, T + 1):
            x = w - z[seqs[:, t - 1]]
            g = c * np.sign(x) * np.abs(x) ** nu if nu > 0 else c * np.sign(x)
            w = w - eta * g
            vt = dict(v, **({t_name: float(t)} if t_name else {}))
            try:
                bound = evaluate(st.rhs, vt)
            except Unavailable:
                break
            ratio = float(np.max(w ** 2) / bound)
            where = {"alpha": f"{nu:g}", "L": f"{L:g}", "n": str(n), "t": str(t),
                     "a": f"{a:g}", "eta": f"{eta:.6g}", "bound": f"{bound:.6g}"}
            if ratio > 1 + MARGIN:
                bmp = evaluate_mp(st.rhs, vt, 50)
                return StepReport(loc.id, st.eq, st.kind.value, Verdict.REFUTED,
                                  "oracle:sgd-iterate-norm",
                                  counterexample=dict(where, ratio=f"{ratio:.6g}",
                                                      bound_50_digits=mpmath.nstr(bmp, 20)),
                                  slack=1 - ratio, samples=tried, where=where,
                                  seconds=time.perf_counter() - t0,
                                  detail=f"||w_(t+1)||² = {ratio:.6g} × the bound on a member "
                                         "of the class")
            if worst is None or ratio > worst[0]:
                worst = (ratio, where)
        tried += 1
    if worst is None:
        return StepReport(loc.id, st.eq, st.kind.value, Verdict.UNCHECKED,
                          "oracle:sgd-iterate-norm", seconds=time.perf_counter() - t0,
                          detail="no scenario of the grid satisfies the hypotheses in force")
    ratio, where = worst
    return StepReport(loc.id, st.eq, st.kind.value, Verdict.SUPPORTED, "oracle:sgd-iterate-norm",
                      slack=1 - ratio, samples=tried, where=where,
                      seconds=time.perf_counter() - t0,
                      detail=f"{tried} scenarios (1-D members, every index sequence): the "
                             f"largest ||w_(t+1)||²/bound = {ratio:.3g}")
