"""A stranger's paper, the first hour (issue 34, "the user path"): every constructor
documented, ``dpcheck show`` on a paper file, statement parts judged on their own chains,
``first_broken_line`` for every paper, the typed statements' outcomes in the default view,
a declared normalisation, one-line errors, ``lint`` listing every problem, step ids unique
per chain.  Each test failed before its fix.
"""
from __future__ import annotations

import dataclasses
import inspect
import json
import re
from pathlib import Path

import pytest
import sympy as sp

from checks import engine, units
from checks import cli
from checks.cli import main
from theory import registry
from theory.mechanisms import GaussianMechanism
from theory.model import (CaseSplit, Case, Chain, Paper, Result, Step, StepKind, asm,
                          walk_steps)
from theory.quantities import DIMLESS, THETA, table

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
ALG, PRO, CIT = StepKind.ALGEBRA, StepKind.PROBABILISTIC, StepKind.CITED

S = table("parts-test")
x = S.quantity("x", DIMLESS, "a quantity", positive=True)
y = S.quantity("y", DIMLESS, "another quantity", positive=True)
D_a = S.quantity("D_a", DIMLESS, "a divergence", nonnegative=True)
V = S.quantity("V", DIMLESS, "a variance", nonnegative=True)


@pytest.fixture(autouse=True)
def fresh_registry():
    registry.reset()
    yield
    registry.reset()


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _readme_example() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Check your own paper", 1)[1]
    return re.findall(r"^```python\n(.*?)^```", section, flags=re.S | re.M)[0]


RDP_LINE = "RDP = alpha * Delta**2 / (2 * sigma**2)"


@pytest.fixture
def planted(tmp_path):
    """The README's example with a wrong constant: Lemma 1's line-1 (no equation number)
    and its statement are refuted."""
    path = tmp_path / "my_paper.py"
    path.write_text(_readme_example().replace(RDP_LINE, RDP_LINE.replace("(2 *", "(4 *")),
                    encoding="utf-8")
    return path


# ----------------------------------------------------------------------------- item 3
def _constructors():
    """(name, object) of every constructor the template's reference lists."""
    import importlib
    for module, items in cli.reference():
        mod = importlib.import_module(module)
        for name, _ in items:
            obj = mod
            for part in name.split("."):
                obj = getattr(obj, part)
            yield name, obj


def _arguments(obj) -> list[str]:
    if dataclasses.is_dataclass(obj):
        return [f.name for f in dataclasses.fields(obj) if f.init]
    params = inspect.signature(obj).parameters.values()
    return [("**" if p.kind is p.VAR_KEYWORD else "") + p.name for p in params
            if p.name != "self"]


def _readme_reference() -> dict[str, dict[str, list[str]]]:
    """constructor -> {argument: [meaning, default, ...]} from the README's tables."""
    text = README.read_text(encoding="utf-8")
    assert "## The constructors a paper uses" in text
    section = text.split("## The constructors a paper uses", 1)[1]
    section = re.split(r"^## ", section, maxsplit=1, flags=re.M)[0]
    out: dict[str, dict[str, list[str]]] = {}
    current = None
    grouped = False
    for line in section.splitlines():
        m = re.match(r"^#### `([\w.]+)\(", line)
        if m:
            current, grouped = m.group(1), False
            continue
        if not line.startswith("|") or set(line) <= set("|-"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if cells[0] in ("argument", "constructor", "metric"):
            grouped = cells[0] == "constructor"
            if cells[0] == "metric":
                current = "metrics"
            continue
        if current == "metrics":
            out.setdefault("metrics", {})[cells[0].strip("`")] = cells[1:]
            continue
        if grouped:
            if cells[0]:
                current = cells[0].split()[0].strip("`")
            cells = cells[1:]
        out.setdefault(current, {})[cells[0].strip("`")] = cells[1:]
    return out


def test_readme_documents_every_argument_of_every_constructor():
    ref = _readme_reference()
    for name, obj in _constructors():
        if name == "Metric":
            continue                       # the metric constants are listed instead
        args = [a for a in _arguments(obj) if a != "of"]
        assert name in ref or not args, f"README has no table for {name}"
        for a in args:
            assert a in ref[name], f"README: {name} has no row for argument {a!r}"
            meaning, default = ref[name][a][0], ref[name][a][-1]
            assert meaning and default, (name, a, ref[name][a])
    # every problem class takes `of`, documented once
    assert "of" in ref["ProblemClass"] and "loss" in ref["ProblemClass"]["of"][-1]
    # the defaults the user missed are stated
    assert ref["Bound"]["profile"][-1] == "`False`" and ref["Bound"]["delta"][-1] == "`None`"
    from theory import metrics
    names = [k for k, v in vars(metrics).items() if isinstance(v, metrics.Metric)]
    assert set(names) <= set(ref["metrics"]), set(names) - set(ref["metrics"])


def test_new_template_lists_every_constructor_with_its_arguments():
    text = cli.template_for("my-draft", "my_draft.py")
    flat = " ".join(line.lstrip("# ").strip() for line in text.splitlines()
                    if line.startswith("#"))
    for name, obj in _constructors():
        start = flat.find(name + "(")
        assert start >= 0, f"the template does not list {name}(...)"
        depth, k = 0, start + len(name)
        while True:                         # the argument list, to its closing parenthesis
            depth += {"(": 1, ")": -1}.get(flat[k], 0)
            if depth == 0:
                break
            k += 1
        listed = flat[start + len(name) + 1:k]
        for a in _arguments(obj):
            assert re.search(r"(^|[ (*,])" + re.escape(a) + r"\b", listed), (name, a, listed)
    assert "profile=False" in flat and "delta=None" in flat and "order=None" in flat


# ----------------------------------------------------------------------------- item 4
def test_show_accepts_a_paper_file_and_prints_its_counterexamples(planted, capsys):
    code, out, err = _run(capsys, "show", planted, "lem-1", "--budget", "50")
    assert code == 0, err
    assert "my-paper:lem-1/line-1" in out and "REFUTED" in out
    # the exact counterexample of the unnumbered line, and the statement's witness
    assert re.search(r"counterexample: Delta = \S+, alpha = \S+, dist = \S+, sigma = \S+",
                     out), out
    assert "statement verdict: VIOLATED" in out and "witness: " in out

    registry.reset()
    code, out2, err = _run(capsys, "show", "my-paper:lem-1/line-1", "--paper", planted,
                           "--budget", "50")
    assert code == 0, err
    assert "my-paper:lem-1/line-1" in out2 and "counterexample:" in out2
    assert "my-paper:lem-1/eq-2" not in out2           # one row only


def test_show_suggestions_come_from_the_paper_shown(planted, capsys):
    code, _, err = _run(capsys, "show", planted, "lem-4")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "did you mean" in err and "my-paper:lem-1" in err
    named = set(re.findall(r"\b([a-z0-9-]+):[a-z]+-", err))
    assert named == {"my-paper"}, err                    # never a built-in paper's id
    registry.reset()
    # no file given, a key no registered paper has: say how to name the file
    code, _, err = _run(capsys, "show", "my-paper:lem-4")
    assert code == 2 and "dpcheck show FILE ID" in err and "holder:" not in err


# ----------------------------------------------------------------------------- item 5


def _two_parts(dependent: bool, via: str = "part") -> Result:
    """Part (i): a chain of CITED rows (Chebyshev); part (ii): a chain with a refuted row.
    With ``dependent``, (i)'s chain is the broken one and (ii) takes (i) as a given."""
    cheb = Chain("proof-i", [Step("cheb", D_a, "<=", V / x**2, CIT, because="Chebyshev"),
                             Step("var", V / x**2, "<=", 1 / x**2, CIT, because="V <= 1")],
                 concludes="part-1")
    bad = Chain("proof-ii", [Step("line-1", D_a * y, "<=", y / x**2, ALG,
                                  given=[asm(D_a <= 1 / x**2, "part (i)")] if dependent
                                  else [asm(D_a <= V / x**2)]),
                             Step("line-2", y / x**2, "<=", y / (2 * x**2), ALG)],
                concludes="part-2")
    if dependent:       # (i)'s own chain broken, (ii)'s carried given (i)
        cheb = Chain("proof-i", [Step("cheb", D_a, "<=", V / x**2, CIT),
                                 Step("var", V / x**2, "<=", V / (2 * x**2), ALG)],
                     concludes="part-1")
        # (ii) leans on (i)'s statement, or on the (cited) first line of (i)'s chain
        lean = (asm(D_a <= V / (2 * x**2), "part (i)") if via == "part" else
                asm(D_a <= V / x**2, "the first line of (i)'s proof"))
        bad = Chain("proof-ii", [Step("line-1", D_a * y, "<=", y / x**2, ALG,
                                      given=[lean, asm(V <= 1)])],
                    concludes="part-2")
        statement = [Step("part-1", D_a, "<=", V / (2 * x**2), PRO),
                     Step("part-2", D_a * y, "<=", y / x**2, PRO)]
    else:
        statement = [Step("part-1", D_a, "<=", 1 / x**2, PRO),
                     Step("part-2", D_a * y, "<=", y / (2 * x**2), PRO)]
    return Result("parts-test:lem-5", "two parts", "Lemma 5",
                  hypotheses=[asm(V <= 1)] if not dependent else [],
                  statement=statement, proof=[cheb, bad])


def test_a_part_carried_by_its_own_chain_is_proved_whatever_the_other_part_shows():
    rep = engine.check_result(_two_parts(dependent=False), budget=200)
    v = {s.id.split("/", 1)[1]: s for s in rep.steps}
    assert v["line-2"].verdict.value == "REFUTED"            # (ii)'s chain is broken
    assert v["part-1"].verdict.value == "PROVED", v["part-1"].detail
    assert "rests on" in v["part-1"].detail
    assert v["part-2"].verdict.value != "PROVED"


@pytest.mark.parametrize("via", ["part", "line"])
def test_a_part_that_takes_another_part_as_given_rests_on_its_chain(via):
    """(Passes before the fix too: then every part rested on the whole proof.)"""
    r = _two_parts(dependent=True, via=via)
    assert engine._other_parts_rows(r)["part-2"] == frozenset()     # (i)'s chain is its own
    assert engine._other_parts_rows(r)["part-1"]                      # not the reverse
    rep = engine.check_result(r, budget=200)
    v = {s.id.split("/", 1)[1]: s for s in rep.steps}
    assert v["var"].verdict.value == "REFUTED"               # (i)'s chain is broken
    assert v["proof-ii/concludes"].verdict.value == "PROVED"
    assert v["line-1"].verdict.value == "PROVED"
    # (ii)'s own chain is carried, but it takes (i) as a given: not PROVED
    assert v["part-2"].verdict.value != "PROVED", v["part-2"].detail
    assert "var REFUTED" in v["part-2"].detail


def test_own_rows_of_parts_in_case_splits_and_free_steps():
    """Steps outside chains and case covers count for every part; another part's chain
    inside a case does not."""
    r = Result("parts-test:lem-6", "cases", "Lemma 6",
               statement=[Step("part-1", x, "<=", 2 * x), Step("part-2", y, "<=", 3 * y)],
               proof=[Step("free", x, "<=", x + y),
                      CaseSplit("split", [Case("c1", [asm(x <= 1)], [
                          Chain("a", [Step("s", x, "<=", 2 * x)], concludes="part-1"),
                          Chain("b", [Step("s", y, "<=", 3 * y)], concludes="part-2")]),
                          Case("c2", [asm(x >= 1)], [])])])
    others = engine._other_parts_rows(r)
    assert others["part-1"] == {"parts-test:lem-6/c1/b/s", "parts-test:lem-6/c1/b/concludes"}
    assert others["part-2"] == {"parts-test:lem-6/c1/a/s", "parts-test:lem-6/c1/a/concludes"}


# ----------------------------------------------------------------------------- item 6
def test_first_broken_line_is_set_for_a_paper_file(planted, capsys):
    code, out, err = _run(capsys, "verify", planted, "--format", "json", "--no-cache",
                          "--no-progress", "--budget", "200")
    assert code == 0, err
    res = {r["id"]: r for r in json.loads(out)["results"]}
    fb = res["my-paper:lem-1"]["first_broken_line"]
    assert fb is not None and fb["line"] == "my-paper:lem-1/line-1"
    assert fb["printed"] == "line-1" and fb["eq"] is None and fb["witness"]
    # a numbered line still comes first
    assert res["my-paper:thm-1"]["first_broken_line"]["line"] == "my-paper:thm-1/eq-5"


# ----------------------------------------------------------------------------- item 7
TYPED = '''
import sympy as sp
from theory.mechanisms import GaussianMechanism, NormalizedSGD
from theory.model import Bound, Paper, Result, Step, StepKind
from theory.quantities import DIMLESS, THETA, T, b, n, table

S = table("typed-view")
Delta = S.quantity("Delta", THETA, "sensitivity", positive=True)
sigma = S.quantity("sigma", THETA, "noise", positive=True)
alpha = S.quantity("alpha", DIMLESS, "Renyi order", positive=True)
eta = S.quantity("eta", DIMLESS, "step size", positive=True)
r = S.quantity("r", DIMLESS, "regulariser", positive=True)
D_a = S.quantity("D_a", DIMLESS, "divergence", nonnegative=True)
PAPER = Paper(key="typed-view", title="typed statements", symbols=S)
RDP = alpha * Delta**2 / (2 * sigma**2)
RESULTS = [
    Result("typed-view:lem-1", "RDP of the Gaussian mechanism", "Lemma 1",
           hypotheses=[sp.Gt(alpha, 1)],
           statement=[Step("statement", D_a, "<=", RDP, StepKind.CITED, because="folklore")],
           bounds=[Bound("statement", RDP, GaussianMechanism(Delta, sigma), order=alpha)]),
    Result("typed-view:lem-2", "RDP of DP-NSGD", "Lemma 2",
           hypotheses=[sp.Gt(alpha, 1)],
           statement=[Step("statement", D_a, "<=", RDP, StepKind.CITED)],
           bounds=[Bound("statement", RDP,
                         NormalizedSGD(n=n, b=b, eta=eta, r=r, sigma=sigma, T=T),
                         order=alpha)]),
]
'''


def test_default_view_shows_the_typed_statements_of_cited_results(tmp_path, capsys):
    path = tmp_path / "typed_view.py"
    path.write_text(TYPED, encoding="utf-8")
    code, out, err = _run(capsys, "verify", path, "--no-cache", "--no-progress",
                          "--budget", "200")
    assert code == 0, err
    title = next(line for line in out.splitlines() if line.startswith("typed-view:"))
    # a settled result whose typed statement held is named with what it gave
    assert re.search(r"held: lem-1 CITED, statement on \d+ scenarios", title), title
    # one never tested needs attention: a row, beside the rows' verdict
    line2 = next(line for line in out.splitlines() if line.strip().startswith("lem-2 "))
    assert "CITED" in line2 and "statement never tested: no truth provider" in line2, line2
    assert "settled 1:" in title


def test_typed_outcomes_in_the_report():
    from types import SimpleNamespace as Outcome      # the fields the engine reads
    r = registry.get("dice:lem-a.7")
    held = Outcome(label="statement", tested=True, violated=False, ratio=0.5, samples=7,
                   detail="held")
    assert engine.typed_outcomes(r, {"statement": held}) == [
        {"label": "statement", "kind": "bound", "outcome": "held", "scenarios": 7,
         "ratio": 0.5, "why": ""}]
    never = Outcome(label="statement", tested=False, violated=False, ratio=None, samples=0,
                    detail="bound statement: NOT-TESTED — no truth provider supports it")
    assert engine.typed_outcomes(r, {"statement": never})[0]["why"] == \
        "no truth provider supports it"
    assert engine.typed_outcomes(r, {})[0]["outcome"] == "not tested"


# ----------------------------------------------------------------------------- item 9
def _gaussian_rdp(normalise=(), paper_normalise=None):
    T_ = table("norm-test")
    Delta = T_.quantity("Delta", THETA, "sensitivity", positive=True)
    sigma = T_.quantity("sigma", THETA, "noise standard deviation", positive=True)
    alpha = T_.quantity("alpha", DIMLESS, "Renyi order", positive=True)
    D_a = T_.quantity("D_a", DIMLESS, "divergence", nonnegative=True)
    # Delta = 1 w.l.o.g.: the paper writes alpha/(2 sigma^2) for the RDP
    r = Result("norm-test:lem-1", "RDP with Delta = 1", "Lemma 1",
               hypotheses=[asm(alpha > 1)],
               statement=[Step("statement", D_a, "<=", alpha / (2 * sigma**2), PRO)],
               bounds=[sp_bound(alpha, sigma)], normalise=normalise)
    return r, T_, Delta


def sp_bound(alpha, sigma):
    from theory.model import Bound
    return Bound("statement", alpha / (2 * sigma**2), GaussianMechanism(1, sigma), order=alpha)


def test_a_declared_normalisation_is_not_a_dimension_mismatch():
    r, tab, Delta = _gaussian_rdp()
    _, findings = units.check_result(r, table=tab)
    assert findings and all("Θ" in f.message for f in findings)      # undeclared: flagged
    _, findings = units.check_result(r, table=tab, normalise=(Delta,))
    assert findings == []                                             # the paper's
    r2, tab2, Delta2 = _gaussian_rdp(normalise=(sp.Symbol("Delta", positive=True),))
    _, findings = units.check_result(r2, table=tab2)
    assert findings == []                                             # the result's


def test_normalisation_reduces_dimensions_linearly():
    from checks.units import reduction
    from theory.quantities import CURVATURE, GRADIENT, LOSS
    from checks.units import from_monomial
    red = reduction([from_monomial(THETA)])            # Θ = 1: only F remains
    assert red(from_monomial(GRADIENT)) == (0, 1) and red(from_monomial(THETA**2)) == (0, 0)
    red = reduction([from_monomial(CURVATURE)])        # L = 1: Θ² = F
    assert red(from_monomial(THETA**2)) == red(from_monomial(LOSS))
    assert red(from_monomial(GRADIENT)) != red(from_monomial(DIMLESS))
    red = reduction([from_monomial(THETA), from_monomial(LOSS)])
    assert red(from_monomial(GRADIENT)) == (0, 0)


NORMALISED = '''
import sympy as sp
from theory.mechanisms import GaussianMechanism
from theory.model import Bound, Paper, Result, Step, StepKind, asm
from theory.quantities import DIMLESS, THETA, table

S = table("delta-one")
Delta = S.quantity("Delta", THETA, "l2-sensitivity", positive=True)
sigma = S.quantity("sigma", THETA, "noise standard deviation", positive=True)
alpha = S.quantity("alpha", DIMLESS, "Renyi order", positive=True)
D_a = S.quantity("D_a", DIMLESS, "divergence", nonnegative=True)
PAPER = Paper(key="delta-one", title="Delta = 1 without loss of generality", symbols=S,
              normalise=NORM)
RESULTS = [Result("delta-one:lem-1", "RDP", "Lemma 1", hypotheses=[asm(alpha > 1)],
                  statement=[Step("statement", D_a, "<=", alpha / (2 * sigma**2),
                                  StepKind.CITED)])]
'''


@pytest.mark.parametrize("norm,mismatch", [("()", True), ("(Delta,)", False)])
def test_a_paper_that_normalises_delta_verifies_without_mismatch(tmp_path, capsys, norm,
                                                                 mismatch):
    path = tmp_path / "delta_one.py"
    path.write_text(NORMALISED.replace("NORM", norm), encoding="utf-8")
    code, out, err = _run(capsys, "verify", path, "--format", "json", "--no-cache",
                          "--no-progress", "--budget", "50")
    assert code == 0, err
    data = json.loads(out)
    assert bool(data["dimension_mismatches"]) is mismatch, data["dimension_mismatches"]
    units_row = next(s for s in data["results"][0]["steps"] if s["kind"] == "UNITS")
    assert units_row["verdict"] == ("UNCHECKED" if mismatch else "PROVED")


# ----------------------------------------------------------------------------- item 10
def test_a_reserved_symbol_is_one_line_naming_it():
    with pytest.raises(ValueError) as ei:
        table("mine").quantity("t", DIMLESS, "time", positive=True)
    msg = str(ei.value)
    assert "\n" not in msg and "{" not in msg and "assumptions0" not in msg
    assert "'t'" in msg and "reserved" in msg and "theory.quantities.t" in msg
    assert "nonnegative integer" in msg and "another name" in msg


def test_a_bad_result_id_names_the_character_and_the_allowed_ones():
    with pytest.raises(ValueError) as ei:
        Result("my-paper:cor-3'", "a primed corollary", "Sec. 3")
    msg = str(ei.value)
    assert "\"'\"" in msg and "number" in msg
    assert "lower-case letters, digits and '.'" in msg and "\n" not in msg
    with pytest.raises(ValueError, match=r"characters 'E', ' ' not allowed.*lower-case"):
        Step("Eq 1", x, "<=", 2 * x)


MANY = '''
from theory.model import Chain, Paper, Result, Step
from theory.quantities import DIMLESS, table

S = table("many")
a = S.quantity("a", DIMLESS, "a", positive=True)
t = S.quantity("t", DIMLESS, "time", positive=True)
PAPER = Paper(key="many", title="many mistakes", symbols=S)
RESULTS = [
    Result("many:cor-3'", "a prime", "Sec. 1", statement=[Step("statement", a, "<=", 2 * a)]),
    Result("many:lem-2", "a bad label", "Sec. 1", statement=[Step("Eq 1", a, "<=", 2 * a)]),
    Result("many:lem-3", "an undeclared symbol", "Sec. 1",
           statement=[Step("statement", a, "<=", a + t)]),
]
'''


def test_lint_lists_every_problem_one_line_each(tmp_path, capsys):
    path = tmp_path / "many.py"
    path.write_text(MANY, encoding="utf-8")
    code, out, err = _run(capsys, "lint", path)
    assert code == 1, err
    lines = out.strip().splitlines()
    assert all(line.startswith(f"{path}: ") for line in lines), lines
    assert any("line 7: quantity 't'" in line and "reserved" in line for line in lines), lines
    assert any("line 10: result id \"many:cor-3'\"" in line for line in lines), lines
    assert any("line 11: step label 'Eq 1'" in line for line in lines), lines
    assert len(lines) >= 3
    # the file was imported with invalid objects for lint: verify refuses it (one line)
    code, _, err = _run(capsys, "verify", path, "--no-cache", "--no-progress")
    assert code == 2 and "reserved" in err and len(err.strip().splitlines()) == 1


def test_lint_still_stops_on_a_file_without_paper(tmp_path, capsys):
    path = tmp_path / "bad_label.py"
    path.write_text("from theory.model import Step\nS = Step('Eq 1', 1, '<=', 2)\n")
    code, out, err = _run(capsys, "lint", path)
    assert code == 2
    assert out.strip() == f"{path}: line 2: step label 'Eq 1': characters 'E', ' ' not " \
                          "allowed; a label is lower-case letters, digits, '.', '+' and " \
                          "'-', starting with a letter or a digit (e.g. 'eq-3.1', 'line-2', " \
                          "'part-1')"
    assert len(err.strip().splitlines()) == 1 and "must define PAPER and RESULTS" in err


def _subst_result() -> Result:
    return Result("parts-test:thm-2", "two chains, one label", "Theorem 2",
                  statement=[Step("part-1", x, "<=", 2 * x), Step("part-2", y, "<=", 3 * y)],
                  proof=[Chain("chain-a", [Step("subst", x, "<=", 2 * x)],
                               concludes="part-1"),
                         Chain("chain-b", [Step("subst", y, "<=", 3 * y),
                                           Step("line-1", 3 * y, "=", 3 * y)],
                               concludes="part-2")])


def test_step_labels_may_repeat_in_different_chains():
    r = _subst_result()
    ids = [loc.id for loc in walk_steps(r)]
    assert "parts-test:thm-2/chain-a/subst" in ids and "parts-test:thm-2/chain-b/subst" in ids
    assert "parts-test:thm-2/line-1" in ids             # a label used once keeps its id
    assert len(ids) == len(set(ids))
    plan_ids = [pc.id for pc in engine.plan(r)]
    assert set(ids) <= set(plan_ids) and len(plan_ids) == len(set(plan_ids))
    assert registry.problems(Paper(key="parts-test", title="t"), [r]) == []
    rep = engine.check_result(r, budget=50)
    v = {s.id: s.verdict.value for s in rep.steps}
    assert v["parts-test:thm-2/part-1"] == v["parts-test:thm-2/part-2"] == "PROVED"
    # a label repeated within one chain stays a duplicate
    dup = Result("parts-test:thm-3", "dup", "w",
                 proof=[Chain("c", [Step("s", x, "<=", 2 * x), Step("s", 2 * x, "<=", 3 * x)])])
    assert any("duplicate step id" in p for p in
               registry.problems(Paper(key="parts-test", title="t"), [dup]))


def test_the_five_papers_keep_their_step_ids():
    """No built-in result repeats a label, so every id is ``<result>/<case path>/<label>``
    as before."""
    for r in registry.all_results():
        old = []

        def walk(items, path):
            for it in items:
                if isinstance(it, Step):
                    old.append("/".join((r.id,) + path + (it.label,)))
                elif isinstance(it, Chain):
                    old.extend("/".join((r.id,) + path + (s.label,)) for s in it.steps)
                elif isinstance(it, CaseSplit):
                    for c in it.cases:
                        walk(c.proof, path + (c.label,))
        walk(r.proof, ())
        new = [loc.id for loc in walk_steps(r)][len(r.statement):]
        assert new == old, r.id
