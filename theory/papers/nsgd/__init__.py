"""nsgd: *Normalized/Clipped SGD with Perturbation for Differentially Private Non-Convex
Optimization* (DP-NSGD vs DP-SGD; text rendering ``004_a52a5530363ebbda.txt``).

``RESULTS`` in the paper's order: Sec. 1-2 (:mod:`.sec2`), Sec. 3 (:mod:`.sec3`, whose
theorems carry the proofs of App. C, D and E), App. A-B (:mod:`.appendix_ab`), App. C
(:mod:`.appendix_c`), App. D (:mod:`.appendix_d`), App. E (:mod:`.appendix_e`).  Each
module's docstring says which reading of the rendering it chose.  The paper has no
Lemma C.4 (App. C holds Lemmas C.1-C.3 and Remarks C.1-C.2).
"""
from theory.model import Paper
from theory.papers.nsgd.common import NOISE
from theory.papers.nsgd.symbols import TABLE

PAPER = Paper(
    key="nsgd",
    title="Normalized/Clipped SGD with Perturbation for Differentially Private Non-Convex "
          "Optimization",
    file="anonymous (under review); text rendering 004_a52a5530363ebbda.txt",
    symbols=TABLE,
    random=(NOISE,),
)

from theory.papers.nsgd import (appendix_ab, appendix_c, appendix_d, appendix_e,  # noqa: E402
                                sec2, sec3)

RESULTS = [*sec2.RESULTS, *sec3.RESULTS, *appendix_ab.RESULTS, *appendix_c.RESULTS,
           *appendix_d.RESULTS, *appendix_e.RESULTS]
