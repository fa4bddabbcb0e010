"""Truths asked only against a bound (``enough``): an explicit bound's search needs to know
whether the truth is at most the bound, not its value to 5 %.  The grid accountant stops
refining once its certified bracket lies below ``enough``, the noisy-SGD provider first
tries a bracket without the grid, and the statement checker remembers such coarse truths
only for the calls they decide.  Every bracket stays certified."""
import math

import pytest
import sympy as sp

from checks.statements import Space
from checks.statements import evaluator as ts
from checks.truth.base import Truth, TruthProvider, Unavailable
from checks.truth.divergences import sgm_rdp
from checks.truth.providers import NoisySGDProvider, _composed_upper
from checks.truth.accountant import AccountantError, certified_rdp
from checks.truth.losses import linear_canary
from theory.mechanisms import NoisySGD, SampledGaussian
from theory.model import Bound, asm


def _fields(g):
    d = dict(g.__dict__)
    d.pop("seconds")
    return d


def test_the_accountant_stops_refining_once_the_bracket_lies_below_enough():
    s = linear_canary(n=100, b=10, eta=0.1, C=1.0, sigma_dp=1.0, T=2, D=0.2)
    full = certified_rdp(s, 2.0, G=32, G_max=256)
    coarse = certified_rdp(s, 2.0, G=32, G_max=256, enough=0.5)
    assert full.grid == 256 and coarse.grid == 32            # no doubling was needed
    assert coarse.error > 0.05 * coarse.max                   # wider than rel_tol ...
    assert coarse.max + coarse.error <= 0.5                   # ... but below enough
    # both are certified brackets of one number: they meet
    assert abs(coarse.max - full.max) <= coarse.error + full.error
    # an ``enough`` below the value decides nothing: the default refinement, unchanged
    assert _fields(certified_rdp(s, 2.0, G=32, G_max=256, enough=full.max / 2)) == _fields(full)


def test_a_looser_rel_tol_stops_at_a_coarser_grid_with_a_bracket_that_meets():
    s = linear_canary(n=100, b=10, eta=0.1, C=1.0, sigma_dp=1.0, T=2, D=0.2)
    full = certified_rdp(s, 2.0, G=32, G_max=256)
    loose = certified_rdp(s, 2.0, G=32, G_max=256, rel_tol=0.3)
    assert loose.grid < full.grid and 0.05 * loose.max < loose.error <= 0.3 * loose.max
    assert abs(loose.max - full.max) <= loose.error + full.error


def test_a_bracket_refused_at_rel_tol_is_returned_when_it_lies_below_enough():
    s = linear_canary(n=100, b=10, eta=0.1, C=1.0, sigma_dp=2.0, T=2, D=0.4)
    with pytest.raises(AccountantError):
        certified_rdp(s, 2.0, G=32, G_max=256)
    g = certified_rdp(s, 2.0, G=32, G_max=256, enough=0.01)
    assert g.max + g.error <= 0.01 and g.max - g.error <= 1e-4


@pytest.mark.parametrize("q", [0.01, 0.1, 0.5, 1.0])
@pytest.mark.parametrize("s_eff", [0.3, 1.0, 4.0])
def test_the_composed_upper_bound_is_above_the_exact_sgm(q, s_eff):
    for a in (1.5, 2.0, 8.0, 32.0):
        exact = sgm_rdp(q, s_eff, a, "max")
        for T in (1, 3):
            assert _composed_upper(q, s_eff, a, T) >= T * exact, (a, T)


@pytest.mark.parametrize("n,b,eta,sd,T,D", [(20, 10, 0.1, 0.2, 3, 0.6),
                                              (50, 5, 0.5, 0.3, 4, 1.0)])
def test_the_composed_upper_bound_is_above_the_certified_grid_value(n, b, eta, sd, T, D):
    s = linear_canary(n=n, b=b, eta=eta, C=1.0, sigma_dp=sd, T=T, D=D)
    for a in (2.0, 8.0):
        g = certified_rdp(s, a, G=128)
        assert _composed_upper(b / n, b * sd, a, T) >= g.max - g.error


def _dc_bound(expr):
    n, b, eta, C, sig, T, D, alpha = sp.symbols("n b eta C sigma T D alpha", positive=True)
    mech = NoisySGD(n=n, b=b, eta=eta, C=C, sigma=sig, T=T, domain=D)
    return Bound("b", expr(alpha), mechanism=mech, order=alpha,
                 hypotheses=(asm(alpha > 1), asm(b <= n)))


def test_the_provider_answers_a_far_bound_without_the_grid_and_the_bracket_holds():
    prov = NoisySGDProvider()
    st = _dc_bound(lambda a: 10 * a)
    v = dict(n=20.0, b=10.0, eta=0.1, C=1.0, sigma=0.2, T=3.0, D=0.6, alpha=2.0)
    tr = prov.truth(st, v, enough=5.0)
    assert tr.extra.get("coarse") and "without the grid" in tr.method
    assert tr.upper <= 5.0
    exact = prov.truth(st, v)                                 # the grid, to 5 %
    assert not exact.extra.get("coarse")
    assert tr.lower <= exact.upper and exact.lower <= tr.upper
    # asked for the precise truth, ``enough`` is ignored
    assert not prov.truth(st, v, precise=True, enough=5.0).extra.get("coarse")


class _Counting(TruthProvider):
    name = "counting"
    mechanisms = (SampledGaussian,)
    takes_hints = True

    def __init__(self):
        self.calls = []

    def truth(self, stmt, v, *, precise=False, **kw):
        # as the accountant: ``enough`` only ever widens what is accepted
        self.calls.append(kw.get("enough"))
        self.last_hints = kw
        if v["q"] > 0.5 and kw.get("enough", 0.0) < 0.5:
            raise Unavailable("out of reach")
        if kw.get("enough", 0.0) >= 0.5:
            return Truth(0.2, 0.2, 0.3, extra={"coarse": True})   # upper 0.5
        return Truth(0.2, 0.2, 0.001)


def test_a_remembered_coarse_truth_serves_only_the_calls_it_decides():
    q, sig, a = sp.symbols("q sigma alpha", positive=True)
    st = Bound("b", a / sig**2, mechanism=SampledGaussian(q, sig), order=a,
               hypotheses=(asm(a > 1), asm(q <= 1)))
    prov = _Counting()
    ts._TRUTH_CACHE.clear()
    ev = ts.Evaluator(st, prov, Space(st), decide=True)
    v = dict(q=0.1, sigma=1.0, alpha=2.0)
    assert ev.truth(v, 1.0).upper == 0.5 and prov.calls == [1.0]
    ev.truth(v, 0.6)                                   # decided by the remembered bracket
    assert prov.calls == [1.0]
    assert ev.truth(v, 0.4).error == 0.001             # upper 0.5 > 0.4: asked again
    assert prov.calls == [1.0, 0.4]
    assert ev.truth(v).error == 0.001                  # a precise truth serves every call
    assert ev.truth(v, 1.0).error == 0.001
    assert prov.calls == [1.0, 0.4]
    u = dict(q=0.2, sigma=1.0, alpha=2.0)
    assert ev.truth(u, 1.0).extra["coarse"]
    assert not ev.truth(u).extra.get("coarse")         # no ``enough``: asked again
    assert prov.calls[-2:] == [1.0, None]
    # a refusal serves calls no more lenient than the refused one
    w = dict(q=0.9, sigma=1.0, alpha=2.0)
    for _ in range(2):
        with pytest.raises(Unavailable):
            ev.truth(w, 0.3)
    with pytest.raises(Unavailable):
        ev.truth(w)
    assert prov.calls[-1] == 0.3 and len(prov.calls) == 5
    assert ev.truth(w, 1.0).extra["coarse"]            # more lenient: asked again
    assert prov.calls[-1] == 1.0
    # an O-form path's ``rel_tol``: a coarse truth within it serves, a wider one does not
    n = len(prov.calls)
    assert ev.truth(w, rel_tol=2.0).extra["coarse"] and len(prov.calls) == n  # 0.3 ≤ 2·0.2
    with pytest.raises(Unavailable):
        ev.truth(w, rel_tol=1.0)                       # 0.3 > 1·0.2: asked again
    assert len(prov.calls) == n + 1 and prov.last_hints == {"rel_tol": 1.0}
    ts._TRUTH_CACHE.clear()


def test_a_provider_without_the_hint_is_never_given_it():
    q, sig, a = sp.symbols("q sigma alpha", positive=True)
    st = Bound("b", a / sig**2, mechanism=SampledGaussian(q, sig), order=a,
               hypotheses=(asm(a > 1), asm(q <= 1)))

    class _Plain(_Counting):
        takes_hints = False

        def truth(self, stmt, v, *, precise=False):          # no ``enough`` parameter
            self.calls.append(None)
            return Truth(0.2, 0.2, 0.001)

    prov = _Plain()
    ts._TRUTH_CACHE.clear()
    ev = ts.Evaluator(st, prov, Space(st), decide=True)
    got = ev.at(dict(q=0.1, sigma=1.0, alpha=2.0))
    assert got is not None and math.isclose(got[2], (0.2 - 0.001) / 2.0)
    ts._TRUTH_CACHE.clear()


@pytest.mark.parametrize("q,s,k,eps", [(0.09, 1.0, 120, 0.875), (0.09, 2.82, 240, 0.486),
                                       (0.2, 0.8, 1, 0.5)])
def test_a_privacy_profile_asked_against_a_bound_is_discretised_coarsely_first(q, s, k, eps):
    """The sampled Gaussian's δ(ε) where only δ ≤ enough is asked: the coarse privacy-loss
    discretisation gives a certified bracket that meets the default one; it is used only
    when its upper end is ≤ enough; with an enough below the truth, or ``precise``, the
    default truth comes back unchanged."""
    from checks.truth.providers import SampledGaussianProvider
    from theory.mechanisms import Composition
    e, qq, ss = sp.symbols("epsilon q sigma", positive=True)
    mech = Composition(SampledGaussian(qq, ss), k) if k > 1 else SampledGaussian(qq, ss)
    st = Bound("p", e, mechanism=mech, profile=True, delta=sp.Rational(1, 10**5))
    prov = SampledGaussianProvider()
    v = {"q": q, "sigma": s, "epsilon": eps}
    full = prov.truth(st, v)
    coarse = prov.truth(st, v, enough=2 * full.upper)
    assert coarse.extra.get("coarse") and "discretised at" in coarse.method
    assert coarse.upper <= 2 * full.upper
    assert coarse.lower <= full.upper and full.lower <= coarse.upper    # they meet
    assert coarse.error >= full.error
    for kw in ({"enough": full.lower / 2}, {"enough": 2 * full.upper, "precise": True}):
        got = prov.truth(st, v, **kw)
        assert not got.extra.get("coarse")
        assert (got.forward, got.backward, got.error) == (full.forward, full.backward,
                                                          full.error)
