"""Evidence specific to the Hölder-smooth DP-SGD paper (key ``holder``): the ``dpcheck derive
holder-rates`` re-derivation of the T and η choices (:mod:`.derive`).  Its stability and
iterate-norm rows use the generic oracles of :mod:`checks.oracles.stability`, its rates the
generic provider of :mod:`checks.truth.rates_convex`."""
from checks.papers.holder import derive  # noqa: F401  (registration)
