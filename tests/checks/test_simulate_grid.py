"""Cross-checks of the simulator and the audit against the exact grid accountant
(``checks.truth.losses``, helper D): on 1-D linear-canary scenarios the simulated θ_T follows
the grid law (chi-square goodness of fit), and the audit's 95% lower bound on ε never
exceeds the ε(δ) implied by the exact last-iterate laws (hockey-stick divergence of the
grid laws, and the RDP → DP conversion of the exact Rényi divergences)."""
from __future__ import annotations

import os
import math

import numpy as np
import pytest
from scipy import optimize, stats

from checks.truth import accountant
from checks.truth import accountant_fft
from checks.truth import losses

from checks.simulate.audit import audit_final_iterate  # noqa: E402
from checks.simulate import Hyper, make_algorithm, make_problem, simulate_pair  # noqa: E402

# The simulator's device: cpu, or what DPCHECK_TEST_DEVICE names (cuda on a GPU machine).
DEVICE = os.environ.get("DPCHECK_TEST_DEVICE", "cpu")


#: small tensors: one torch thread (see tests/checks/conftest.py)
pytestmark = pytest.mark.usefixtures("one_torch_thread")


CASES = {
    # DPSGD-DC on [-D/2, D/2]: projection binds (atoms at both ends)
    "dc": dict(n=10, b=3, eta=0.5, C=1.0, sigma_dp=1.0, T=20, D=2.0),
    # DPSGD-GC, Poisson q = 0.25: a binomial mixture of Gaussians
    "gc": dict(n=8, b=2, eta=0.5, C=1.0, sigma_dp=0.6, T=12, D=None),
}
RUNS = 20_000


def _simulate(case):
    c = CASES[case]
    p = make_problem("gradient-canary", d=1, n=c["n"])
    hp = Hyper(eta=c["eta"], C=c["C"], sigma_dp=c["sigma_dp"], b=c["b"], diameter=c["D"])
    algo = make_algorithm("dpsgd-dc" if c["D"] else "dpsgd-gc")
    r_in, r_out = simulate_pair(p, algo, hp, runs=RUNS, T=c["T"], seed=17, device=DEVICE,
                                dtype="float64")
    s = losses.linear_canary(**c)
    return p, r_in.final[:, 0].numpy(), r_out.final[:, 0].numpy(), s


def _binned(law, samples, n_bins=40):
    """Observed and expected counts on aggregated grid cells (+ the atoms, if any)."""
    cells = law.cells
    nz = np.nonzero(cells > 1e-15)[0]
    i0, i1 = nz[0], nz[-1] + 1
    edges_idx = np.linspace(i0, i1, n_bins + 1).round().astype(int)
    edges = law.lo + law.h * edges_idx
    mass = np.add.reduceat(cells[i0:i1], edges_idx[:-1] - i0)
    obs, exp = [], []
    interior = samples.copy()
    for pos, m in law.atoms:
        at = np.isclose(samples, pos, rtol=0, atol=1e-12)
        obs.append(int(at.sum()))
        exp.append(m)
        interior = interior[~np.isclose(interior, pos, rtol=0, atol=1e-12)]
    h, _ = np.histogram(interior, bins=edges)
    outside = interior.size - h.sum()
    obs += list(h) + [outside]
    exp += list(mass) + [max(0.0, 1.0 - sum(exp) - mass.sum())]
    obs, exp = np.asarray(obs, float), np.asarray(exp, float) * samples.size
    # pool bins with small expectation into their neighbour (chi-square validity)
    o2, e2, acc_o, acc_e = [], [], 0.0, 0.0
    for o, e in zip(obs, exp):
        acc_o, acc_e = acc_o + o, acc_e + e
        if acc_e >= 5:
            o2.append(acc_o), e2.append(acc_e)
            acc_o = acc_e = 0.0
    if acc_e > 0 and e2:
        o2[-1] += acc_o
        e2[-1] += acc_e
    return np.asarray(o2), np.asarray(e2)


@pytest.mark.parametrize("case", sorted(CASES))
def test_simulated_histogram_matches_grid_density(case):
    _, th_in, th_out, s = _simulate(case)
    for with_canary, th in ((True, th_in), (False, th_out)):
        law = accountant_fft.evolve(s, with_canary, G=1024)
        obs, exp = _binned(law, th)
        exp = exp * obs.sum() / exp.sum()
        assert len(obs) >= 10
        p = stats.chisquare(obs, exp).pvalue
        assert p > 1e-3, f"{case} with_canary={with_canary}: chi-square p = {p:.2g}"
    # power: the runs with the canary do not fit the law without it
    obs, exp = _binned(accountant_fft.evolve(s, False, G=1024), th_in)
    assert stats.chisquare(obs, exp * obs.sum() / exp.sum()).pvalue < 1e-6


def _hockey_eps(P, Q, delta):
    """ε(δ) of the pair of discrete grid laws, both orders (max): smallest ε with
    Σ max(0, p − e^ε q) ≤ δ.  Binning is post-processing, so this is ≤ the continuous ε."""
    p = np.concatenate([P.cells, [m for _, m in P.atoms]])
    q = np.concatenate([Q.cells, [m for _, m in Q.atoms]])

    def eps_one(a, b_):
        f = lambda e: np.maximum(a - math.exp(e) * b_, 0).sum() - delta  # noqa: E731
        if f(0.0) <= 0:
            return 0.0
        hi = 1.0
        while f(hi) > 0:
            hi *= 2
            if hi > 200:
                return math.inf
        return optimize.brentq(f, 0.0, hi, xtol=1e-10)
    return max(eps_one(p, q), eps_one(q, p))


@pytest.mark.parametrize("case", sorted(CASES))
def test_audit_lower_bound_below_exact_epsilon(case):
    prob, th_in, th_out, s = _simulate(case)
    delta = 1e-3
    P = accountant_fft.evolve(s, True, G=2048)
    Q = accountant_fft.evolve(s, False, G=2048)
    eps_grid = _hockey_eps(P, Q, delta)
    # RDP -> DP (Lemma 2.4 form, sound): min over α of D_α + error + log(1/δ)/(α−1)
    eps_rdp = math.inf
    for a in (1.5, 2.0, 3.0, 5.0, 8.0):
        # G = 256: the certified bracket is already within 0.001 of the value here (and
        # sound at any G); G = 1024 cost ~25 s an order for a 3rd-digit gain
        g = accountant.last_iterate_rdp(s, a, G=256)
        err = 0.0 if math.isnan(g.error) else g.error
        eps_rdp = min(eps_rdp, g.max + err + math.log(1 / delta) / (a - 1))
    assert eps_grid <= eps_rdp + 1e-9
    a = audit_final_iterate(th_in.reshape(-1, 1), th_out.reshape(-1, 1),
                            prob.canary.direction(), delta=delta, seed=3)
    assert a.eps_lower <= eps_grid + 0.02       # grid binning can only lower ε(δ), slightly
    assert a.eps_lower <= eps_rdp
    assert a.eps_lower > 0.2 * eps_grid         # the attack is informative, not vacuous
