"""Independent oracle for the projected (DPSGD-DC) linear canary at T >= 2 (issue 16, item 4):
composite Gauss–Legendre (Nyström) evolution of the exact law of θ_t on K = [−D/2, D/2]
— the density on quadrature nodes of the open interval plus the two end atoms, every
step in log space (log-sum-exp over the nodes, log_ndtr for the atoms), so nothing is
floored — and D_α by the same quadrature.  Unlike the accountant it has no cells: the
sources are the quadrature nodes themselves, exact for the smooth densities of t >= 2.
It reproduces the mpmath T = 1 quadrature of test_accountant_certified to ~1e-14 and is
stable under doubling the nodes (checked below)."""
from checks.truth.reference_sgd import _gl, projected_law, projected_linear_rdp  # noqa: F401

# the oracle lives in checks.truth.reference_sgd (the accountant's benchmark uses it too)
projected_rdp = projected_linear_rdp


# ------------------------------------------------------------------------------ tests
import pytest  # noqa: E402

from checks.truth.accountant import AccountantError, certified_rdp, last_iterate_rdp
from checks.truth.losses import make  # noqa: E402


def test_oracle_matches_mpmath_at_T1_and_is_converged():
    from test_accountant_certified import _dc_t1_mpmath
    fw, bw = projected_rdp(100, 10, 0.1, 1.0, 1.0, 0.6, 1, 8.0)
    mf, mb = _dc_t1_mpmath(100, 10, 0.1, 1.0, 1.0, 0.6, 8)
    assert fw == pytest.approx(mf, rel=1e-10) and bw == pytest.approx(mb, rel=1e-10)
    a = projected_rdp(20, 10, 0.1, 1.0, 0.1, 1.0, 3, 64.0)
    b = projected_rdp(20, 10, 0.1, 1.0, 0.1, 1.0, 3, 64.0, per=32)
    assert a == pytest.approx(b, rel=1e-10)


def test_issue_case_T2():
    # the issue's `simulate exact --scenario linear-canary-dc --D 1 --alpha 8` case: the
    # old FFT grid said 1.708, the truth is 2.756
    truth = projected_rdp(100, 10, 0.1, 1.0, 0.1, 1.0, 2, 8.0)
    assert truth[0] == pytest.approx(2.7564, abs=1e-4)
    s = make("linear-canary-dc", n=100, b=10, eta=0.1, sigma_dp=0.1, D=1.0, T=2)
    r = last_iterate_rdp(s, 8.0, G=1024)
    assert abs(r.forward - truth[0]) <= r.error and abs(r.backward - truth[1]) <= r.error


CASES = [  # n, b, sigma_dp, D: q in {0.1, 0.5}; sigma_eff = b·sigma_dp/C in {1, 2, 5}
    (100, 10, 0.1, 1.0), (20, 10, 0.1, 1.0), (20, 10, 0.2, 0.6), (100, 10, 0.5, 2.0)]


@pytest.mark.parametrize("T", (2, 3))
@pytest.mark.parametrize("n,b,sd,D", CASES)
def test_projected_within_error_or_refused(n, b, sd, D, T):
    s = make("linear-canary-dc", n=n, b=b, eta=0.1, C=1.0, sigma_dp=sd, D=D, T=T)
    got = 0
    for a in (2.0, 8.0, 32.0, 64.0):
        fw, bw = projected_rdp(n, b, 0.1, 1.0, sd, D, T, a)
        try:
            r = certified_rdp(s, a, G=512)
        except AccountantError:
            continue
        got += 1
        assert abs(r.forward - fw) <= r.error, (a, r, fw)
        assert abs(r.backward - bw) <= r.error, (a, r, bw)
    assert got >= 1          # the certified path answers somewhere in every case
