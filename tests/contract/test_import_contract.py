"""The import contract (DESIGN.md, *Layout*): the engine knows no paper.

* no module of ``checks/`` outside ``checks/papers/`` imports ``theory.papers`` or names a
  paper (a registered paper key, or its author stem such as ``liang``) anywhere in its
  text — code, docstrings or comments;
* ``theory`` never imports ``checks``;
* paper packages (``theory/papers/``) hold declarations only: they import ``theory`` and
  SymPy and the standard library, no numerics and no engine code."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from theory import registry

ROOT = Path(__file__).resolve().parents[2]
PAPER_OK = {"theory", "sympy", "__future__", "dataclasses", "fractions", "functools", "itertools",
            "math", "re", "typing", "collections", "enum"}


def _modules(sub: str):
    return sorted(p for p in (ROOT / sub).rglob("*.py"))


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
            out += [f"{node.module}.{a.name}" for a in node.names]
    return out


#: generic problem-class identifiers that collide with a paper key (the class ``Holder`` of
#: theory.classes, Hölder smoothness, vs the paper key of the Hölder-smooth DP-SGD paper):
#: the capitalised identifier used as code (``Holder(``, ``Holder,``, ``Holder)``) is
#: tolerated; the lowercase key in strings, docstrings or comments still fails.
_GENERIC_CLASS = re.compile(r"(?<![\w-])Holder(?=\s*[(),\]])")


def _engine_modules():
    return [p for p in _modules("checks") if "papers" not in p.relative_to(ROOT / "checks").parts]


def _paper_words() -> set[str]:
    words = set()
    for key in registry.papers():
        words.add(key.lower())
        words.add(key.split("-")[0].lower())
    return words


def test_there_is_something_to_check():
    assert len(_engine_modules()) > 20 and len(_paper_words()) >= 2


@pytest.mark.parametrize("path", _engine_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_module_knows_no_paper(path):
    bad = [m for m in _imports(path) if m == "theory.papers" or m.startswith("theory.papers.")]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"
    text = _GENERIC_CLASS.sub("", path.read_text(encoding="utf-8")).lower()
    named = sorted(w for w in _paper_words() if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w])",
                                                            text))
    assert not named, f"{path.relative_to(ROOT)} names paper(s) {named}"


@pytest.mark.parametrize("path", _modules("theory"), ids=lambda p: str(p.relative_to(ROOT)))
def test_theory_never_imports_checks(path):
    bad = [m for m in _imports(path) if m == "checks" or m.startswith("checks.")]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


@pytest.mark.parametrize("path", _modules("theory/papers"), ids=lambda p: str(p.relative_to(ROOT)))
def test_paper_packages_hold_declarations_only(path):
    bad = [m for m in _imports(path) if m.split(".")[0] not in PAPER_OK]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_the_generic_class_is_tolerated_but_the_key_is_not():
    assert _GENERIC_CLASS.sub("", "from theory.classes import Convex, Holder, Lipschitz\n"
                              "classes = (LSmooth, Holder)\nHolder(nu, L)") .lower().count(
        "holder") == 0
    assert "holder" in _GENERIC_CLASS.sub("", "paper 'holder' and a Holder smooth loss").lower()


def test_a_planted_violation_is_caught(tmp_path):
    p = tmp_path / "x.py"
    p.write_text("from theory.papers.liang import common\n")
    assert "theory.papers.liang" in _imports(p)


# ----------------------------------------------------------------------------- the layout
#: the folders of the truth protocol and what each may import of the others: providers and
#: their kernels (truth) import none of them; the driver (statements) answers with truth;
#: step oracles use the driver and truth; the simulator uses truth (and registers its audit
#: with it, never the other way)
FOLDERS = ("checks/truth", "checks/statements", "checks/oracles", "checks/simulate")
ALLOWED = {
    "checks/truth": set(),
    "checks/statements": {"checks/truth"},
    "checks/oracles": {"checks/truth", "checks/statements"},
    "checks/simulate": {"checks/truth", "checks/statements"},
}
#: a function-level import in those folders is allowed only for these heavy or optional
#: libraries, and only with a ``# lazy`` comment saying why (on its line or the line above)
LAZY_OK = ("torch", "dask", "distributed", "matplotlib", "dp_accounting", "rich", "numbers",
           "io", "importlib", "checks.simulate", "checks.plugins", "checks.output", "theory",
           "numpy", "math", "checks.statements.registered")


def _folder_of(module: str):
    path = module.replace(".", "/")
    for f in FOLDERS:
        if path == f or path.startswith(f + "/"):
            return f
    return None


def _folder_graph(paths):
    """folder → {folders it imports} (imports anywhere in a module, function-level too)."""
    graph: dict = {f: set() for f in FOLDERS}
    for p in paths:
        src = _folder_of(str(p.relative_to(ROOT).with_suffix("")).replace("/", "."))
        if src is None:
            continue
        for m in _imports(p):
            dst = _folder_of(m)
            if dst is not None and dst != src:
                graph[src].add(dst)
    return graph


def _has_cycle(graph) -> bool:
    state: dict = {}

    def visit(n):
        if state.get(n) == 1:
            return True
        if state.get(n) == 2:
            return False
        state[n] = 1
        if any(visit(m) for m in graph.get(n, ())):
            return True
        state[n] = 2
        return False
    return any(visit(n) for n in graph)


def test_no_loop_between_the_protocol_folders():
    graph = _folder_graph(_modules("checks"))
    assert not _has_cycle(graph), graph
    for f, deps in graph.items():
        assert deps <= ALLOWED[f], f"{f} imports {sorted(deps - ALLOWED[f])}"


def test_the_folder_graph_finds_a_planted_loop(tmp_path):
    graph = {"checks/truth": {"checks/simulate"}, "checks/simulate": {"checks/truth"}}
    assert _has_cycle(graph)
    assert not _has_cycle({"checks/statements": {"checks/truth"}, "checks/truth": set()})


def _function_imports(path: Path):
    lines = path.read_text(encoding="utf-8").split("\n")
    tree = ast.parse("\n".join(lines))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for sub in ast.walk(node):
                if isinstance(sub, (ast.Import, ast.ImportFrom)):
                    mod = sub.module if isinstance(sub, ast.ImportFrom) else sub.names[0].name
                    near = lines[sub.lineno - 1] + lines[sub.lineno - 2]
                    yield sub.lineno, mod or "", "# lazy" in near


@pytest.mark.parametrize("path", [p for f in FOLDERS for p in _modules(f)],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_sit_at_module_top_unless_lazy_for_a_reason(path):
    bad = [f"line {n}: {m}" for n, m, lazy in _function_imports(path)
           if not (lazy and any(m == k or m.startswith(k + ".") for k in LAZY_OK))]
    assert not bad, f"{path.relative_to(ROOT)}: function-level imports {bad}"


def test_statements_are_told_apart_by_type_and_hypotheses_by_tag():
    """No code tells a rate from a bound by probing for a ``metric`` attribute, and none
    selects hypotheses by matching the text of their citation (``where``)."""
    probe = re.compile(r"hasattr\(.*metric")
    cite = re.compile(r"\.where\b.*(startswith|not in| in )|(startswith|not in| in ).*\.where\b")
    for p in _modules("checks") + _modules("theory"):
        for i, line in enumerate(p.read_text(encoding="utf-8").split("\n"), 1):
            assert not probe.search(line), f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
            assert not cite.search(line), f"{p.relative_to(ROOT)}:{i}: {line.strip()}"


def test_no_provider_searches_on_its_own():
    """The driver owns every search loop: a provider answers (``supports``, ``truth``,
    declarations), it defines no ``check`` and never imports the driver."""
    from checks import plugins
    for prov in plugins.providers():
        assert not hasattr(prov, "check"), prov.name
        mod = Path(__import__(type(prov).__module__, fromlist=["x"]).__file__)
        bad = [m for m in _imports(mod) if m.startswith("checks.statements")]
        assert not bad, f"{prov.name} ({mod.name}) imports {bad}"
