"""``dpcheck report``: a Markdown report and a self-contained HTML report.

Everything comes straight from the engine's :class:`~checks.verdict.ResultReport`
objects and the encoded :class:`~theory.model.Result` objects — no copied numbers.
The HTML needs no network to view: CSS is inline, plots are PNGs embedded as base64
data URIs, and formulas are MathML (rendered natively by current browsers), with the
plain-text form beside them as a fallback.
"""
from __future__ import annotations

import base64
import html
import io
import os
import tempfile
from collections import Counter
from pathlib import Path

import sympy as sp

from checks import __version__

VERDICT_ORDER = ["PROVED", "CITED", "SUPPORTED", "UNCHECKED", "REFUTED", "DEFINED"]
#: the caption of the first plot
VERDICT_CAPTION = "Verdicts per step, by paper"
VERDICT_COLOUR = {"PROVED": "#2e7d32", "CITED": "#00838f", "SUPPORTED": "#f9a825",
                  "UNCHECKED": "#8e24aa", "REFUTED": "#c62828", "DEFINED": "#9e9e9e",
                  "VIOLATED": "#c62828", "VACUOUS": "#c62828", "HOLDS-ON-SCENARIOS": "#2e7d32",
                  "NOT-TESTED": "#9e9e9e"}
#: plot colours, distinct from the badge colours so a test can tell the plot rendered
PLOT_COLOUR = {"PROVED": "#1b9e77", "CITED": "#7570b3", "SUPPORTED": "#e6ab02",
               "UNCHECKED": "#e7298a", "REFUTED": "#d95f02", "DEFINED": "#666666"}


# ----------------------------------------------------------------------------- pieces
def _atomic_write(path: Path, data: str | bytes, *, force: bool = False) -> None:
    from checks.output import write_atomic
    write_atomic(path, data, force=force)


def summary_by_paper(reports) -> dict[str, Counter]:
    """paper -> Counter of result verdicts."""
    out: dict[str, Counter] = {}
    for r in reports:
        out.setdefault(r.paper, Counter())[r.verdict.value] += 1
    return out


def step_summary_by_paper(reports) -> dict[str, Counter]:
    out: dict[str, Counter] = {}
    for r in reports:
        c = out.setdefault(r.paper, Counter())
        for s in r.steps:
            c[s.verdict.value] += 1
    return out


def _png(fig) -> bytes:
    """The figure as PNG bytes (cropped to what it draws, a legend outside the axes
    included); the figure is closed."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def verdict_plot_png(reports) -> bytes:
    """Stacked horizontal bars: steps per verdict, one bar per paper."""
    return _png(verdict_figure(reports))


def verdict_figure(reports):
    """The figure of :func:`verdict_plot_png` (its legend below the axes)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    counts = step_summary_by_paper(reports)
    papers = list(counts)
    fig, ax = plt.subplots(figsize=(7, 0.6 + 0.5 * max(1, len(papers))), dpi=100)
    left = [0] * len(papers)
    for v in VERDICT_ORDER:
        vals = [counts[p].get(v, 0) for p in papers]
        if any(vals):
            ax.barh(papers, vals, left=left, color=PLOT_COLOUR[v], label=v)
            left = [a + b for a, b in zip(left, vals)]
    ax.set_xlabel("steps (proof rows and structural checks)")
    # outside the axes, below them: it never covers a bar
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.35 if len(papers) < 4 else -0.18),
              fontsize=8, ncol=len(VERDICT_ORDER), frameon=False)
    ax.invert_yaxis()
    return fig


#: what a typed statement's ratio compares, by kind: (plot caption, axis label)
RATIO_KINDS = {
    "privacy": ("Privacy bounds against the truth: the tightest ratio per result",
                "exact privacy loss (divergence, or δ at the claimed ε) / published bound\n"
                "(largest seen; an explicit bound > 1 is violated, an O-form's is the "
                "constant it needs)"),
    "rate": ("Convergence and utility rates against the measured truth: the largest ratio "
             "per result",
             "measured metric / claimed rate\n(largest seen; an explicit rate > 1 is "
             "violated, an O-form's is the constant it needs)"),
}


def _ratio_kind(rep) -> str:
    """"privacy" when the statement ratio of ``rep`` is a Bound's, "rate" for a Rate's."""
    from theory.registry import get
    label = (rep.statement.witness or {}).get("statement_label")
    try:
        result = get(rep.id)
    except KeyError:
        return "privacy"
    if any(r.label == label for r in result.rates) and not any(
            b.label == label for b in result.bounds):
        return "rate"
    return "privacy"


def ratio_plots_png(reports) -> dict[str, bytes]:
    """One plot per kind of typed statement (privacy bounds, rates): the ratio of the
    truth to the published expression per result, on a log axis (1 = tight)."""
    by_kind: dict[str, list] = {}
    for r in reports:
        if r.statement.ratio is not None:
            by_kind.setdefault(_ratio_kind(r), []).append(
                (r.id, r.statement.ratio, r.statement.verdict.value))
    out = {}
    for kind, rows in by_kind.items():
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        caption, xlabel = RATIO_KINDS[kind]
        fig, ax = plt.subplots(figsize=(7, 0.6 + 0.35 * len(rows)), dpi=100)
        ax.barh([r[0] for r in rows], [max(r[1], 1e-300) for r in rows],
                color=[VERDICT_COLOUR.get(r[2], "#777") for r in rows])
        ax.axvline(1.0, color="k", lw=1, ls="--")
        ax.set_xscale("log")
        ax.set_xlabel(xlabel)
        ax.invert_yaxis()
        out[caption] = _png(fig)
    return out


def ratio_plot_png(reports) -> bytes | None:
    """The privacy bounds' ratio plot (:func:`ratio_plots_png`), or the rates' when there
    is no privacy bound."""
    plots = ratio_plots_png(reports)
    return next(iter(plots.values()), None)


def _mathml(expr) -> str:
    try:
        return sp.mathml(expr, printer="presentation")
    except Exception:  # printer gaps must not break the report: text form is beside it
        return ""


def _formula_html(lhs, rel: str, rhs) -> str:
    text = html.escape(f"{sp.sstr(lhs)} {rel} {sp.sstr(rhs)}")
    rel_mo = {"<=": "&le;", "<": "&lt;", "=": "=", ">=": "&ge;", ">": "&gt;"}[rel]
    ml_l, ml_r = _mathml(lhs), _mathml(rhs)
    if ml_l and ml_r:
        math = (f'<math display="block"><mrow>{ml_l}<mo>{rel_mo}</mo>{ml_r}</mrow></math>')
        return f'<div class="formula">{math}<code class="plain">{text}</code></div>'
    return f'<div class="formula"><code>{text}</code></div>'


def _derivations_text(papers=None) -> list[tuple[str, str]]:
    """(title, text) of the registered re-derivations (``dpcheck derive NAME``) of the
    papers in the report (all when ``papers`` is None)."""
    import argparse

    from checks.plugins import derive_commands
    out = []
    for name, info in derive_commands().items():
        if papers is not None and info.papers and not set(info.papers) & set(papers):
            continue
        args = argparse.Namespace(latex=False)
        if info.add_arguments is not None:
            p = argparse.ArgumentParser()
            info.add_arguments(p)
            args = p.parse_args([], namespace=args)
        try:
            text = info.fn(args)
        except Exception as exc:  # noqa: BLE001 - a broken plug-in is reported, not fatal
            text = f"(failed: {type(exc).__name__}: {exc})"
        out.append((f"{info.help} (dpcheck derive {name})", text))
    return out


def _derivations_of(reports) -> list[tuple[str, str]]:
    """:func:`_derivations_text` of the papers of ``reports``."""
    return _derivations_text(sorted({r.paper for r in reports}))


#: the findings' groups as the report heads them (:data:`checks.verdict.FINDING_GROUPS`)
FINDING_HEADS = {
    "printed": "On the paper's printed lines and results",
    "derived": "Of derived checks (the encoder's, not printed lines)",
    "variants": "Of pinned variants (each its own claim, never the printed result being "
                "false)",
}


def _finding_text(f: dict) -> str:
    what = "statement " + f["verdict"] if f["what"] == "statement" else f["verdict"]
    eq = f" ({f['eq']})" if f.get("eq") else ""
    of = f" — variant of {f['variant_of']}" if f.get("variant_of") else ""
    return f"{f['id']}{eq}: {what}{of}"


def _findings_markdown(reports) -> list[str]:
    """The findings, apart by what they are (:func:`checks.verdict.findings`)."""
    from checks.verdict import FINDING_GROUPS, findings
    got = findings(reports)
    lines = ["## Findings", ""]
    for g in FINDING_GROUPS:
        lines += [f"### {FINDING_HEADS[g]} ({len(got[g])})", ""]
        lines += [f"- {_finding_text(f)}" for f in got[g]] or ["none"]
        lines.append("")
    return lines


# ----------------------------------------------------------------------------- findings
def _printed(find) -> str:
    """The printed line of a finding (a row's ``lhs REL rhs``, a statement's claim)."""
    from theory.model import walk_steps
    from theory.registry import get
    try:
        result = get(find["result"].id)
    except KeyError:
        return ""
    if find["kind"] == "row":
        for loc in walk_steps(result):
            if loc.id == find["id"]:
                st = loc.step
                return f"{sp.sstr(st.lhs)} {st.rel.value} {sp.sstr(st.rhs)}"
        return ""
    label = (find["result"].statement.witness or {}).get("statement_label")
    for st in (*result.bounds, *result.rates):
        if st.label == label:
            return st.describe()
    return ""


def findings_markdown(reports) -> list[str]:
    """"Findings by class": every refuted row and violated statement under its class
    (misprint, missing hypothesis, no repair), with the printed line, the repair, its
    verdict and the repaired line in LaTeX — a section to paste into a review.  Empty
    when no repair search ran."""
    from checks.repair import CLASSES, findings
    found = findings(reports)
    if not found:
        return []
    lines = ["## Findings by class", ""]
    for klass, title in CLASSES.items():
        group = [f for f in found if f["class"] == klass]
        if not group:
            continue
        lines += [f"### {title} ({len(group)})", ""]
        for f in group:
            printed = _printed(f)
            lines.append(f"- **{f['id']}** — {f['summary']}"
                         + (f"; printed: `{printed}`" if printed else ""))
            for rp in f["repairs"][:1]:
                lines.append(f"  - {rp['verdict']}: repaired: $ {rp['latex']} $ "
                             f"({rp['evidence'][:160]})")
        lines.append("")
    return lines


def findings_html(reports) -> list[str]:
    """:func:`findings_markdown` as HTML (the repaired line's LaTeX in a code span)."""
    from checks.repair import CLASSES, findings
    e = html.escape
    found = findings(reports)
    if not found:
        return []
    parts = ["<h2 id='findings'>Findings by class</h2>"]
    for klass, title in CLASSES.items():
        group = [f for f in found if f["class"] == klass]
        if not group:
            continue
        parts.append(f"<h3>{e(title)} ({len(group)})</h3><ul class='findings'>")
        for f in group:
            printed = _printed(f)
            item = (f"<li><b>{e(f['id'])}</b> — {e(f['summary'])}"
                    + (f"; printed: <code>{e(printed)}</code>" if printed else ""))
            for rp in f["repairs"][:1]:
                item += (f"<br>{_badge(rp['verdict'])} repaired: <code>{e(rp['line'])}"
                         f"</code><br>LaTeX: <code>{e(rp['latex'])}</code>")
            parts.append(item + "</li>")
        parts.append("</ul>")
    return parts


# ----------------------------------------------------------------------------- markdown
def render_markdown(reports, *, seed: int, budget: int,
                    plots: dict[str, str] | None = None,
                    derivations: list[tuple[str, str]] | None = None) -> str:
    """The Markdown report; ``derivations``: the re-derivations' (title, text), computed
    here when not given (:func:`write_report` computes them once for both renderings)."""
    from theory.registry import get

    lines = ["# dpcheck report", "",
             f"dpcheck {__version__}, seed {seed}, search budget {budget} examples per step.",
             ""]
    lines += ["## Summary", "", "| paper | results | " + " | ".join(VERDICT_ORDER) + " |",
              "|---|---|" + "---|" * len(VERDICT_ORDER)]
    for paper, c in summary_by_paper(reports).items():
        lines.append(f"| {paper} | {sum(c.values())} | "
                     + " | ".join(str(c.get(v, 0)) for v in VERDICT_ORDER) + " |")
    lines.append("")
    for name, fname in (plots or {}).items():
        lines += [f"**{name}**", "", f"![{name}]({fname})", ""]
    lines += _findings_markdown(reports)
    lines += findings_markdown(reports)
    paper = None
    for rep in reports:
        result = get(rep.id)
        if rep.paper != paper:
            paper = rep.paper
            lines += [f"## {paper}", ""]
        lines += [f"### {rep.id} — {rep.title}", "", f"*{result.where}*", ""]
        if rep.variant_of:
            lines += [f"*A pinned variant of {rep.variant_of}: its verdicts are the "
                      "variant's claim, not the printed result's.*", ""]
        lines += [
                  f"verdict **{rep.verdict.value}**; statement "
                  f"**{rep.statement.verdict.value}** {rep.statement.detail}".rstrip(), ""]
        for h in result.hypotheses:
            lines.append(f"- hypothesis: `{h}`")
        for s in result.statement:
            lines.append(f"- statement {s.label}: `{sp.sstr(s.lhs)} {s.rel.value} "
                         f"{sp.sstr(s.rhs)}`")
        for bnd in result.bounds:
            lines.append(f"- bound {bnd.label}: `{bnd.describe()}`")
        for rate in result.rates:
            lines.append(f"- rate {rate.label}: `{rate.describe()}`")
        lines.append("")
        if rep.steps:
            lines += ["| step | eq | kind | from | verdict | method | witness / slack |",
                      "|---|---|---|---|---|---|---|"]
            for s in rep.steps:
                cells = [s.id, s.eq or "", s.kind, s.origin, s.verdict.value, s.method,
                         s.evidence().replace("|", "\\|")]
                lines.append("| " + " | ".join(cells) + " |")
            lines.append("")
    if derivations is None:
        derivations = _derivations_of(reports)
    for title, text in derivations:
        lines += [f"## {title}", "", "```", text, "```", ""]
    return "\n".join(lines)


# ----------------------------------------------------------------------------- html
_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em auto;
max-width:1100px;color:#222;line-height:1.4}
h1{border-bottom:2px solid #333} h2{margin-top:2em;border-bottom:1px solid #bbb}
table{border-collapse:collapse;margin:.5em 0;font-size:.9em}
td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top;text-align:left}
th{background:#f1f1f1} .v{font-weight:bold;color:#fff;padding:1px 5px;border-radius:3px}
.formula{margin:.3em 0 .3em 1em} .plain{display:block;color:#555;font-size:.85em}
.result{margin:1.2em 0;padding:.6em 1em;border-left:4px solid #ccc;background:#fafafa}
pre{background:#f5f5f5;padding:.8em;overflow-x:auto;font-size:.85em}
img{max-width:100%}
"""


def _badge(v: str) -> str:
    return (f'<span class="v" style="background:{VERDICT_COLOUR.get(v, "#777")}">'
            f'{html.escape(v)}</span>')


def render_html(reports, *, seed: int, budget: int, plots_png: dict[str, bytes],
                derivations: list[tuple[str, str]]) -> str:
    """The self-contained HTML report (``derivations``: the re-derivations' (title,
    text), :func:`_derivations_of`)."""
    from theory.registry import get

    e = html.escape
    parts = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
             "<title>dpcheck report</title>", f"<style>{_CSS}</style></head><body>",
             "<h1>dpcheck report</h1>",
             f"<p>dpcheck {e(__version__)}, seed {seed}, search budget {budget} examples "
             "per step.</p>", "<h2>Summary</h2>",
             "<table id='summary'><tr><th>paper</th><th>results</th>"
             + "".join(f"<th>{v}</th>" for v in VERDICT_ORDER) + "</tr>"]
    for paper, c in summary_by_paper(reports).items():
        parts.append(f"<tr><td>{e(paper)}</td><td>{sum(c.values())}</td>"
                     + "".join(f"<td>{c.get(v, 0)}</td>" for v in VERDICT_ORDER) + "</tr>")
    parts.append("</table>")
    from checks.verdict import FINDING_GROUPS, findings
    got = findings(reports)
    parts.append("<h2>Findings</h2>")
    for g in FINDING_GROUPS:
        parts.append(f"<h3 id='findings-{g}'>{e(FINDING_HEADS[g])} ({len(got[g])})</h3>")
        parts.append("<ul>" + "".join(f"<li>{e(_finding_text(f))}</li>" for f in got[g])
                     + "</ul>" if got[g] else "<p>none</p>")
    for name, png in plots_png.items():
        b64 = base64.b64encode(png).decode("ascii")
        # the caption heads its own plot (above it), so no plot sits under another's
        parts.append(f"<figure><figcaption><b>{e(name)}</b></figcaption>"
                     f"<img class='plot' alt='{e(name)}' "
                     f"src='data:image/png;base64,{b64}'></figure>")
    parts += findings_html(reports)
    paper = None
    for rep in reports:
        result = get(rep.id)
        if rep.paper != paper:
            paper = rep.paper
            parts.append(f"<h2>{e(paper)}</h2>")
        parts.append(f"<div class='result' id='{e(rep.id)}'><h3>{e(rep.id)} — "
                     f"{e(rep.title)}</h3><p><i>{e(result.where)}</i></p>"
                     + (f"<p><i>A pinned variant of {e(rep.variant_of)}: its verdicts are "
                        "the variant's claim, not the printed result's.</i></p>"
                        if rep.variant_of else "")
                     + f"<p>verdict {_badge(rep.verdict.value)} statement "
                     f"{_badge(rep.statement.verdict.value)} {e(rep.statement.detail)}</p>")
        if rep.statement.witness:
            parts.append(f"<p>statement witness: <code>{e(str(rep.statement.witness))}"
                         "</code></p>")
        if result.hypotheses:
            parts.append("<p>hypotheses:</p><ul>" + "".join(
                f"<li><code>{e(str(h))}</code>"
                f"{(' <small>(' + e(h.where) + ')</small>') if h.where else ''}</li>"
                for h in result.hypotheses) + "</ul>")
        for s in result.statement:
            parts.append(f"<p>statement <b>{e(s.label)}</b>:</p>"
                         + _formula_html(s.lhs, s.rel.value, s.rhs))
        for bnd in result.bounds:
            parts.append(f"<p>bound <b>{e(bnd.label)}</b>: {e(bnd.describe())}</p>"
                         + _formula_html(sp.Symbol("epsilon"), "=", bnd.expr))
        if rep.steps:
            parts.append("<table class='steps'><tr><th>step</th><th>eq</th><th>kind</th>"
                         "<th>from</th><th>verdict</th><th>method</th>"
                         "<th>witness / slack</th></tr>")
            for s in rep.steps:
                parts.append(f"<tr><td>{e(s.id)}</td><td>{e(s.eq or '')}</td>"
                             f"<td>{e(s.kind)}</td><td>{e(s.origin)}</td>"
                             f"<td>{_badge(s.verdict.value)}</td>"
                             f"<td>{e(s.method)}</td><td>{e(s.evidence())}</td></tr>")
            parts.append("</table>")
        parts.append("</div>")
    for title, text in derivations:
        parts.append(f"<h2>{e(title)}</h2><pre>{e(text)}</pre>")
    parts.append("</body></html>")
    return "\n".join(parts)


def check_report_dir(out_dir, *, force: bool = False) -> None:
    """Refuse a report folder that cannot or must not be written, before any work is done:
    an existing file, or a ``report.md``/``report.html``/``plot-K.png`` in it that dpcheck did
    not write (unless ``force``).  Raises :class:`checks.output.OutputError` (one line)."""
    from checks.output import OutputError, check_destination
    out = Path(out_dir).expanduser()
    if out.exists() and not out.is_dir():
        raise OutputError(f"cannot write report to {str(out_dir)!r}: it is a file; name a folder")
    if out.is_dir():
        for p in [out / "report.md", out / "report.html", *sorted(out.glob("plot-*.png"))]:
            check_destination(p, force=force)


def write_report(reports, out_dir, *, seed: int = 0, budget: int = 0,
                 force: bool = False) -> list[Path]:
    """Write ``report.md``, its PNG plots, and the self-contained ``report.html``.

    Returns the written paths.  Raises OSError when ``out_dir`` cannot be written.
    """
    if not isinstance(out_dir, (str, os.PathLike)) or str(out_dir) == "" or "\0" in str(out_dir):
        raise ValueError(f"out_dir must be a non-empty path without NUL bytes, got {out_dir!r}")
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise NotADirectoryError(20, "not a directory", str(out))
    out.mkdir(parents=True, exist_ok=True)
    plots_png = {VERDICT_CAPTION: verdict_plot_png(reports)}
    plots_png.update(ratio_plots_png(reports))
    written = []
    plot_files = {}
    for i, (name, png) in enumerate(plots_png.items()):
        fname = f"plot-{i + 1}.png"
        _atomic_write(out / fname, png, force=force)
        plot_files[name] = fname
        written.append(out / fname)
    # the re-derivations once for both renderings (SymPy solves: ~15 s of the report)
    derivations = _derivations_of(reports)
    _atomic_write(out / "report.md", render_markdown(reports, seed=seed, budget=budget,
                                                     plots=plot_files,
                                                     derivations=derivations), force=force)
    _atomic_write(out / "report.html", render_html(reports, seed=seed, budget=budget,
                                                   plots_png=plots_png,
                                                   derivations=derivations), force=force)
    return [out / "report.md", out / "report.html"] + written
