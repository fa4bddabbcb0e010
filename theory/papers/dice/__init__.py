"""dice: Zhang, Bu, Wu, Hong — *Differentially Private SGD Without Clipping Bias: An
Error-Feedback Approach* (DiceSGD; text rendering 002_42ff4ce8f5a48016.txt).

``RESULTS`` in the paper's order: Sec. 2 (:mod:`.sec2`), Sec. 3 (:mod:`.sec3`), App. A
(:mod:`.appendix_a`), App. B-C (:mod:`.appendix_bc`).  Each module's docstring says which
reading of the rendering it chose where square roots or fraction bars were dropped.
``dice:thm-3.7+t1`` is not a repair: it is Theorem 3.7 specialised to T = 1, where the
exact privacy profile is computable.
"""
from theory.model import Paper
from theory.papers.dice.sec3 import SUM_A
from theory.papers.dice.symbols import TABLE, Delta0, g0

PAPER = Paper(
    key="dice",
    title="Differentially Private SGD Without Clipping Bias: An Error-Feedback Approach",
    file="Zhang, Bu, Wu, Hong; text rendering 002_42ff4ce8f5a48016.txt",
    symbols=TABLE,
    # the starting point x_0: f(x_0) − f⋆ and ‖∇f(x_0)‖ (the classes in force relate them,
    # L-smooth: ‖∇f(x_0)‖² ≤ 2L(f(x_0) − f⋆)); Σ_t A_t, the weights of (12)
    roles={"gap": Delta0, "grad_norm": g0},
    aggregates=(SUM_A,),
)

from theory.papers.dice import appendix_a, appendix_bc, sec2, sec3  # noqa: E402

RESULTS = [*sec2.RESULTS, *sec3.RESULTS, *appendix_a.RESULTS, *appendix_bc.RESULTS]
