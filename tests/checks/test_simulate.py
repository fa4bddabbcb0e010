"""The batched simulator: determinism, shapes, clipping/projection, exact laws on toy cases."""
from __future__ import annotations

import os
import math

import numpy as np
import pytest
import torch
from scipy import stats

from checks.simulate.audit import audit_final_iterate, gaussian_epsilon
from checks.simulate.algorithms import (ALGORITHMS, Algorithm, Hyper, clip, make_algorithm,
                                        project_ball)
from checks.simulate.problems import PROBLEMS, make_problem
from checks.simulate.runner import InclusionClock, resolve_device, simulate, simulate_pair

# The simulator's device: cpu, or what DPCHECK_TEST_DEVICE names (cuda on a GPU machine).
DEVICE = os.environ.get("DPCHECK_TEST_DEVICE", "cpu")


#: small tensors: one torch thread (see tests/checks/conftest.py)
pytestmark = pytest.mark.usefixtures("one_torch_thread")



def _gc(**kw):
    return Hyper(**{"eta": 0.1, "C": 1.0, "sigma_dp": 1.0, "b": 5, **kw})


# ------------------------------------------------------------------ building blocks
def test_clip_properties():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(500, 4, generator=g, dtype=torch.float64) * 3
    y = clip(x, 2.0)
    nx, ny = x.norm(dim=1), y.norm(dim=1)
    assert torch.all(ny <= 2.0 + 1e-12)
    small = nx <= 2.0
    assert torch.equal(y[small], x[small])                       # identity inside the ball
    assert torch.allclose(ny[~small], torch.full_like(ny[~small], 2.0))
    cos = (x * y).sum(1) / (nx * ny)
    assert torch.allclose(cos, torch.ones_like(cos))             # direction kept
    assert torch.equal(clip(torch.zeros(3, 2), 1.0), torch.zeros(3, 2))


@pytest.mark.parametrize("d", [1, 3])
def test_project_ball_properties(d):
    g = torch.Generator().manual_seed(1)
    x = torch.randn(400, d, generator=g, dtype=torch.float64) * 2
    p = project_ball(x.clone(), 1.5)
    assert torch.all(p.norm(dim=1) <= 1.5 + 1e-12)
    inside = x.norm(dim=1) <= 1.5
    assert torch.equal(p[inside], x[inside])
    assert torch.allclose(project_ball(p.clone(), 1.5), p)           # idempotent
    # the projection is the nearest point of the ball: no other ball point is closer
    other = project_ball(torch.randn(400, d, generator=g, dtype=torch.float64) * 2, 1.5)
    assert torch.all((x - p).norm(dim=1) <= (x - other).norm(dim=1) + 1e-12)


def test_hyper_domain_conventions():
    assert Hyper(eta=1, C=1, sigma_dp=1, b=1, diameter=4.0).ball_radius == 2.0  # K has diameter D
    assert Hyper(eta=1, C=1, sigma_dp=1, b=1, radius=4.0).ball_radius == 4.0
    assert Hyper(eta=1, C=1, sigma_dp=1, b=1).ball_radius is None
    with pytest.raises(ValueError, match="not both"):
        Hyper(eta=1, C=1, sigma_dp=1, b=1, diameter=1.0, radius=1.0)
    with pytest.raises(ValueError, match="eta must be"):
        Hyper(eta=0, C=1, sigma_dp=1, b=1)
    with pytest.raises(ValueError, match="sampling must be"):
        Hyper(eta=1, C=1, sigma_dp=1, b=1, sampling="shuffle")
    with pytest.raises(ValueError, match="needs a domain"):
        simulate(make_problem("gradient-canary"), make_algorithm("dpsgd-dc"), _gc(), runs=2, T=1)


def test_inclusion_clock_is_bernoulli():
    """Geometric gaps give i.i.d. Bernoulli(q) inclusions: per-step rate and independence."""
    g = torch.Generator().manual_seed(2)
    clock = InclusionClock(20000, 0.05, g, "cpu")
    M = torch.cat([clock.dense(64), clock.dense(64)])                # (128, N)
    rate = M.mean().item()
    assert abs(rate - 0.05) < 4 * math.sqrt(0.05 * 0.95 / M.numel())
    counts = M.sum(0).numpy()
    # number of inclusions in 128 steps ~ Binomial(128, 0.05): chi-square goodness of fit
    ks = np.arange(0, 16)
    obs = np.array([(counts == k).sum() for k in ks[:-1]] + [(counts >= ks[-1]).sum()])
    exp = np.append(stats.binom.pmf(ks[:-1], 128, 0.05), stats.binom.sf(ks[-1] - 1, 128, 0.05))
    assert stats.chisquare(obs, exp * counts.size).pvalue > 1e-3
    # consecutive steps uncorrelated
    c = np.corrcoef(M[:-1].numpy().ravel(), M[1:].numpy().ravel())[0, 1]
    assert abs(c) < 0.01


# ------------------------------------------------------------------ runner
def test_determinism_and_shapes():
    p = make_problem("quadratic", d=3, n=20)
    a = make_algorithm("dpsgd-dc")
    hp = _gc(diameter=2.0)
    r1 = simulate(p, a, hp, runs=300, T=12, seed=4, device=DEVICE, record_at=[0, 6, 12])
    r2 = simulate(p, a, hp, runs=300, T=12, seed=4, device=DEVICE, record_at=[0, 6, 12])
    r3 = simulate(p, a, hp, runs=300, T=12, seed=5, device=DEVICE, record_at=[0, 6, 12])
    assert r1.theta.shape == (3, 300, 3) and r1.theta.dtype == torch.float32
    assert r1.record_at == (0, 6, 12)
    assert torch.equal(r1.theta, r2.theta)
    assert not torch.equal(r1.theta, r3.theta)
    assert torch.equal(r1.theta[0], torch.zeros(300, 3))                  # θ_0 = 0
    assert torch.all(r1.theta.norm(dim=-1) <= 1.0 + 1e-6)                # radius D/2
    # chunked runs are deterministic too, and still inside the ball
    c1 = simulate(p, a, hp, runs=300, T=12, seed=4, device=DEVICE, memory_bytes=20_000)
    c2 = simulate(p, a, hp, runs=300, T=12, seed=4, device=DEVICE, memory_bytes=20_000)
    assert c1.meta["chunk_runs"] < 300 and torch.equal(c1.theta, c2.theta)


@pytest.mark.parametrize("name", sorted(PROBLEMS))
@pytest.mark.parametrize("algo", sorted(ALGORITHMS))
def test_every_problem_and_algorithm_runs(name, algo):
    p = make_problem(name, d=2, n=30)
    hp = _gc(diameter=3.0) if algo == "dpsgd-dc" else _gc()
    for sampling in ("poisson", "fixed"):
        hp2 = Hyper(**{**hp.__dict__, "sampling": sampling})
        r = simulate(p, make_algorithm(algo), hp2, runs=50, T=5, seed=0, device=DEVICE,
                     dtype="float64")
        assert r.final.shape == (50, 2) and r.final.dtype == torch.float64
        assert torch.isfinite(r.final).all()
    assert p.L >= 0 and p.clipping


class _CountBatch(Algorithm):
    """A test algorithm using the Algorithm interface: counts batch sizes, never moves."""

    name = "count"
    summary = "counts |B_t|"

    def init_state(self, theta0, hp):
        return {"theta": theta0, "count": torch.zeros_like(theta0[:, :1])}

    def step(self, state, batch, noise, hp):
        return {"theta": state["theta"], "count": state["count"] + batch.size()}


def _count(problem, hp, runs, T, with_canary):
    algo = _CountBatch()
    seen = {}
    orig = algo.step

    def step(state, batch, noise, hp_):
        out = orig(state, batch, noise, hp_)
        seen["count"] = out["count"]
        return out
    algo.step = step
    simulate(problem, algo, hp, runs=runs, T=T, with_canary=with_canary, device=DEVICE,
             dtype="float64")
    return seen["count"]


def test_register_algorithm():
    from checks.simulate.algorithms import register_algorithm
    try:
        register_algorithm(_CountBatch)
        assert isinstance(make_algorithm("count"), _CountBatch)
        with pytest.raises(ValueError, match="already registered"):
            register_algorithm(type("Other", (_CountBatch,), {}))
    finally:
        ALGORITHMS.pop("count", None)


def test_sampling_batch_sizes():
    p = make_problem("quadratic", d=1, n=40)
    fixed = _count(p, _gc(b=7, sampling="fixed"), 100, 9, True)
    assert torch.all(fixed == 7 * 9)                                   # exactly b per step
    pois = _count(p, _gc(b=8, sampling="poisson"), 2000, 10, True)
    # Poisson: |B_t| ~ Binomial(n, q) with q = b/n, so E|B| = b
    assert abs(pois.mean().item() / 10 - 8) < 4 * math.sqrt(40 * 0.2 * 0.8 / 10 / 2000)
    assert pois.std().item() > 0


def test_gaussian_mechanism_known_law():
    """Gradient canary, q = 1 (b = n: always sampled), no projection: θ_T is exactly
    N(T·η·C/b, T·η²·σ²) on D' and N(0, T·η²·σ²) on D — Kolmogorov–Smirnov goodness of fit."""
    n = b = 4
    T, eta, C, sigma = 9, 0.5, 1.0, 0.7
    p = make_problem("gradient-canary", d=1, n=n)
    hp = Hyper(eta=eta, C=C, sigma_dp=sigma, b=b)
    r_in, r_out = simulate_pair(p, make_algorithm("dpsgd-gc"), hp, runs=20000, T=T, seed=3,
                                device=DEVICE, dtype="float64")
    sd = math.sqrt(T) * eta * sigma
    shift = T * eta * C / b
    assert stats.kstest(r_in.final[:, 0].numpy(), stats.norm(shift, sd).cdf).pvalue > 1e-3
    assert stats.kstest(r_out.final[:, 0].numpy(), stats.norm(0.0, sd).cdf).pvalue > 1e-3
    # and the audit of these runs never claims more than the exact (ε, δ) of N(μ) vs N(0)
    mu = shift / sd
    for delta in (1e-3, 0.05):
        a = audit_final_iterate(r_in.final, r_out.final, p.canary.direction(), delta=delta)
        assert a.eps_lower <= gaussian_epsilon(mu, delta)
        assert a.eps_lower > 0.5 * gaussian_epsilon(mu, delta)


def test_poisson_canary_inclusions_are_binomial():
    """σ = 0, gradient canary: θ_T / (ηC/b) counts the canary's inclusions ~ Bin(T, q)."""
    n, b, T = 20, 3, 30
    p = make_problem("gradient-canary", d=2, n=n)
    hp = Hyper(eta=1.0, C=2.0, sigma_dp=0.0, b=b)
    r = simulate(p, make_algorithm("dpsgd-gc"), hp, runs=20000, T=T, seed=9, device=DEVICE,
                 dtype="float64")
    k = (r.final[:, 0] / (2.0 / b)).round().numpy().astype(int)
    assert torch.all(r.final[:, 1] == 0)
    ks = np.arange(0, 12)
    obs = np.array([(k == j).sum() for j in ks[:-1]] + [(k >= ks[-1]).sum()])
    q = b / n
    exp = np.append(stats.binom.pmf(ks[:-1], T, q), stats.binom.sf(ks[-1] - 1, T, q))
    assert stats.chisquare(obs, exp * k.size).pvalue > 1e-3


def test_projection_bounds_iterates_and_outlier_canary_is_clipped():
    p = make_problem("logistic", d=2, n=30, canary="outlier", outlier_radius=50.0)
    g = p.canary_grad(torch.zeros(4, 2, dtype=torch.float64))
    assert torch.all(g.norm(dim=1) > 1.0)          # the outlier's raw gradient exceeds C = 1
    r = simulate(p, make_algorithm("dpsgd-dc"), _gc(diameter=0.5), runs=500, T=20,
                 device=DEVICE)
    assert torch.all(r.final.norm(dim=1) <= 0.25 + 1e-6)


def test_validation_errors():
    p = make_problem("gradient-canary", n=10)
    a = make_algorithm("dpsgd-gc")
    with pytest.raises(ValueError, match="runs must be"):
        simulate(p, a, _gc(), runs=0, T=1)
    with pytest.raises(ValueError, match="b must be <= n"):
        simulate(p, a, _gc(b=11), runs=1, T=1)
    with pytest.raises(ValueError, match="record_at"):
        simulate(p, a, _gc(), runs=1, T=3, record_at=[5])
    with pytest.raises(ValueError, match="problem must be one of"):
        make_problem("mnist")
    with pytest.raises(ValueError, match="algorithm must be one of"):
        make_algorithm("adam")
    with pytest.raises(ValueError, match="dtype"):
        simulate(p, a, _gc(), runs=1, T=1, dtype="float16")
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="no CUDA device"):
            resolve_device("cuda")
        assert resolve_device("auto").type == "cpu"


@pytest.mark.slow
def test_ten_million_runs_fit_in_memory(request):
    """10^7 runs (d = 10) stay far below 24 GiB: chunking over runs bounds the working set."""
    if "slow" not in (request.config.getoption("-m") or ""):
        pytest.skip("runs only when selected with -m slow")
    import resource
    p = make_problem("gradient-canary", d=10, n=10_000)
    r = simulate(p, make_algorithm("dpsgd-dc"), _gc(b=100, diameter=2.0), runs=10**7, T=2,
                 device=DEVICE)
    assert r.final.shape == (10**7, 10) and r.meta["chunk_runs"] < 10**7
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss < 24 * 2**20   # KiB
