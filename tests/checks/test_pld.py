"""checks.truth.pld: the vectorised inverse gives dp-accounting's own distributions."""
import numpy as np
import pytest

from dp_accounting.pld import privacy_loss_distribution as pld

from checks.truth import pld as vpld

CASES = [(0.764, 0.09, 1e-3), (1.0, 0.01, 1e-3), (3.0, 0.5, 1e-3), (0.5, 1.0, 1e-3),
         (5.0, 1e-3, 1e-4), (0.3, 0.2, 1e-2), (2.0, 0.99, 1e-3), (40.0, 0.3, 1e-3)]


def _pmfs(P):
    return [P._pmf_remove] + ([] if P._symmetric else [P._pmf_add])


@pytest.mark.parametrize("sigma,q,interval", CASES)
@pytest.mark.parametrize("pessimistic", [True, False])
def test_same_distribution_as_dp_accounting(sigma, q, interval, pessimistic):
    ours = vpld.gaussian_pld(sigma, q, pessimistic=pessimistic, interval=interval)
    lib = pld.from_gaussian_mechanism(sigma, sampling_prob=q, pessimistic_estimate=pessimistic,
                                      value_discretization_interval=interval,
                                      use_connect_dots=pessimistic)
    assert ours._symmetric == lib._symmetric
    eps = np.linspace(-2.0, 8.0, 41)
    for a, b in zip(_pmfs(ours), _pmfs(lib)):
        np.testing.assert_allclose(a.get_delta_for_epsilon(eps), b.get_delta_for_epsilon(eps),
                                   rtol=1e-12, atol=1e-300)
        if hasattr(b, "_probs"):        # dense: the same grid, the same masses
            assert a._lower_loss == b._lower_loss
            np.testing.assert_allclose(a._probs, b._probs, rtol=1e-12, atol=0)
        assert a._infinity_mass == pytest.approx(b._infinity_mass, rel=1e-12, abs=1e-300)


def test_composition_matches():
    ours = vpld.gaussian_pld(1.2, 0.05, pessimistic=True, interval=1e-3).self_compose(20)
    lib = pld.from_gaussian_mechanism(1.2, sampling_prob=0.05, value_discretization_interval=1e-3,
                                      use_connect_dots=True).self_compose(20)
    for eps in (0.1, 0.5, 1.0, 2.0):
        assert ours.get_delta_for_epsilon(eps) == pytest.approx(lib.get_delta_for_epsilon(eps),
                                                                rel=1e-12)


@pytest.mark.parametrize("adj", ["ADD", "REMOVE"])
@pytest.mark.parametrize("q", [0.01, 0.3, 1.0])
def test_inverse_array_equals_scalar_inverse(adj, q):
    from dp_accounting.pld import privacy_loss_mechanism as plm
    cls = vpld._vector_gaussian_class()
    loss = cls(0.9, sampling_prob=q, adjacency_type=getattr(plm.AdjacencyType, adj))
    tail = loss.privacy_loss_tail()
    top = loss.privacy_loss(tail.lower_x_truncation)
    bottom = loss.privacy_loss(tail.upper_x_truncation)
    grid = np.linspace(bottom, top, 2001)
    xs = loss.inverse_array(grid)
    for pl_value, x in zip(grid, xs):
        if np.isfinite(x):
            assert x == pytest.approx(loss.__class__.__mro__[1].inverse_privacy_loss(loss, pl_value),
                                      rel=1e-13, abs=1e-13)
    # at and beyond the edge of the inverse's domain the array inverse defers (NaN)
    if q < 1:
        edge = np.log1p(-q) if adj == "REMOVE" else -np.log1p(-q)
        beyond = edge - 1.0 if adj == "REMOVE" else edge + 1.0
        assert np.all(np.isnan(loss.inverse_array(np.array([edge, beyond]))))


def test_falls_back_to_dp_accounting_without_its_internals(monkeypatch):
    import types

    from dp_accounting.pld import privacy_loss_mechanism as plm
    calls = []

    def public(*args, **kwargs):
        calls.append(kwargs)
        return pld.from_gaussian_mechanism(*args, **kwargs)

    other_version = types.SimpleNamespace(from_gaussian_mechanism=public)
    monkeypatch.setattr(vpld, "_library", lambda: (other_version, plm))
    ours = vpld.gaussian_pld(1.0, 0.1, pessimistic=True, interval=1e-3)
    lib = pld.from_gaussian_mechanism(1.0, sampling_prob=0.1, value_discretization_interval=1e-3)
    assert calls and calls[0]["value_discretization_interval"] == 1e-3
    assert ours.get_delta_for_epsilon(1.0) == lib.get_delta_for_epsilon(1.0)


@pytest.mark.parametrize("q", [0.05, 1.0])
def test_composed_deltas_are_dp_accountings_both_pairs(q):
    lib = pld.from_gaussian_mechanism(1.2, sampling_prob=q, value_discretization_interval=1e-3,
                                      use_connect_dots=True).self_compose(20)
    rem, add = vpld.composed_deltas(1.2, q, 20, 1.0, pessimistic=True, interval=1e-3)
    assert rem == pytest.approx(lib._pmf_remove.get_delta_for_epsilon(1.0), rel=1e-12)
    other = lib._pmf_remove if lib._symmetric else lib._pmf_add
    assert add == pytest.approx(other.get_delta_for_epsilon(1.0), rel=1e-12)


@pytest.mark.parametrize("sigma,q,interval", [(0.8, 0.01, 1e-3), (2.5, 0.2, 1e-4),
                                              (1.0, 1.0, 1e-2), (40.0, 0.99, 0.025),
                                              (0.3, 1e-4, 1e-3)])
def test_privacy_buckets_at_once_equal_dp_accountings_walk_bit_for_bit(sigma, q, interval):
    """pld._privacy_buckets builds the optimistic buckets without dp-accounting's
    one-value-at-a-time walk; given the same inverse values (the grid remembered, as the
    walk used it before), the distribution must be the walk's, key for key and bit for
    bit, in both adjacency orders."""
    from dp_accounting.pld import privacy_loss_distribution as lib
    from dp_accounting.pld import privacy_loss_mechanism as plm
    from checks.truth import pld as P
    P.gaussian_pld(1.0, 0.5, pessimistic=False, interval=1e-2)       # builds the class
    for adj in (plm.AdjacencyType.REMOVE, plm.AdjacencyType.ADD):
        def loss():
            return P._CLASS(sigma, sensitivity=1, pessimistic_estimate=False,
                            log_mass_truncation_bound=-50, sampling_prob=q,
                            adjacency_type=adj)
        ours = P._privacy_buckets(loss(), interval)
        walked = loss()
        walked.remember_grid(interval)
        theirs = lib._create_pld_pmf_from_monotone_privacy_loss(
            walked, pessimistic_estimate=False, value_discretization_interval=interval,
            use_connect_dots=False)
        assert type(ours) is type(theirs)
        if hasattr(theirs, "_probs"):                  # dense
            assert ours._lower_loss == theirs._lower_loss
            assert np.array_equal(ours._probs, theirs._probs)
        else:                                          # sparse: the dictionary itself
            assert list(ours._loss_probs.items()) == list(theirs._loss_probs.items())
        assert ours._infinity_mass == theirs._infinity_mass
