"""Torch simulator of DP-SGD variants on toy problems, batched over runs (CPU or CUDA).

Public API::

    from checks.simulate import make_problem, make_algorithm, Hyper, simulate, simulate_pair
    p = make_problem("gradient-canary", d=1, n=100)
    theta_in, theta_out = simulate_pair(p, make_algorithm("dpsgd-gc"),
                                        Hyper(eta=0.1, C=1.0, sigma_dp=1.0, b=10),
                                        runs=10_000, T=100, seed=0)

and :mod:`checks.simulate.audit` for the membership-inference audit of the final iterates.
"""
import importlib

#: the public API, imported on first use (the simulator needs torch, seconds to import; the
#: engine loads :mod:`checks.simulate.audit_truth` with its plug-ins and must not pay that)
_API = {
    "ALGORITHMS": "algorithms", "Algorithm": "algorithms", "Batch": "algorithms",
    "Hyper": "algorithms", "clip": "algorithms", "make_algorithm": "algorithms",
    "project_ball": "algorithms", "PROBLEMS": "problems", "Canary": "problems",
    "Problem": "problems", "make_problem": "problems", "SimResult": "runner",
    "resolve_device": "runner", "simulate": "runner", "simulate_pair": "runner",
}
__all__ = list(_API)


def __getattr__(name):
    if name in _API:
        return getattr(importlib.import_module(f"checks.simulate.{_API[name]}"), name)
    raise AttributeError(f"module 'checks.simulate' has no attribute {name!r}")
