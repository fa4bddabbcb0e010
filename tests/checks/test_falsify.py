"""checks.falsify: false claims REFUTED by witnesses that satisfy every hypothesis
(re-checked here independently with SymPy's exact arithmetic), true ones never."""
from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from checks.claim import step_claim
from checks.falsify import _domains, _sample, confirm, search
from theory.papers.liang.symbols import C, L, T, alpha, b, beta, eta, mu, n, q, sigma_dp, t

x, y = sp.symbols("x y", positive=True)


def _exact_check(claim, cx):
    """Independent exact re-check: every hypothesis holds, the conclusion fails."""
    sub = {s: sp.Rational(cx[s.name]) for s in claim.symbols}
    for s, v in sub.items():
        if s.is_integer:
            assert v.q == 1, f"{s} must be an integer, got {v}"
        if s.is_positive:
            assert v > 0
    for h in claim.hypotheses:
        assert bool(sp.N(h.subs(sub), 60)) if not h.subs(sub) in (sp.true, sp.false) \
            else h.subs(sub) is sp.true, f"hypothesis {h} fails at {cx}"
    concl = claim.conclusion.subs(sub)
    assert concl is sp.false or not bool(sp.N(concl, 60)) if concl not in (sp.true,) \
        else False, f"conclusion holds at {cx}"


FALSE = [
    pytest.param((x + y) / 2, "<=", sp.sqrt(x * y), [], id="reverse-am-gm"),
    pytest.param(alpha / (alpha - 1), "<=", 2, [alpha > 1], id="alpha-near-1"),
    pytest.param(1 - eta * mu, ">=", sp.Rational(1, 2), [eta <= 1 / L, mu <= L],
                 id="ordering"),
    pytest.param(n, ">=", 6 * b, [b <= n / 5], id="integers"),
    pytest.param(sp.log(1 + x), "<=", x - x**2 / 3, [], id="log-series"),
    pytest.param(sp.exp(-x), "<=", 1 - x / 2, [x < 3], id="interval"),
    pytest.param(sp.Sum(1 / (t + 1), (t, 0, T - 1)), "<=", sp.log(T), [], id="harmonic"),
    pytest.param(beta * (1 - beta), "<", sp.Rational(1, 4), [beta < 1], id="strict-at-1/2"),
]


@pytest.mark.parametrize("lhs, rel, rhs, hyps", FALSE)
def test_false_claims_refuted_with_valid_witness(lhs, rel, rhs, hyps):
    claim = step_claim(lhs, rel, rhs, hyps)
    out = search(claim, budget=800, seed=3)
    assert out.counterexample is not None, out.detail
    _exact_check(claim, out.counterexample)


TRUE = [
    pytest.param(sp.sqrt(x * y), "<=", (x + y) / 2, [], id="am-gm"),
    pytest.param(8 * alpha * C**2 / (beta * n**2 * sigma_dp**2), "<=",
                 2 * alpha * C**2 / (beta * n * b * sigma_dp**2), [b <= n / 5], id="lemma"),
    pytest.param((1 + x)**T, ">=", 1 + T * x, [], id="bernoulli"),
    pytest.param(sp.log(1 + x), "<=", x, [], id="log"),
]


@pytest.mark.parametrize("lhs, rel, rhs, hyps", TRUE)
def test_true_claims_not_refuted(lhs, rel, rhs, hyps):
    out = search(step_claim(lhs, rel, rhs, hyps), budget=400, seed=1)
    assert out.counterexample is None
    assert out.feasible > 0 and out.samples >= 400
    assert out.slack is not None and out.slack > -1e-6


def test_rounding_is_not_a_counterexample():
    # an identity that float arithmetic gets wrong at large magnitudes
    claim = step_claim((x + 1)**2 - x**2, "=", 2 * x + 1)
    assert search(claim, budget=500, seed=0).counterexample is None


def test_confirm_rejects_points_violating_hypotheses():
    claim = step_claim(alpha / (alpha - 1), "<=", 2, [alpha > 1])
    assert confirm(claim, {"alpha": "1/2"}) is None      # alpha > 1 fails
    assert confirm(claim, {"alpha": "3/2"}) == {"alpha": "3/2"}
    assert confirm(claim, {"alpha": "3"}) is None         # conclusion holds


def test_confirm_checks_integrality():
    claim = step_claim(n, ">=", 6 * b, [b <= n / 5])
    assert confirm(claim, {"n": "5", "b": "1"}) == {"b": "1", "n": "5"}
    assert confirm(claim, {"n": "5.5", "b": "1"}) is None


def test_sampler_respects_domains_and_orderings():
    claim = step_claim(eta, "<=", 1, [eta <= 1 / L, mu <= L, alpha > 1, beta < 1, b <= n / 5])
    doms = _domains(claim)
    rng = np.random.default_rng(0)
    vals = _sample(doms, rng.integers(0, 7, (len(doms), 3000)), rng.random((len(doms), 3000)))
    v = dict(zip([d.sym for d in doms], vals))
    ok = np.all(np.isfinite(vals), axis=0)
    assert ok.mean() > 0.9
    assert np.all(v[alpha][ok] > 1) and np.all((v[beta][ok] > 0) & (v[beta][ok] < 1))
    assert np.all(v[mu][ok] <= v[L][ok]) and np.all(v[b][ok] <= v[n][ok] / 5)
    assert np.all(v[n][ok] == np.round(v[n][ok]))
    # many decades and the boundary are explored
    assert v[L][ok].min() < 1e-6 and v[L][ok].max() > 1e6
    assert (v[alpha][ok] - 1).min() < 1e-8


def test_same_seed_same_outcome():
    claim = step_claim(sp.log(1 + x), "<=", x, [])
    a = search(claim, budget=300, seed=7)
    b_ = search(claim, budget=300, seed=7)
    assert (a.slack, a.where, a.samples) == (b_.slack, b_.where, b_.samples)


def test_budget_validation():
    with pytest.raises(ValueError, match="budget must be an integer >= 1"):
        search(step_claim(x, "<=", x + 1), budget=0)


def test_cancellation_against_zero_is_not_a_counterexample():
    # Eq(A - B, 0) with A = B identically but written differently: float and even
    # 50-digit evaluations leave a residue; relative to 0 that looks like a violation
    A = (sp.sqrt(2) * C * sp.sqrt(alpha) / (sp.sqrt(b) * sp.sqrt(n) * sigma_dp)
         + sp.sqrt(2) * L * sp.sqrt(alpha) / sigma_dp)**2
    B = sp.expand(A)
    claim = step_claim(A - B, "=", 0, [alpha > 1])
    assert search(claim, budget=500, seed=0).counterexample is None
    # and a witness of a *false* equation against 0 is still found
    bad = step_claim(A - B + C / (L * 10**6), "=", 0, [alpha > 1])
    assert search(bad, budget=500, seed=0).counterexample is not None


def test_exact_arbiter_rejects_mpmath_noise():
    from fractions import Fraction
    from checks.falsify import _exact_decide
    x_ = sp.Symbol("x", positive=True)
    claim = step_claim((sp.sqrt(x_) + 1)**2 - x_ - 2 * sp.sqrt(x_) - 1, "=", 0)
    assert not _exact_decide(claim, {x_: Fraction(2, 3)})      # exactly 0: holds
    claim2 = step_claim(x_**2, "<=", x_)
    assert _exact_decide(claim2, {x_: Fraction(3, 2)})          # 9/4 > 3/2: violated


def test_remembered_isolation_depends_on_which_symbols_come_earlier():
    """The domains memo is keyed by the relation, the symbol and the earlier symbols the
    relation holds: x ≤ y bounds x only once y is sampled before it."""
    import sympy as sp

    from checks import falsify as fz
    x, y = sp.symbols("x y", positive=True)
    rel = sp.Le(x, 2 * y)
    assert fz._isolate(rel, x, set()) is None
    b = fz._isolate(rel, x, {y})
    assert b is not None and b.expr == 2 * y and not b.lower
    assert fz._isolate(rel, x, set()) is None            # still None: a separate entry
    assert fz._isolate(rel, x, {y, sp.Symbol("z")}) == b  # unrelated earlier symbols
    d1 = fz.domains_for([rel, sp.Gt(y, 1)], [y, x])
    d2 = fz.domains_for([rel, sp.Gt(y, 1)], [y, x])
    assert [(d.lo, d.hi, d.dep) for d in d1] == [(d.lo, d.hi, d.dep) for d in d2]
    assert d1[0].lo == 1 and d1[1].dep == [b]
    assert float(d1[1].dep_fns[0](3.0)) == 6.0


def test_one_point_slacks_equal_the_array_path_bit_for_bit():
    """The polish and the targeted phase evaluate one point at a time through Python
    floats (_slacks_one); it must give the array path's mask and slack exactly, NaN,
    infinities, zeros and overflow included."""
    import numpy as np
    import sympy as sp
    from checks import falsify as F
    from checks.claim import make_claim
    x, y, z = sp.symbols("x y z", real=True)
    claims = [make_claim(sp.Le(x**2 + y, sp.exp(z) - x * y), [sp.Gt(x, 0), sp.Ge(y, -1)]),
              make_claim(sp.Eq(x * (y + 1), x * y + x), [sp.Gt(x, 0)]),
              make_claim(sp.Lt(sp.log(x) + y, z),
                         [sp.Gt(x, 0), sp.Or(sp.Lt(y, 1), sp.Gt(z, 2))]),
              make_claim(sp.Ge(sp.sqrt(x) * y, z / x), [sp.Ge(x, 0), sp.Not(sp.Eq(y, z))])]
    rng = np.random.default_rng(1)
    for c in claims:
        ev = F.SlackEvaluator(c)
        k = len(ev.syms)
        pts = rng.standard_normal((k, 400)) * 10.0 ** rng.integers(-5, 5, (k, 400))
        pts[:, :20] = 0.0
        pts[0, 20:30] = np.inf
        pts[1, 30:40] = np.nan
        pts[:, 40:50] = 1e308
        pts[:, 50:60] = -1e308
        ok, concl = ev.slacks_np(pts)
        assert ok.any() and (~ok).any()
        for j in range(pts.shape[1]):
            o1, c1 = ev.slacks_np(pts[:, j:j + 1])
            assert o1.shape == c1.shape == (1,)
            assert o1[0] == ok[j]
            assert (np.isnan(c1[0]) and np.isnan(concl[j])) or \
                np.float64(c1[0]).tobytes() == np.float64(concl[j]).tobytes()


def test_one_mode_sampling_equals_the_all_modes_path_bit_for_bit():
    """A Hypothesis example draws one point: _transform then computes only its mode's
    value. Each entry of a mixed-mode call (every mode computed, np.select) must equal the
    same entry drawn alone, for every mode, bounded or not, integer or not."""
    from checks.falsify import N_MODES, _transform
    rng = np.random.default_rng(7)
    bounds = [(0.0, np.inf), (-np.inf, 1.0), (-np.inf, np.inf), (1.0, 2.0), (-3.5, 1e6),
              (1e-9, 7.0), (7.0, 7.0 + 1e-9)]
    checked = 0
    for lo, hi in bounds:
        for integer in (False, True):
            modes = np.tile(np.arange(N_MODES), 40)
            us = rng.random(modes.size)
            us[:N_MODES] = 0.0
            us[N_MODES:2 * N_MODES] = 1.0
            mixed = _transform(modes, us, lo, hi, integer)
            for j in range(modes.size):
                alone = _transform(modes[j:j + 1], us[j:j + 1], lo, hi, integer)
                assert alone.shape == (1,)
                assert np.array_equal(alone, mixed[j:j + 1], equal_nan=True), (lo, hi, j)
                checked += 1
    assert checked == len(bounds) * 2 * N_MODES * 40


def test_exact_signs_substitute_once_and_refuse_a_power_out_of_reach():
    """The exact sign of a witness substitutes its values by one rebuild of the tree (the
    same value as ``subs``), keeps ``subs`` for a sum (its index is bound), and calls a
    power whose exact value would need millions of bits undecided at once instead of
    building it (a search that drove an integer exponent up once hung a run here)."""
    from checks.falsify import ExactOutOfReach, _sign_exact, substitute_numbers
    x, n = sp.symbols("x n", positive=True)
    T = sp.Symbol("T", positive=True, integer=True)
    k = sp.Symbol("k", integer=True)
    e = (1 + 1 / n) ** T * sp.sqrt(x) - sp.Max(x, 3) / n + sp.log(n + x)
    sub = {n: sp.Rational(7, 3), T: sp.Integer(12), x: sp.Rational(9, 4)}
    assert substitute_numbers(e, sub) == e.subs(sub)
    s = sp.Sum(x ** k, (k, 1, T))
    assert substitute_numbers(s, {x: sp.Integer(2), T: sp.Integer(3)}).doit() == 14
    assert _sign_exact((1 + 1 / n) ** T - 2, {n: sp.Integer(1), T: sp.Integer(2)}) == 1
    big = {n: sp.Rational(12345678901, 3), T: sp.Integer(10 ** 7)}
    with pytest.raises(ExactOutOfReach):
        substitute_numbers((1 + 1 / n) ** T, big)
    assert _sign_exact((1 + 1 / n) ** T - 2, big) is None
    assert _sign_exact(sp.factorial(T) - 1, {T: sp.Integer(10 ** 6)}) is None
    # powers of 0, ±1 and small exact powers are built as before
    assert _sign_exact((1 - 1 / n) ** T, {n: sp.Integer(1), T: sp.Integer(10 ** 9)}) == 0


def test_a_relation_at_numbers_is_decided_side_by_side_not_by_sympy_at_two_digits():
    """SymPy's relational at numbers decides from a 2-digit evaluation of the difference:
    10·√30·√log(10¹²/(10¹² − 1)) ≈ 5.5e-5 > 0 comes out False there.  The engine's
    decisions at a point (holds_at, and through it the law search's and the ∃-oracle's)
    compare each side at 50 digits, exactly where both are rational; the witness's exact
    confirmation (decide_exact) decides signs at adaptive precision."""
    from checks.falsify import decide_exact, holds_at
    n, t, g = sp.symbols("n t gamma", positive=True)
    e = sp.sqrt(3) * sp.sqrt(n) * sp.sqrt(sp.log(1 / g)) / sp.sqrt(t)
    sub = {n: sp.Integer(1000), t: sp.Integer(1), g: sp.Rational(10 ** 12 - 1, 10 ** 12)}
    assert (e > 0).xreplace(sub) is sp.false          # the SymPy behaviour guarded against
    assert holds_at(e > 0, sub) is True and decide_exact(e > 0, sub) is True
    assert holds_at(e < 0, sub) is False and holds_at(sp.Or(e < 0, n > 10), sub) is True
    assert holds_at(sp.And(e > 0, n < 3), sub) is False
    # exact where both sides are rational; a tie at 50 digits is a tie
    assert holds_at(sp.Eq(n / 3, sp.Rational(1000, 3)), sub) is True
    assert holds_at(sp.Le(sp.log(4), 2 * sp.log(g)), {g: sp.Integer(2)}) is True
    assert holds_at(sp.Lt(sp.log(4), 2 * sp.log(g)), {g: sp.Integer(2)}) is False
