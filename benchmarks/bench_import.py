"""`dpcheck import` on the four seed renderings: import time, what was found, and the
round-trip recall against the hand encodings (theory/papers/<key>/).

    python benchmarks/bench_import.py [--parser sympy-lark|latex2sympy2_extended|both] [KEY ...]

Per paper: results found vs theorem-like headings printed, display relations, relations
parsed into SymPy, rows kept UNCHECKED, hypotheses, the recall of the hand encoding's
numbered ALGEBRA/SCALAR rows, and the import time.  ``--parser both`` measures the two
LaTeX parsers on the same rewritten sides.
"""
from __future__ import annotations

import argparse
import importlib.util
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


def run(key: str, parser: str) -> dict:
    from checks.importer import import_paper
    from checks.importer.roundtrip import compare
    from theory import registry
    t0 = time.perf_counter()
    draft, text = import_paper(SEEDS / f"{key}.txt", key=f"{key}-imported", parser=parser)
    seconds = time.perf_counter() - t0
    mod = load_module(text, f"imported_{key.replace('-', '_')}_{parser.replace('-', '_')}")
    rec = compare(mod.RESULTS, registry.results_of(key), draft.table,
                  registry.symbols_of(key).declared())
    s = draft.stats
    return {"key": key, "parser": parser, "results": s.results, "printed": s.printed,
            "relations": s.relations, "parsed": s.parsed, "unparsed": s.unparsed,
            "algebra": s.algebra, "hypotheses": s.hypotheses, "rows": rec.rows,
            "matched": rec.matched, "recall": rec.recall, "seconds": seconds,
            "no_number": rec.missing_number}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("keys", nargs="*", default=list(KEYS))
    ap.add_argument("--parser", default="sympy-lark",
                    choices=("sympy-lark", "latex2sympy2_extended", "both"))
    args = ap.parse_args(argv)
    parsers = ("sympy-lark", "latex2sympy2_extended") if args.parser == "both" else (args.parser,)
    print(f"{'paper':<11} {'parser':<22} {'results':>8} {'relations':>9} {'parsed':>7} "
          f"{'unparsed':>8} {'hyps':>5} {'recall':>14} {'seconds':>8}")
    total = {p: [0, 0] for p in parsers}
    for key in args.keys:
        for parser in parsers:
            r = run(key, parser)
            total[parser][0] += r["matched"]
            total[parser][1] += r["rows"]
            print(f"{key:<11} {parser:<22} {r['results']:>4}/{r['printed']:<3} "
                  f"{r['relations']:>9} {r['parsed']:>7} {r['unparsed']:>8} {r['hypotheses']:>5} "
                  f"{r['matched']:>4}/{r['rows']:<3} {100 * r['recall']:>4.0f}% "
                  f"{r['seconds']:>8.1f}", flush=True)
    for parser, (m, n) in total.items():
        print(f"overall recall ({parser}): {m}/{n} = {100 * m / max(n, 1):.0f}% of the hand "
              "encodings' numbered ALGEBRA/SCALAR rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
