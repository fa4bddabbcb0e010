"""The ``min-grad-norm-rate`` provider: E[min_t ‖∇f(θ_t)‖] of normalised / clipped noisy SGD
on the cosine family with almost-surely bounded noise (checks/truth/rates_nonconvex.py)."""
from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp

import checks.truth.rates_nonconvex as rn
from checks import statements as ts
from theory.classes import AffineGradNoise, GeneralizedSmooth, InitialGap, LowerBounded
from theory.mechanisms import NoisySGD, NormalizedSGD
from theory.metrics import EXPECTED_MIN_GRAD_NORM, MIN_EXPECTED_GRAD_NORM
from theory.model import Rate, asm

L0, L1, t0, t1, Df, r, sg, T, C, c = sp.symbols("L0 L1 tau0 tau1 D_f r sigma T C c",
                                               positive=True)
N, B = sp.symbols("N B", positive=True, integer=True)
CLS = (GeneralizedSmooth(L0, L1, of="objective"), LowerBounded(of="objective"),
       AffineGradNoise(t0, t1), InitialGap(Df))
NSGD = NormalizedSGD(n=N, b=B, eta=1 / sp.sqrt(T), r=r, sigma=sg, T=T, sampling="fixed")
HYPS = [asm(sp.Gt(r, t0), "r > τ0"), asm(sp.Lt(t1, 1), "τ1 < 1"), asm(sp.Le(B, N), "B ≤ N")]


def _sc(**kw):
    base = dict(algo="normalized", law="skewed", tau0=1.0, L0=0.01, gap0=1.0, N=300, B=30,
                T=200, eta=0.3, sigma=0.5, r=2.0)
    base.update(kw)
    return rn.Scenario(**base)


def test_family_meets_every_class_exactly():
    sc = _sc()
    vals, cnt = sc.atoms()
    assert abs(float((vals * cnt).sum())) == 0.0                  # unbiased: Σ ζ_i = 0
    assert np.all(np.abs(vals) <= sc.tau0)                       # ‖ζ‖ ≤ τ0 ≤ τ0 + τ1‖∇f‖
    th0 = sc.theta0()
    assert sc.A * (1 - math.cos(th0 / sc.w)) == pytest.approx(sc.gap0, rel=1e-12)
    assert sc.A / sc.w**2 == pytest.approx(sc.L0, rel=1e-12)    # sup|f''| = L0
    assert sc.G == pytest.approx(sc.L0 * sc.w)
    sym = _sc(law="symmetric", N=301)
    v2, c2 = sym.atoms()
    assert float((v2 * c2).sum()) == 0.0 and c2.sum() == 301


def test_a_tiny_gap_is_attained_not_rounded_away():
    # D_f/A = 5·10⁻¹⁹: arccos(1 − D_f/A) would be arccos(1) = 0 (no gap at all)
    sc = _sc(tau0=1e7, L0=4e-7, gap0=30.0)
    th0 = sc.theta0()
    assert th0 > 0
    assert 2 * sc.A * math.sin(th0 / (2 * sc.w)) ** 2 == pytest.approx(30.0, rel=1e-12)


def test_batch_law_is_the_multivariate_hypergeometric():
    ks, cdf = rn.batch_law(np.array([4, 5, 2]), 3)
    p = np.diff(np.concatenate([[0.0], cdf]))
    for (a, b, z), pk in zip(ks.astype(int), p):
        want = math.comb(4, a) * math.comb(5, b) * math.comb(2, z) / math.comb(11, 3)
        assert pk == pytest.approx(want, rel=1e-12)
    assert cdf[-1] == 1.0 and np.all(ks.sum(axis=1) == 3)


def test_simulation_is_seeded_and_bounded():
    sc = _sc()
    a = rn.simulate(sc, runs=64, seed=3)
    b = rn.simulate(sc, runs=64, seed=3)
    assert np.array_equal(a, b)
    s0 = sc.G * math.sin(sc.theta0() / sc.w)
    assert np.all(a <= s0 + 1e-15) and np.all(a >= 0)           # the min includes t = 0


def test_empirical_bernstein_error_is_at_least_its_range_term():
    x = np.full(100, 0.3)
    m, e = rn.bernstein(x, 1.0)
    assert m == pytest.approx(0.3)
    assert e == pytest.approx(7 * math.log(2 / rn.DELTA) / (3 * 99))


def test_the_normalised_drift_has_a_non_vanishing_equilibrium_that_falls_with_r():
    eq = [_sc(r=x).equilibrium() for x in (1.05, 2.0, 10.0, 100.0)]
    assert all(e > 0 for e in eq) and eq == sorted(eq, reverse=True)
    # large r: E[hg] ≈ s/r − E[(s+ζ)|s+ζ|]/r², so s* ≈ E[ζ|ζ|]/r = τ0²/(6r)
    assert eq[-1] == pytest.approx(1 / 600, rel=0.02)
    assert _sc(law="symmetric").equilibrium() == 0.0
    assert _sc(algo="clipped", C=3.0, r=None).equilibrium() == 0.0   # |ζ| ≤ C: no bias


def test_supports_only_what_the_family_is_a_member_of():
    p = rn.MinGradNormRateProvider()
    ok = Rate("statement", EXPECTED_MIN_GRAD_NORM, C * T**sp.Rational(-1, 4), NSGD,
              problem_class=CLS, hypotheses=HYPS, constants=(C,), depends_on=(t0, t1, L0, L1))
    assert p.supports(ok)
    other = Rate("statement", MIN_EXPECTED_GRAD_NORM, C * T**sp.Rational(-1, 4), NSGD,
                 problem_class=CLS, hypotheses=HYPS)
    assert not p.supports(other)
    loss_lb = Rate("statement", EXPECTED_MIN_GRAD_NORM, 1 / T, NSGD,
                   problem_class=(GeneralizedSmooth(L0, L1), LowerBounded(),
                                  AffineGradNoise(t0, t1), InitialGap(Df)), hypotheses=HYPS)
    assert "bounded below" in p.supports(loss_lb).reason
    poisson = NormalizedSGD(n=N, b=B, eta=1 / sp.sqrt(T), r=r, sigma=sg, T=T)
    assert not p.supports(Rate("statement", EXPECTED_MIN_GRAD_NORM, 1 / T, NoisySGD(
        n=N, b=B, eta=1 / sp.sqrt(T), C=c, sigma=sg, T=T, domain=1), problem_class=CLS))
    assert poisson.sampling == "fixed"          # DP-NSGD's default is the paper's sampling
    with pytest.raises(ValueError):
        Rate("statement", EXPECTED_MIN_GRAD_NORM, 1 / T, NSGD, problem_class=CLS,
             constants=(C,))                     # C occurs nowhere


@pytest.fixture
def small(monkeypatch):
    """Small runs and horizons: the provider's logic, not its resolution."""
    monkeypatch.setattr(rn, "RUNS", 400)
    monkeypatch.setattr(rn, "ANCHOR_T", 400)
    monkeypatch.setattr(rn, "MAX_POINTS", 2)
    monkeypatch.setattr(rn, "T_MAX", 20_000)


def test_explicit_bound_below_the_bias_is_violated(small):
    # E min ‖∇f‖ ≤ 10⁻³·τ0 is false for DP-NSGD on the skewed law (bias ≈ 0.08 at r = 2)
    st = Rate("statement", EXPECTED_MIN_GRAD_NORM, t0 / 1000, NSGD, problem_class=CLS,
              hypotheses=HYPS)
    out = ts.check_statement(st, budget=1, seed=0)
    assert out.tested and out.violated
    assert float(out.witness["truth_max"]) - float(out.witness["truth_error"]) > \
        float(out.witness["bound"])


def test_existential_constant_without_the_bias_term_has_no_admissible_value(small):
    # 'E min ‖∇f‖ ≤ C·T^(-1/4) for some C(τ, L)': the persisting bias of DP-NSGD makes the
    # needed C grow along T → ∞ (×16 per step): no constant works
    st = Rate("statement", EXPECTED_MIN_GRAD_NORM, C * T**sp.Rational(-1, 4), NSGD,
              problem_class=CLS, hypotheses=HYPS, constants=(C,), depends_on=(t0, t1, L0, L1))
    out = ts.check_statement(st, budget=1, seed=0)
    assert out.tested and out.violated, out.detail
    assert "no admissible C" in out.detail
    assert float(out.witness["needed_constant_lower"]) > 0


def test_existential_constant_with_a_bias_term_below_the_drift_equilibrium_fails(small):
    # τ0/100 is below the true bias of DP-NSGD at r = 2 (≈ 0.076): still no constant
    st = Rate("statement", EXPECTED_MIN_GRAD_NORM, C * T**sp.Rational(-1, 4) + t0 / 100, NSGD,
              problem_class=CLS, hypotheses=HYPS, constants=(C,), depends_on=(t0, t1, L0, L1))
    out = ts.check_statement(st, budget=1, seed=0)
    assert out.tested and out.violated, out.detail


def test_existential_constant_with_a_large_bias_term_holds_for_every_constant(small):
    st = Rate("statement", EXPECTED_MIN_GRAD_NORM, C * T**sp.Rational(-1, 4) + t0 / 4, NSGD,
              problem_class=CLS, hypotheses=HYPS, constants=(C,), depends_on=(t0, t1, L0, L1))
    out = ts.check_statement(st, budget=1, seed=0)
    assert out.tested and not out.violated
    assert "every C > 0 works" in out.detail
    assert float(out.witness["smallest_constant"]) == 0.0


def _dp_sgd_rate():
    """'E min ‖∇f‖ ≤ C·T^(-1/4) for some C(τ, L)' for clipped DP-SGD (B of N sampling)."""
    sgd = NoisySGD(n=N, b=B, eta=1 / sp.sqrt(T), C=c, sigma=c * sg, T=T, sampling="fixed")
    return Rate("statement", EXPECTED_MIN_GRAD_NORM, C * T**sp.Rational(-1, 4), sgd,
                problem_class=CLS,
                hypotheses=[asm(sp.Gt(c, 2 * t0 / (1 - t1)), "c > 2τ0/(1 − τ1)"),
                            asm(sp.Lt(t1, 1), "τ1 < 1"), asm(sp.Le(B, N), "B ≤ N")],
                constants=(C,), depends_on=(t0, t1, L0, L1))


def test_dp_sgd_reports_the_smallest_constant_and_is_not_violated(small):
    st = _dp_sgd_rate()
    out = ts.check_statement(st, budget=1, seed=0)
    assert out.tested and not out.violated, out.detail
    assert "smallest making it hold" in out.detail
    cval = float(out.witness["smallest_constant"])
    assert cval > 0
    # the reported constant makes the binding scenario hold: mean + error ≤ bound
    assert float(out.witness["truth_max"]) + float(out.witness["truth_error"]) <= \
        float(out.witness["bound"]) * (1 + 1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("algo", ["normalized-sgd", "dpsgd-gc"])
def test_the_exact_law_simulation_agrees_with_the_batched_runner(algo):
    """The provider's 1-D exact-law simulation and the generic torch runner (the simulator
    algorithms ``normalized-sgd`` / ``dpsgd-gc`` on the ``cosine-affine-noise`` problem,
    B-of-N sampling without replacement) give the same E[min_t |∇f(θ_t)|] within the sum
    of their empirical-Bernstein errors."""
    import torch

    from checks.simulate import make_problem
    from checks.simulate.algorithms import Hyper, make_algorithm
    from checks.simulate.runner import simulate as run

    T, runs = 60, 2000
    prob = make_problem("cosine-affine-noise", d=2, n=30, tau0=1.0, L0=0.01, gap=1.0,
                        canary=None)
    if algo == "normalized-sgd":
        hp = Hyper(eta=2.0, C=1.0, sigma_dp=0.3, b=6, sampling="fixed", r=1.5)
        sc = _sc(N=30, B=6, T=T, eta=2.0, sigma=0.3, r=1.5)
    else:
        hp = Hyper(eta=2.0, C=0.6, sigma_dp=0.3, b=6, sampling="fixed")
        sc = _sc(algo="clipped", r=None, C=0.6, N=30, B=6, T=T, eta=2.0, sigma=0.3)
    A, w, s = prob.params
    assert (A, w) == pytest.approx((sc.A, sc.w)) and s == pytest.approx(sc.theta0())
    res = run(prob, make_algorithm(algo), hp, runs=runs, T=T, with_canary=False, seed=5,
              device="cpu", dtype="float64", record_at=range(T))
    th = res.theta[:, :, 0]                                           # (T, runs)
    mins = (A / w * torch.sin((th + s) / w)).abs().min(dim=0).values.numpy()
    m1, e1 = rn.bernstein(mins, sc.G)
    m2, e2 = rn.bernstein(rn.simulate(sc, runs=runs, seed=5), sc.G)
    assert abs(m1 - m2) <= e1 + e2
    assert abs(m1 - m2) < 0.02


def test_the_lookup_table_inverts_the_batch_law_exactly():
    # every uniform maps to the outcome of the binary search, jumps and cell edges included
    _, cdf = rn.batch_law(np.array([100, 200, 1]), 30)
    table, exact = rn._inverse_table(cdf)
    M = rn.LOOKUP_CELLS
    u = np.concatenate([np.random.default_rng(5).random(200_000), cdf[:-1],
                        np.nextafter(cdf[:-1], 0.0), np.nextafter(cdf[:-1], 1.0),
                        np.arange(M) / M, np.nextafter(np.arange(1, M + 1) / M, 0.0)])
    u = u[(u >= 0) & (u < 1)]
    want = np.minimum(np.searchsorted(cdf, u, side="right"), cdf.size - 1)
    cell = (u * M).astype(np.intp)
    got = table[cell].copy()
    jump = ~exact[cell]
    got[jump] = np.minimum(np.searchsorted(cdf, u[jump], side="right"), cdf.size - 1)
    assert np.array_equal(got, want)
    assert jump.mean() < 0.01                    # the table decides almost every draw
    assert (~exact).sum() <= cdf.size            # at most one jump cell per outcome


@pytest.mark.parametrize("algo,kw", [("normalized", {"r": 2.0}), ("clipped", {"C": 2.6})])
def test_scenarios_stepped_together_give_the_numbers_of_one_at_a_time(algo, kw):
    scs = [rn.Scenario(algo=algo, law=law, tau0=1.0, L0=0.01, gap0=1.0, N=N_, B=b, T=T_,
                       eta=0.05, sigma=sig, **kw)
           for law in rn.LAWS for N_, b, T_, sig in ((301, 30, 150, 2.0), (40, 7, 150, 0.5),
                                                    (300, 30, 90, 2.0))]
    seeds = list(range(11, 11 + len(scs)))
    together = rn.simulate_many(scs, runs=64, seeds=seeds)
    for sc, sd, x in zip(scs, seeds, together):
        assert np.array_equal(x, rn.simulate(sc, runs=64, seed=sd))
    with pytest.raises(ValueError, match="one seed per scenario"):
        rn.simulate_many(scs, runs=64, seeds=seeds[:1])


def test_the_t_path_stops_once_the_needed_constant_stops_growing(small, monkeypatch):
    # clipped DP-SGD has no persisting bias: along T ×16 the certified needed constant stops
    # growing ×1.5 (or turns non-positive) at once, and the longer steps are not simulated
    calls = []
    orig = rn.simulate_many

    def counting(scs, *, runs, seeds):
        calls.append(sorted({sc.T for sc in scs}))
        return orig(scs, runs=runs, seeds=seeds)

    monkeypatch.setattr(rn, "simulate_many", counting)
    st = _dp_sgd_rate()
    out = ts.check_statement(st, budget=1, seed=0)
    assert out.tested and not out.violated, out.detail
    assert "T-path from the point" in out.detail and "(stopped: the certified" in out.detail
    # the first batch: the search's points; then one simulation per point of the path,
    # which stops before its last (dearest) points
    path = calls[1:]
    assert all(len(ts_) == 1 for ts_ in path)
    assert 1 <= len(path) < rn.PATH_STEPS + 1
