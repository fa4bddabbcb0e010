"""liang-icml: the ICML-format version of Liang et al.

``RESULTS`` = the privacy results (``privacy.py``) + the utility results (``utility.py``,
when present), sorted in paper order by :func:`theory.papers.liang_common.order_key`
(main-text sections by number, then appendices by letter; Table 1 sits in Sec. 1).
"""
from theory.papers.liang_common import merged_results

#: where numbered tables/figures appear (section numbers), for the paper-order sort
POSITIONS = {"tab-1": "1"}

RESULTS = merged_results("theory.papers.liang_icml.privacy", "theory.papers.liang_icml.utility",
                         POSITIONS)
