"""liang-icml: the ICML-format version of Liang et al.

``RESULTS`` = the privacy results (``privacy.py``) + the utility results (``utility.py``), sorted in paper order by :func:`theory.papers.liang.common.order_key`
(main-text sections by number, then appendices by letter; Table 1 sits in Sec. 1).
"""
from theory.model import Paper
from theory.papers.liang.common import sort_results
from theory.papers.liang.symbols import TABLE
from theory.papers.liang.utility import ROLES

PAPER = Paper(
    key='liang-icml',
    title='An Improved Privacy and Utility Analysis of Differentially Private SGD with Bounded Domain and Smooth Losses (ICML-format version)',
    file="Liang, Zhang, He, Wu, Xing; text rendering 000_44d8e3677abe08fa.txt",
    symbols=TABLE,
    roles=ROLES,
)

#: where numbered tables/figures appear (section numbers), for the paper-order sort
POSITIONS = {"tab-1": "1"}

from theory.papers.liang_icml import privacy, utility  # noqa: E402  (after PAPER)

RESULTS = sort_results([*privacy.RESULTS, *utility.RESULTS], POSITIONS)
