"""Torch simulator of DP-SGD variants on toy problems, batched over runs (CPU or CUDA).

Public API::

    from checks.simulate import make_problem, make_algorithm, Hyper, simulate, simulate_pair
    p = make_problem("gradient-canary", d=1, n=100)
    theta_in, theta_out = simulate_pair(p, make_algorithm("dpsgd-gc"),
                                        Hyper(eta=0.1, C=1.0, sigma_dp=1.0, b=10),
                                        runs=10_000, T=100, seed=0)

and :mod:`checks.simulate.audit` for the membership-inference audit of the final iterates.
"""
from checks.simulate.algorithms import (ALGORITHMS, Algorithm, Batch, Hyper, clip,
                                        make_algorithm, project_ball)
from checks.simulate.problems import PROBLEMS, Canary, Problem, make_problem
from checks.simulate.runner import SimResult, resolve_device, simulate, simulate_pair

__all__ = ["ALGORITHMS", "Algorithm", "Batch", "Hyper", "clip", "make_algorithm",
           "project_ball", "PROBLEMS", "Canary", "Problem", "make_problem", "SimResult",
           "resolve_device", "simulate", "simulate_pair"]
