"""holder: Wang, Lei, Ying, Zhang — *Differentially Private SGD with Non-Smooth Losses*
(text rendering ``003_ae9d1ed971b16d33.txt``): α-Hölder smooth convex losses, SGD with
output perturbation (Algorithm 1) and gradient perturbation (Algorithm 2).

``RESULTS`` lists every numbered definition, algorithm, lemma, theorem and remark in the
printed order (Sec. 2.1: :mod:`.prelim`; Sec. 2.2: :mod:`.main`; Sec. 3 and the appendix:
:mod:`.proofs`), each with its proof where the paper gives one.  The paper's names are
kept (:mod:`.symbols`): α the Hölder exponent, λ the Rényi order, β the budget split.
"""
import sympy as sp

from theory.model import Paper, Standing, asm
from theory.papers.holder.common import C_A1, C_A2, C_ALPHA_FULL
from theory.papers.holder.symbols import TABLE, C_a, L, c_a1, c_a2, eta, wstar
from theory.quantities import T

#: what Sec. 2.2.1 declares before Theorem 7 for everything that follows: the constants
#: c_{α,1} of (2), c_{α,2} and C_α (definitions: each constant *is* its formula), the SGD's
#: constant step η_t = η < min{1, 1/L} (Theorem 7, restated by every lemma of Sec. 3 the
#: later results rest on) and, "without loss of generality", η > 1/T; before Theorem 9,
#: "without loss of generality, we always assume ||w*|| ≥ 1"
STANDING = (
    Standing("constants", [asm(sp.Eq(c_a1, C_A1), "(2)"),
                           asm(sp.Eq(c_a2, C_A2), "Sec. 2.2.1, after (2)"),
                           asm(sp.Eq(C_a, C_ALPHA_FULL), "Sec. 2.2.1, after (2)")],
             where="Sec. 2.2.1, before Theorem 7", first="holder:thm-7"),
    Standing("step-size", [asm(sp.Lt(eta, 1), "η_t = η < min{1, 1/L} (Theorem 7)"),
                           asm(sp.Lt(eta, 1 / L), "η_t = η < min{1, 1/L} (Theorem 7)"),
                           asm(sp.Gt(eta, 1 / T), "w.l.o.g. η > 1/T (before Theorem 7)")],
             where="Sec. 2.2.1, before Theorem 7", first="holder:thm-7"),
    Standing("minimiser-norm", [asm(sp.Ge(wstar, 1), "w.l.o.g. ||w*|| ≥ 1 (before Theorem 9)")],
             where="Sec. 2.2.2, before Theorem 9", first="holder:thm-9"),
)

PAPER = Paper(
    key="holder",
    title="Differentially Private SGD with Non-Smooth Losses",
    file="Wang, Lei, Ying, Zhang; text rendering 003_ae9d1ed971b16d33.txt",
    symbols=TABLE,
    standing=STANDING,
)

from theory.papers.holder import main, prelim, proofs  # noqa: E402  (after PAPER)

RESULTS = [*prelim.RESULTS, *main.RESULTS, *proofs.RESULTS]
