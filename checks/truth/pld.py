"""Privacy-loss distributions of the subsampled Gaussian mechanism, through dp-accounting.

:func:`gaussian_pld` returns what ``dp_accounting.pld.privacy_loss_distribution.
from_gaussian_mechanism`` returns (add/remove adjacency, Poisson sampling), built by
dp-accounting's own constructors: its privacy-bucket and connect-the-dots discretisations,
its tails, its truncation.  Only one thing is different.  dp-accounting inverts the
privacy loss one grid value at a time, in Python — about 10⁶ calls for a privacy loss
spread over 50 nats at an interval of 1e-4, which took 1.5 s per distribution.  Here the
inverse is evaluated for all the grid values at once, with the same formula in numpy:

* connect-the-dots asks ``get_delta_for_epsilon`` for an array of ε; the array is
  inverted in one call (the method is dp-accounting's, with its list comprehension
  replaced by that call);
* privacy buckets walk the grid down one value at a time; the values the walk will ask
  for are known in advance (``interval × k`` for integers k from the loss at the lower
  truncation down to the loss at the upper one), so they are inverted in one call first
  and the walk reads them back.  A value outside that table, or on a boundary of the
  inverse's domain, goes to dp-accounting's own scalar inverse.

The vectorised inverse performs the library's operations in the library's order, so the
two agree to the last bit or within an ulp; ``tests/checks/test_pld.py`` compares the
distributions against dp-accounting's at many parameters.  If dp-accounting's internals
are not the ones this module was written against (another version), it falls back to
``from_gaussian_mechanism``: slower, the same numbers.
"""
from __future__ import annotations

import math

import numpy as np

#: the privacy-loss discretisation of a composed sampled Gaussian's profile (δ within ~10⁻³
#: relative of the limit for the noise multipliers of typical claims, ≥ 0.5)
PLD_INTERVAL = 1e-4
#: the coarser discretisation where small noise multipliers are common (the error-feedback
#: trajectory's SGM(q, bσ/s) with s up to the largest admitted slope): a privacy loss spread
#: over ~1/z² costs 1/z² more buckets at a given interval; the enclosure stays certified
PLD_INTERVAL_SMALL_NOISE = 1e-3
#: the coarse discretisation tried first where only δ ≤ ``enough`` is asked (connect-the-dots
#: stays within ~1e-3 relative of its 1e-4 value there; the optimistic buckets' lower end is
#: far looser, but certified)
PLD_INTERVAL_COARSE = 1e-2


def _library():
    # lazy: dp-accounting (a second to import) only where a PLD is built
    from dp_accounting.pld import privacy_loss_distribution as pld
    from dp_accounting.pld import privacy_loss_mechanism as plm  # lazy: dp-accounting
    return pld, plm


def _vector_gaussian_class():
    pld, plm = _library()
    Adj = plm.AdjacencyType

    class VectorGaussianPrivacyLoss(plm.GaussianPrivacyLoss):
        """dp-accounting's Gaussian privacy loss with an inverse that takes arrays."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._table: dict[float, float] = {}

        # ---- the inverse, for an array of privacy losses
        def inverse_array(self, losses: np.ndarray) -> np.ndarray:
            """The inverse at every entry of ``losses`` (NaN where the library's scalar
            inverse takes a special branch: a boundary of the domain, or out of it)."""
            pl = np.asarray(losses, dtype=float)
            q, s = self.sampling_prob, self.sensitivity
            var = self._standard_deviation ** 2
            if self.adjacency_type == Adj.REMOVE:
                b = pl
                edge = math.log(1 - q) if q < 1 else -math.inf
            elif self.adjacency_type == Adj.ADD:
                b = -pl
                edge = -math.log(1 - q) if q < 1 else math.inf
            else:
                return np.full(pl.shape, np.nan)
            if q == 1.0:
                wo = b if self.adjacency_type == Adj.REMOVE else -b
            else:
                # common.log_a_times_exp_b_plus_c(1/q, b, 1 - 1/q), a > 0 > c:
                # _log_sub(b + log(a), log(-c)); b == 0 gives log(a + c)
                a, c = 1 / q, 1 - 1 / q
                with np.errstate(all="ignore"):
                    d = b + np.log(a)
                    lc = np.log(-c)
                    w = d + np.log1p(-np.exp(lc - d))
                    w = np.where(b == 0, np.log(a + c), w)
                    bad = ~(lc < d) & (b != 0)
                w = np.where(bad, np.nan, w)
                wo = w if self.adjacency_type == Adj.REMOVE else -w
            x = -0.5 * s - wo * var / s          # _inverse_privacy_loss_without_subsampling_remove
            if self.adjacency_type == Adj.ADD:
                x = s + x                          # ..._add = sensitivity + ..._remove
            if q < 1:
                near = np.isclose(pl, edge, rtol=1e-9, atol=0.0)
                outside = pl <= edge if self.adjacency_type == Adj.REMOVE else pl > edge
                x = np.where(near | outside | ~np.isfinite(pl), np.nan, x)
            return x

        def inverse_privacy_loss(self, privacy_loss):
            x = self._table.get(privacy_loss)
            if x is not None:
                return x
            return super().inverse_privacy_loss(privacy_loss)

        def remember_grid(self, interval: float) -> None:
            """Invert, at once, the grid values the privacy-bucket walk will ask for."""
            tail = self.privacy_loss_tail()
            top = math.floor(self.privacy_loss(tail.lower_x_truncation) / interval)
            bottom = self.privacy_loss(tail.upper_x_truncation)
            if not (math.isfinite(bottom) and top * interval > bottom):
                return
            k = np.arange(top, math.floor(bottom / interval) - 1, -1, dtype=np.int64)
            losses = interval * k.astype(float)    # the walk's value_discretization_interval * k
            xs = self.inverse_array(losses)
            ok = np.isfinite(xs)
            self._table = dict(zip(losses[ok].tolist(), xs[ok].tolist()))

        # ---- dp-accounting's get_delta_for_epsilon with the inverse taken at once
        def get_delta_for_epsilon(self, epsilon):
            import numbers  # lazy: inside a subclass built on first use
            if isinstance(epsilon, numbers.Number):
                return super().get_delta_for_epsilon(epsilon)
            epsilons = np.asarray(epsilon)
            deltas = np.zeros_like(epsilons, dtype=float)
            if self.sampling_prob == 1.0 or self.adjacency_type == Adj.REPLACE:
                inverse_indices = np.full_like(epsilons, True, dtype=bool)
            elif self.adjacency_type == Adj.ADD:
                inverse_indices = epsilons < -math.log1p(-self.sampling_prob)
            elif self.adjacency_type == Adj.REMOVE:
                inverse_indices = epsilons > math.log1p(-self.sampling_prob)
                other_indices = np.logical_not(inverse_indices)
                deltas[other_indices] = -np.expm1(epsilons[other_indices])
            else:
                return super().get_delta_for_epsilon(epsilon)
            wanted = epsilons[inverse_indices]
            x_cutoffs = self.inverse_array(wanted)
            for i in np.flatnonzero(~np.isfinite(x_cutoffs)):
                x_cutoffs[i] = super().inverse_privacy_loss(float(wanted[i]))
            deltas[inverse_indices] = (
                self.mu_upper_cdf(x_cutoffs) -
                np.exp(epsilons[inverse_indices] + self.mu_lower_log_cdf(x_cutoffs)))
            return np.clip(deltas, 0, 1)

    return VectorGaussianPrivacyLoss


_CLASS = None


def gaussian_pld(sigma: float, q: float, *, pessimistic: bool, interval: float):
    """dp-accounting's PLD of the Poisson-subsampled Gaussian (sensitivity 1, noise σ,
    add/remove adjacency): pessimistic connect-the-dots or optimistic privacy buckets,
    exactly as ``from_gaussian_mechanism(sigma, sampling_prob=q, pessimistic_estimate=
    pessimistic, value_discretization_interval=interval, use_connect_dots=pessimistic)``."""
    global _CLASS
    pld, plm = _library()
    create = getattr(pld, "_create_pld_pmf_from_monotone_privacy_loss", None)
    per_adjacency = getattr(pld, "_pld_for_subsampled_mechanism", None)
    if create is None or per_adjacency is None:
        return pld.from_gaussian_mechanism(sigma, sampling_prob=q,
                                           pessimistic_estimate=pessimistic,
                                           value_discretization_interval=interval,
                                           use_connect_dots=pessimistic)
    if _CLASS is None:
        _CLASS = _vector_gaussian_class()

    def single(adjacency_type):
        loss = _CLASS(sigma, sensitivity=1, pessimistic_estimate=pessimistic,
                      log_mass_truncation_bound=-50, sampling_prob=q,
                      adjacency_type=adjacency_type)
        if not pessimistic:
            got = _privacy_buckets(loss, interval)
            if got is not None:
                return got
            loss.remember_grid(interval)
        return create(loss, pessimistic_estimate=pessimistic,
                      value_discretization_interval=interval, use_connect_dots=pessimistic)

    return per_adjacency(single, q)


def _privacy_buckets(loss, interval: float):
    """dp-accounting's optimistic privacy buckets of a continuous privacy loss
    (``_create_pld_pmf_from_monotone_privacy_loss(loss, pessimistic_estimate=False,
    value_discretization_interval=interval)``), its walk down the grid done at once: the
    walk visits the grid values ``interval × k`` for k from the loss at the lower
    truncation down, takes ``x = upper truncation`` once the value is at or below the loss
    there and the inverse otherwise, and stops after the first x that is not below the
    upper truncation.  Here every candidate value is inverted in one call (the scalar
    inverse where the array one declines), the stop is found, and the masses are added
    into the dictionary in the walk's order — the same dictionary, key for key and bit
    for bit.  None where the walk's ends are not finite (the caller then runs
    dp-accounting's own walk)."""
    pld, plm = _library()
    tail = loss.privacy_loss_tail()
    lower_x, upper_x = tail.lower_x_truncation, tail.upper_x_truncation
    top_loss, upper_loss = loss.privacy_loss(lower_x), loss.privacy_loss(upper_x)
    if not all(math.isfinite(v) for v in (lower_x, upper_x, top_loss, upper_loss)):
        return None
    pmf: dict = {}
    infinity_mass = tail.tail_probability_mass_function.get(math.inf, 0)
    for pl_value in tail.tail_probability_mass_function:
        if pl_value != math.inf:
            key = math.floor(pl_value / interval)
            pmf[key] = pmf.get(key, 0) + tail.tail_probability_mass_function[pl_value]
    top = math.floor(top_loss / interval)
    xs = [lower_x]
    rounded: list[int] = []
    if lower_x < upper_x:
        # k from top down to one below the first k whose value is at or below upper_loss
        ks = np.arange(top, min(top, math.floor(upper_loss / interval) - 1) - 1, -1,
                       dtype=np.int64)
        losses = interval * ks.astype(float)     # the walk's interval * rounded_down_value
        at_upper = losses <= upper_loss
        inv = loss.inverse_array(losses)
        for i in np.flatnonzero(~at_upper & ~np.isfinite(inv)):
            inv[i] = plm.GaussianPrivacyLoss.inverse_privacy_loss(loss, float(losses[i]))
        cand = np.where(at_upper, upper_x, inv)
        stop = np.flatnonzero(~(cand < upper_x))
        if not stop.size:
            return None
        m = int(stop[0])
        xs += cand[:m + 1].tolist()
        rounded = ks[:m + 1].tolist()            # the walk's floor(k + 0.5) = k
    cdf_values = loss.mu_upper_cdf(xs)
    probability_mass = cdf_values[1:] - cdf_values[:-1]
    # the walk's keys are distinct: each is new (0 + mass) or a tail key (tail + mass),
    # added in the walk's order after the tail's
    walk = dict(zip(rounded, probability_mass.tolist()))
    for key in [k for k in pmf if k in walk]:
        pmf[key] = pmf[key] + walk.pop(key)
    pmf.update(walk)
    return pld.pld_pmf.create_pmf(pmf, interval, infinity_mass,
                                  pessimistic_estimate=False)


def composed_deltas(sigma: float, q: float, count: int, eps: float, *, pessimistic: bool,
                    interval: float) -> tuple[float, float]:
    """(δ remove, δ add) at ``eps`` of ``count`` compositions of :func:`gaussian_pld`, in
    dp-accounting's names of the pair (its REMOVE = the law with the example against the
    law without it); one value twice when the distribution is symmetric (q = 1)."""
    P = gaussian_pld(sigma, q, pessimistic=pessimistic, interval=interval)
    if count > 1:
        P = P.self_compose(count)
    rem = float(P._pmf_remove.get_delta_for_epsilon(eps))
    add = rem if P._symmetric else float(P._pmf_add.get_delta_for_epsilon(eps))
    return rem, add
