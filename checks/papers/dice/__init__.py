"""Evidence specific to DiceSGD (paper key ``dice``): the ``dpcheck derive dice-stepsize``
and ``dpcheck derive dice-privacy`` re-derivations (:mod:`.derive`)."""
from checks.papers.dice import derive  # noqa: F401  (registration)
