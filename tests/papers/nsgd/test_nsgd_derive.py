"""``dpcheck derive nsgd-stepsize|nsgd-privacy``: the printed step sizes are the minimisers
only when D_f = 1, Lemma C.2's T₀ matches its first condition only, (30)'s U-branch is a
factor 2 short, and the proof of Lemma 3.1 leaves no order α as δ → 1 for any constants."""
from __future__ import annotations

import sympy as sp

from checks.papers.nsgd.derive import privacy_report, stepsize_report
from checks.plugins import derive_commands


def test_registered():
    cmds = derive_commands()
    assert {"nsgd-stepsize", "nsgd-privacy"} <= set(cmds)
    assert cmds["nsgd-privacy"].papers == ("nsgd",)


def test_stepsize_is_the_minimiser_only_at_unit_gap():
    from theory.papers.nsgd.symbols import D_f
    r = stepsize_report()
    assert sp.simplify(r["nsgd_ratio_printed_over_star"] - 1 / sp.sqrt(D_f)) == 0
    assert sp.simplify(r["sgd_ratio_printed_over_star"] - 1 / sp.sqrt(D_f)) == 0
    assert r["c2_T_matches"] == [True, False, False]
    assert sp.simplify(r["eq30_u_derived"] / r["eq30_u_printed"] - 2) == 0
    # the U-branch bias is twice (5)'s last term
    assert sp.simplify(r["bias_derived_u"] / r["bias_printed_5"] - 2) == 0


def test_privacy_conditions_infeasible_as_delta_to_one():
    r = privacy_report()
    assert r["gap_as_L_to_0"] == -1
    from theory.papers.nsgd.symbols import T, c1, c2, gamma
    L = sp.Symbol("L", positive=True)
    gap = r["feasibility_gap"]
    for cc1, cc2 in ((1, 1), (0.01, 100), (100, 1000)):
        v = gap.subs({c1: cc1, c2: cc2, gamma: sp.Rational(9, 100), T: 150, L: sp.Rational(1, 10**12)})
        assert sp.N(v, 50) < 0
