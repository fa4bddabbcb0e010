"""holder: Wang, Lei, Ying, Zhang — *Differentially Private SGD with Non-Smooth Losses*
(text rendering ``003_ae9d1ed971b16d33.txt``): α-Hölder smooth convex losses, SGD with
output perturbation (Algorithm 1) and gradient perturbation (Algorithm 2).

``RESULTS`` lists every numbered definition, algorithm, lemma, theorem and remark in the
printed order (Sec. 2.1: :mod:`.prelim`; Sec. 2.2: :mod:`.main`; Sec. 3 and the appendix:
:mod:`.proofs`), each with its proof where the paper gives one.  The paper's names are
kept (:mod:`.symbols`): α the Hölder exponent, λ the Rényi order, β the budget split.
"""
from theory.model import Paper
from theory.papers.holder.symbols import TABLE

PAPER = Paper(
    key="holder",
    title="Differentially Private SGD with Non-Smooth Losses",
    file="Wang, Lei, Ying, Zhang; text rendering 003_ae9d1ed971b16d33.txt",
    symbols=TABLE,
)

from theory.papers.holder import main, prelim, proofs  # noqa: E402  (after PAPER)

RESULTS = [*prelim.RESULTS, *main.RESULTS, *proofs.RESULTS]
