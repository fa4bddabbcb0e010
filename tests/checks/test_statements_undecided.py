"""Issue 16, item 3: every truth carries an honest error, and the statement checker decides
HOLDS only where truth + error <= bound, VIOLATED only where truth − error > bound
(confirmed), and reports the rest as undecided."""
import pytest
import sympy as sp

from checks.truth.base import Truth
from checks.truth.providers import GaussianProvider, SampledGaussianProvider
from checks.statements import check_statement
from theory.mechanisms import GaussianMechanism, SampledGaussian
from theory.model import Bound, asm

alpha, q, sigma = sp.symbols("alpha q sigma", positive=True)


def _gauss(expr):
    return Bound("g", expr, mechanism=GaussianMechanism(1, sigma), order=alpha,
                 hypotheses=(asm(alpha > 1),))


def test_a_bound_equal_to_the_truth_is_decided_exactly_by_the_closed_form():
    # λΔ²/(2σ²) is the truth itself: numerically within its error at every scenario, but
    # the provider's closed form decides the tie exactly (a tight bound holds)
    out = check_statement(_gauss(alpha / (2 * sigma**2)), budget=8, seed=0)
    assert out.tested and not out.violated and out.ratio == 1
    assert "decided exactly by the closed form" in out.detail


def test_without_a_closed_form_a_bound_equal_to_the_truth_is_undecided(monkeypatch):
    monkeypatch.setattr(GaussianProvider, "closed_form", lambda self, stmt: None)
    out = check_statement(_gauss(alpha / (2 * sigma**2)), budget=8, seed=0)
    assert not out.tested and not out.violated
    assert "UNDECIDED" in out.detail


def test_a_bound_below_the_truth_within_its_error_is_not_holds():
    # below the truth by less than the numerical error: the exact decision says it fails,
    # the certified numbers cannot confirm a violation: undecided, never HOLDS
    out = check_statement(_gauss(alpha / (2 * sigma**2) * (1 - sp.Rational(1, 10**15))),
                          budget=8, seed=0)
    assert not out.tested and not out.violated
    assert "UNDECIDED" in out.detail


def test_a_bound_above_the_truth_by_more_than_its_error_holds():
    out = check_statement(_gauss(alpha / (2 * sigma**2) * (1 + sp.Rational(1, 10**10))),
                          budget=8, seed=0)
    assert out.tested and not out.violated and out.ratio <= 1


def test_truths_carry_a_positive_error():
    v = {"alpha": 8.0, "sigma": 2.0, "q": 0.01}
    t = GaussianProvider().truth(_gauss(alpha), v)
    assert 0 < t.error <= 1e-12 * t.max
    sg = Bound("s", alpha, mechanism=SampledGaussian(q, sigma), order=alpha,
               hypotheses=(asm(alpha > 1),))
    t = SampledGaussianProvider().truth(sg, v)
    assert 0 < t.error <= 1e-8 * t.max


@pytest.mark.parametrize("lower,upper,holds", [(0.9, 0.99, True), (0.9, 1.01, False)])
def test_truth_interval_semantics(lower, upper, holds):
    t = Truth((lower + upper) / 2, 0.0, (upper - lower) / 2)
    assert t.lower == pytest.approx(lower) and t.upper == pytest.approx(upper)
    assert (t.upper <= 1.0) is holds
    assert t.orders_above(1.0) == []


@pytest.mark.parametrize("eps,sig", [(0.0043, 7712.96), (5.0, 0.3), (100.0, 0.019),
                                     (1e6, 0.019), (1e-3, 1e-4), (30.0, 2.0)])
def test_gaussian_profile_error_covers_a_high_precision_reference(eps, sig):
    """The analytic profile Φ(a) − e^ε Φ(b) cancels where δ ≪ Φ(a) (a double evaluation
    lost its digits there while claiming 1e-12): the reported error must cover a
    reference computed with 150 more digits than the cancellation costs."""
    import mpmath

    from checks.truth.providers import gaussian_delta_enclosure
    b = Bound("p", sp.Float(eps), mechanism=GaussianMechanism(1, sigma), delta=sp.Rational(1, 2),
              profile=True)
    t = GaussianProvider().truth(b, {"sigma": sig})
    v, _ = gaussian_delta_enclosure(eps, 1.0, sig)
    with mpmath.workdps(60):
        lost = max(0, int(mpmath.log10(mpmath.ncdf(1 / (2 * mpmath.mpf(sig)) - eps * sig) / v)))
    with mpmath.workdps(150 + lost):
        e, s = mpmath.mpf(eps), mpmath.mpf(sig)
        ref = mpmath.ncdf(1 / (2 * s) - e * s) - mpmath.exp(e) * mpmath.ncdf(-1 / (2 * s) - e * s)
        assert abs(mpmath.mpf(t.forward) - ref) <= t.error
        assert t.forward == t.backward and t.error >= 0


def test_sampled_gaussian_profile_names_the_orders_as_the_rdp_does():
    """The (ε, δ) profile of the SGM labels its orders like ``sgm_rdp``: forward ("add") is the
    law with the example against the law without it, D(mixture ‖ N), whose privacy loss is
    unbounded; backward is D(N ‖ mixture), whose loss never exceeds −ln(1 − q), so its δ is
    0 at any ε above that.  dp-accounting calls the forward pair REMOVE (the labels were
    swapped: a witness printed truth_add = 0 where the add order carries the whole δ)."""
    eps = sp.Symbol("epsilon", positive=True)
    st = Bound("p", eps, mechanism=SampledGaussian(q, sigma), profile=True,
               delta=sp.Rational(1, 10**5))
    t = SampledGaussianProvider().truth(st, {"q": 0.2, "sigma": 0.5, "epsilon": 1.0})
    assert t.forward > 1e-3
    assert t.backward == 0.0                 # 1.0 > −ln(0.8) ≈ 0.223
    from checks.truth.divergences import sgm_rdp
    assert sgm_rdp(0.2, 0.5, 8.0, "add") > sgm_rdp(0.2, 0.5, 8.0, "remove")


def test_an_o_form_path_ignores_truths_not_resolved_to_one_digit():
    """On an O-form path a truth whose error exceeds a quarter of its value carries no trend:
    the projected grid accountant at 1e-9 (error 4e-10, value not covering the 1/n² scaling
    of its neighbours) read truth/expr = 937 at n = 5000 on the AAAI Theorem 3.4 part (ii)
    path n → ∞, where the resolved points give 0.496 → 0.431."""
    from checks.statements import check_result_statements
    from theory import registry

    _, outs = check_result_statements(registry.get("liang-aaai:thm-3.4"), budget=2000, seed=0)
    out = outs["part-2"]
    assert not out.violated
    assert out.paths, out.detail
    assert max(hi for _, hi in out.paths.values()) < 1, out.paths


def test_profile_truths_are_remembered_per_epsilon_and_delta():
    """Truths are remembered per process by mechanism and point; a privacy profile's truth
    also depends on the ε where it is evaluated (and a provider may spend effort by the
    claimed δ): two profile statements of one mechanism at ε and 2ε, or with different δ,
    must not share a remembered truth at the same point."""
    from checks.statements import Space
    from checks.statements.evaluator import Evaluator, _truth_key
    eps = sp.Symbol("epsilon", positive=True)
    mech = GaussianMechanism(1, sigma)
    prov = GaussianProvider()
    a = Bound("a", eps, mechanism=mech, delta=sp.Rational(1, 2), profile=True)
    b = Bound("b", 2 * eps, mechanism=mech, delta=sp.Rational(1, 2), profile=True)
    c = Bound("c", eps, mechanism=mech, delta=sp.Rational(1, 3), profile=True)
    pt = {"sigma": 1.3, "epsilon": 0.4}
    ta = Evaluator(a, prov, Space(a)).truth(dict(pt))
    tb = Evaluator(b, prov, Space(b)).truth(dict(pt))
    assert ta.forward == prov.truth(a, pt).forward
    assert tb.forward == prov.truth(b, pt).forward < ta.forward
    assert len({_truth_key(s, prov) for s in (a, b, c)}) == 3
    # statements equal up to label share one key (the memo's purpose)
    assert _truth_key(a, prov) == _truth_key(Bound("a2", eps, mechanism=mech,
                                                   delta=sp.Rational(1, 2), profile=True), prov)


def test_a_precise_truth_is_computed_once_per_scenario(monkeypatch):
    """Confirming a violation asks the provider's precise truth; two statements of one
    mechanism violated at one scenario (a theorem and its appendix restatement) confirm
    with one computation, and a different ε is not served from it."""
    from checks.statements import Space
    from checks.statements import evaluator
    from checks.statements.evaluator import Evaluator
    monkeypatch.setattr(evaluator, "_TRUTH_CACHE", {})
    eps = sp.Symbol("epsilon", positive=True)
    mech = GaussianMechanism(1, sigma)
    prov = GaussianProvider()
    calls = []
    real = GaussianProvider.truth

    def counted(self, stmt, v, **kw):
        calls.append(kw.get("precise", False))
        return real(self, stmt, v, **kw)
    monkeypatch.setattr(GaussianProvider, "truth", counted)
    a = Bound("a", eps, mechanism=mech, delta=sp.Rational(1, 2), profile=True)
    a2 = Bound("a2", eps, mechanism=mech, delta=sp.Rational(1, 2), profile=True)
    b = Bound("b", 2 * eps, mechanism=mech, delta=sp.Rational(1, 2), profile=True)
    pt = {"sigma": 1.3, "epsilon": 0.4}
    t1 = Evaluator(a, prov, Space(a)).precise_truth(dict(pt))
    t2 = Evaluator(a2, prov, Space(a2)).precise_truth(dict(pt))
    assert t1 is t2 and calls == [True]
    t3 = Evaluator(b, prov, Space(b)).precise_truth(dict(pt))
    assert calls == [True, True] and t3.forward < t1.forward
