"""Evidence specific to the Hölder-smooth DP-SGD paper (key ``holder``): the stability
oracle of Theorem 7 (:mod:`.stability`: SGD run on neighbouring datasets of a member of
the class, every index sequence enumerated) and the ``dpcheck derive holder-rates``
re-derivation of the T and η choices (:mod:`.derive`)."""
from checks.papers.holder import derive, stability  # noqa: F401  (registration)
