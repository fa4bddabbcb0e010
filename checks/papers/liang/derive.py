"""``dpcheck derive beta`` and ``dpcheck derive tradeoff``: the symbolic re-derivations of
Liang et al. (AAAI version: the optimal noise split β* of App. B.3, (52)–(54), and the
privacy-utility trade-offs of App. C.2/C.3), registered through the engine's plug-in point."""
from __future__ import annotations

from checks.plugins import derive_command


def _tradeoff_args(p) -> None:
    p.add_argument("--paper", default="liang-aaai",
                   help="which version's printed formulas to compare (default liang-aaai)")


@derive_command("beta", help="the optimal noise split β* and g(β*) of liang-aaai (52)–(54)",
                papers=("liang-aaai",))
def beta(args) -> str:
    from theory.papers.liang_aaai.derive import derive_beta
    return derive_beta().render(latex=getattr(args, "latex", False))


@derive_command("tradeoff", help="the privacy-utility trade-offs of liang-aaai App. C.2/C.3 "
                "(and the ICML corollaries)", papers=("liang-aaai", "liang-icml"),
                add_arguments=_tradeoff_args)
def tradeoff(args) -> str:
    from theory.papers.liang_aaai.tradeoff import derive_tradeoff
    return derive_tradeoff(paper=getattr(args, "paper", "liang-aaai")).render(
        latex=getattr(args, "latex", False))
