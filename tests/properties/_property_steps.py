"""The per-step property tests' machinery: one Hypothesis property test per encoded
ALGEBRA/SCALAR step, straight from the registry: "no point that satisfies the step's
hypotheses violates it".  The tests themselves sit one file a paper
(``test_steps_<paper>.py``, and ``test_steps_other.py`` for every other registered paper),
so that ``pytest -n auto --dist loadfile`` spreads them over the workers.

Points come from the engine's own sampler (:mod:`checks.falsify`: domains from the
hypotheses, log-uniform scales, boundaries), Hypothesis targets the slack.  A float
violation is re-checked by :func:`checks.falsify.confirm` (mpmath, 50 and 80 digits);
rounding noise is ignored.  A confirmed counterexample is then checked again here
*independently* with SymPy's exact arithmetic — that check must pass (a witness the
engine would report must be genuine) — and the step is reported as an expected
failure naming the witness: the paper's step is refuted, not the suite.

    pytest tests/properties -k "lem-3.2" --hypothesis-profile=thorough
"""
from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import assume, given, settings, target
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable

import theory
from checks.claim import step_claim
from checks.determinism import pin_hypothesis
from checks.falsify import N_MODES, _domains, SlackEvaluator, _sample, confirm
from theory.model import StepKind, walk_steps


# the examples of a step's search must not depend on which engine modules other tests
# imported before it (Hypothesis mixes literals of imported modules into generation): the
# engine's own pin (checks.determinism), here too
pin_hypothesis()

#: the papers with a test file of their own; the steps of any other registered paper are
#: tested by test_steps_other.py
OWN_FILE = ("dice", "holder", "liang-icml", "liang-aaai", "nsgd")


def steps(paper: str | None) -> list:
    """The ALGEBRA/SCALAR steps of ``paper`` (None: of every paper without a file of its
    own), as pytest parameters named by the step's id."""
    out = []
    for r in theory.all_results():
        if r.kind in ("def", "asm"):
            continue
        if (r.paper != paper) if paper is not None else (r.paper in OWN_FILE):
            continue
        for loc in walk_steps(r):
            if loc.step.kind in (StepKind.ALGEBRA, StepKind.SCALAR) and not loc.step.oracle:
                out.append(pytest.param(loc, id=loc.id))
    return out



class _Refuted(Exception):
    def __init__(self, cx):
        super().__init__(str(cx))
        self.cx = cx


def exact_recheck(claim, cx) -> None:
    """Independent check of a witness: exact rationals in, 100-digit SymPy evaluation;
    every hypothesis holds, the conclusion fails."""
    sub = {s: sp.Rational(cx[s.name]) for s in claim.symbols}
    for s, v in sub.items():
        assert not s.is_integer or v.q == 1, f"{s} = {v} is not an integer"
        assert not s.is_positive or v > 0, f"{s} = {v} is not positive"
        assert not s.is_nonnegative or v >= 0, f"{s} = {v} is negative"

    def truth(b):
        # each side on its own, at 100 digits: SymPy's relational with numbers in it
        # decides from a 2-digit difference (10·√30·√log(10¹²/(10¹² − 1)) > 0 came out
        # False), so the relation is never rebuilt at the point
        if b in (sp.true, sp.false):
            return bool(b)
        if isinstance(b, (sp.And, sp.Or)):
            got = [truth(a) for a in b.args]
            return all(got) if isinstance(b, sp.And) else any(got)
        lhs, rhs = sp.N(b.lhs.subs(sub), 100), sp.N(b.rhs.subs(sub), 100)
        return bool(type(b)(lhs, rhs))

    for h in claim.hypotheses:
        assert truth(h), f"hypothesis {h} fails at the witness {cx}"
    assert not truth(claim.conclusion), f"the conclusion holds at the witness {cx}"


def check_step(loc, request) -> None:
    """The property test of one step (see the module docstring)."""
    st_ = loc.step
    claim = step_claim(st_.lhs, st_.rel, st_.rhs, loc.hypotheses)
    ev = SlackEvaluator(claim)
    if not ev.syms:
        pytest.skip("a closed statement: nothing to sample")
    doms = _domains(claim)
    k = len(doms)
    name = request.config.getoption("hypothesis_profile", default=None) or "ci"
    point = st.tuples(st.lists(st.integers(0, N_MODES - 1), min_size=k, max_size=k),
                      st.lists(st.floats(0, 1, allow_nan=False), min_size=k, max_size=k))

    @settings(settings.get_profile(name))
    @given(point)
    def prop(mu):
        modes, us = mu
        vals = _sample(doms, np.array(modes)[:, None], np.array(us)[:, None])
        ok, concl = ev.slacks_np(vals)
        assume(bool(ok[0]))
        target(-float(concl[0]), label="negated slack")
        if ev.candidate(concl[0]):
            cx = confirm(claim, dict(zip(ev.syms, vals[:, 0])), ev)
            if cx is not None:
                raise _Refuted(cx)

    try:
        prop()
    except _Refuted as exc:
        exact_recheck(claim, exc.cx)
        pytest.xfail(f"step refuted by the witness {exc.cx}")
    except Unsatisfiable:
        pytest.skip("no sampled point satisfied the hypotheses")
