"""`dpcheck import` on the four seed renderings: import time, what was found, and the
round-trip recall against the hand encodings (theory/papers/<key>/).

    python benchmarks/bench_import.py [--parser sympy-lark|latex2sympy2_extended|both] [KEY ...]

Per paper: results found vs the theorem-like headings a plain line scan of the source
finds, display relations, relations parsed into SymPy, rows kept UNCHECKED, hypotheses,
the round-trip recall of the hand encoding's numbered ALGEBRA/SCALAR rows (matched /
rows, and how many rows have no imported step with their number; overall, how the rows
were matched: as printed, under the definitions in force, as a printed chain's
composite), and the import time
with the parse caches cleared first (the parsers' own grammar load, once a process, is
in the first paper's time).  ``--parser both`` measures the two LaTeX parsers.
"""
from __future__ import annotations

import argparse
import importlib.util
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SEEDS = ROOT / "tests" / "data" / "seeds"
KEYS = ("liang-icml", "liang-aaai", "holder", "nsgd")


def load_module(text: str, name: str):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{name}.py"
        path.write_text(text)
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    return mod


HEADING = re.compile(r"^[*_]*(Theorem|Lemma|Corollary|Proposition|Definition|Assumption|Remark|"
                     r"Claim|Fact|Example|Condition|Property)\s+([A-Z]?\.?[0-9]+(?:\.[0-9]+)*)",
                     re.M)


def scanned(path: Path) -> int:
    """Theorem-like headings at the start of a line of the source, by a plain scan."""
    return len({(m.group(1), m.group(2).rstrip(".")) for m in HEADING.finditer(path.read_text())})


def run(key: str, parser: str) -> dict:
    from checks.importer import import_paper
    from checks.importer.formulas import _parse_template
    from checks.importer.latex import canonical
    from checks.importer.roundtrip import compare
    from theory import registry
    _parse_template.cache_clear()
    canonical.cache_clear()
    t0, c0 = time.perf_counter(), time.process_time()
    draft, text = import_paper(SEEDS / f"{key}.txt", key=f"{key}-imported", parser=parser)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    mod = load_module(text, f"imported_{key.replace('-', '_')}_{parser.replace('-', '_')}")
    rec = compare(mod.RESULTS, registry.results_of(key), draft.table,
                  registry.symbols_of(key).declared())
    s = draft.stats
    return {"key": key, "parser": parser, "results": s.results,
            "printed": scanned(SEEDS / f"{key}.txt"),
            "relations": s.relations, "parsed": s.parsed, "unparsed": s.unparsed,
            "algebra": s.algebra, "hypotheses": s.hypotheses, "rows": rec.rows,
            "matched": rec.matched, "recall": rec.recall, "seconds": seconds, "cpu": cpu,
            "no_number": rec.missing_number, "ways": rec.ways}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("keys", nargs="*", default=list(KEYS))
    ap.add_argument("--parser", default="sympy-lark",
                    choices=("sympy-lark", "latex2sympy2_extended", "both"))
    args = ap.parse_args(argv)
    parsers = ("sympy-lark", "latex2sympy2_extended") if args.parser == "both" else (args.parser,)
    print(f"{'paper':<11} {'parser':<22} {'results':>8} {'relations':>9} {'parsed':>7} "
          f"{'unparsed':>8} {'hyps':>5} {'recall':>14} {'no eq':>6} {'seconds':>8} {'cpu s':>6}")
    total = {p: [0, 0] for p in parsers}
    ways = {p: {} for p in parsers}
    for key in args.keys:
        for parser in parsers:
            r = run(key, parser)
            total[parser][0] += r["matched"]
            total[parser][1] += r["rows"]
            for w, k in r["ways"].items():
                ways[parser][w] = ways[parser].get(w, 0) + k
            print(f"{key:<11} {parser:<22} {r['results']:>4}/{r['printed']:<3} "
                  f"{r['relations']:>9} {r['parsed']:>7} {r['unparsed']:>8} {r['hypotheses']:>5} "
                  f"{r['matched']:>4}/{r['rows']:<3} {100 * r['recall']:>4.0f}% "
                  f"{r['no_number']:>6} {r['seconds']:>8.1f} {r['cpu']:>6.1f}", flush=True)
    for parser, (m, n) in total.items():
        how = ", ".join(f"{k} {w}" for w, k in sorted(ways[parser].items()))
        print(f"overall recall ({parser}): {m}/{n} = {100 * m / max(n, 1):.0f}% of the hand "
              f"encodings' numbered ALGEBRA/SCALAR rows (matched: {how})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
