"""Evidence specific to DiceSGD (paper key ``dice``): the ``dpcheck derive dice-stepsize``
and ``dpcheck derive dice-privacy`` re-derivations (:mod:`.derive`), and the step oracle
``error-buffer-shift`` for Lemma A.6 (:mod:`.oracles`)."""
from checks.papers.dice import derive, oracles  # noqa: F401  (registration)
