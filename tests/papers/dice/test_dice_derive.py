"""``dpcheck derive dice-stepsize|dice-privacy``: the re-derivations agree with the
printed η and rate, and show the ϵ the printed noise gives through Lemma A.5."""
from __future__ import annotations

import sympy as sp

from checks.papers.dice.derive import privacy_report, stepsize_report
from checks.plugins import derive_commands


def test_registered():
    cmds = derive_commands()
    assert {"dice-stepsize", "dice-privacy"} <= set(cmds)
    assert cmds["dice-privacy"].papers == ("dice",)


def test_stepsize_matches_theorem_36():
    r = stepsize_report()
    assert r["eta_matches"] and r["value_matches"]
    # with the noise of Theorem 3.7, (4) does not vanish as T grows (Corollary 3.8's T)
    assert r["limit_T_to_infinity"] != 0


def test_privacy_at_printed_noise_exceeds_epsilon():
    from theory.papers.dice.symbols import Lg, epsilon
    r = privacy_report()
    assert sp.simplify(r["c_at_printed_noise"] - epsilon**2 / (2 * Lg)) == 0
    ex = r["excess_over_eps"]
    for e, l in ((1, 11.5), (0.1, 5), (8, 20)):
        assert sp.N(ex.subs({epsilon: e, Lg: l}), 50) > 0
    chk = r["check_needed"]
    for e, l in ((1, 11.5), (3, 2)):
        assert abs(sp.N(chk.subs({epsilon: e, Lg: l}), 50)) < 1e-40
