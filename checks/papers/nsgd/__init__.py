"""Evidence specific to the DP-NSGD vs DP-SGD paper (key ``nsgd``): the ``dpcheck derive
nsgd-stepsize`` and ``dpcheck derive nsgd-privacy`` re-derivations (:mod:`.derive`)."""
from checks.papers.nsgd import derive  # noqa: F401  (registration)
