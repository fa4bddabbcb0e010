"""Re-derivation of the privacy-utility trade-offs of ``liang-aaai`` Appendix C.2 (DPSGD-GC,
Proposition C.1, eqs. (80)–(93)) and C.3 (DPSGD-DC, Proposition C.3, eqs. (94)–(105)) as
a SymPy program: substitute σ_DP, convert RDP → (ϵ, δ)-DP, square, minimise over T, choose
C and η, collect the leading terms.

Every formula the paper prints is compared with the derived one: **MATCHES** when
derived/printed is a positive constant (Θ(·) comparisons; exactly 1 for the substitution
lines), **DIFFERS** otherwise, with the ratio shown.  Every chosen parameter is checked
against the theorem's own conditions — the step sizes (η ≤ 1/(9L) for Lemma 3.7,
η ≤ 9/(20L) for Theorem 3.10), σ_DP > 8C/(b√β) and α ≤ α*(b/n, b√β σ_DP/(2C)) for the
part (ii) bounds — as **OK**, **VIOLATES** (for every admissible value of the remaining
parameters, whatever the Θ-constant within the stated range) or **CONDITIONAL** (with the
condition under which it holds, Θ-constants 1), and the α* condition numerically at an
example point.

Conventions: O/Θ-constants are 1; α/ε = 2(1 + 2log(1/δ)/ϵ)/ϵ = Θ(log(1/δ)/ϵ²) under
ϵ ≤ 2log(1/δ) (C.2); ``lg`` = log(1/δ).  Pure SymPy, no ``checks`` import.

Usage: ``derive_tradeoff(paper="liang-aaai").render(latex=False)``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import sympy as sp

from theory.papers.liang.symbols import C, D, L, T, alpha, b, beta, d, epsilon, eta, mu, n, sigma_dp, sigma_sgd

lg = sp.Symbol("lg", positive=True)          # log(1/δ)
eps = sp.Symbol("epsilon_dp", positive=True)  # ϵ of (ϵ, δ)-DP
R = sp.Rational
sqrt = sp.sqrt
PAPERS = ("liang-aaai",)


@dataclass
class Item:
    """One printed formula and its re-derivation."""

    label: str          # equation number / short name as printed
    what: str
    printed: sp.Expr
    derived: sp.Expr
    exact: bool = False  # exact equality expected (substitution) rather than Θ(·)
    note: str = ""

    @property
    def ratio(self) -> sp.Expr:
        return sp.simplify(sp.powsimp(sp.expand_power_base(self.derived / self.printed, force=True),
                                      force=True))

    @property
    def status(self) -> str:
        r = self.ratio
        if self.exact:
            return "MATCHES" if sp.simplify(r - 1) == 0 else "DIFFERS"
        if r.is_number and r.is_positive:
            return "MATCHES"
        return "MATCHES" if _theta_sum(self.derived, self.printed) else "DIFFERS"


def _theta_sum(a: sp.Expr, b_: sp.Expr) -> bool:
    """Θ-equality of two sums of positive terms: each term of one is a positive constant
    times a term of the other (constants of an O(·) do not matter)."""
    ta, tb = sp.Add.make_args(sp.expand(a)), sp.Add.make_args(sp.expand(b_))

    def covered(xs, ys):
        for x in xs:
            if not any((lambda r: r.is_number and r.is_positive)(sp.simplify(x / y)) for y in ys):
                return False
        return True
    return covered(ta, tb) and covered(tb, ta)


@dataclass
class ParamCheck:
    """A chosen parameter against one of the theorem's conditions."""

    choice: str
    condition: str
    status: str          # OK | VIOLATES | CONDITIONAL
    detail: str


@dataclass
class TradeoffDerivation:
    paper: str
    items: list[Item] = field(default_factory=list)
    checks: list[ParamCheck] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def differs(self) -> list[Item]:
        return [i for i in self.items if i.status == "DIFFERS"]

    def violations(self) -> list[ParamCheck]:
        return [c for c in self.checks if c.status == "VIOLATES"]

    def render(self, latex: bool = False) -> str:
        fmt = sp.latex if latex else sp.sstr
        lines = [f"Trade-off re-derivation for {self.paper} (Appendix C.2, C.3)", ""]
        for it in self.items:
            lines.append(f"[{it.status}] ({it.label}) {it.what}")
            lines.append(f"    printed: {fmt(it.printed)}")
            lines.append(f"    derived: {fmt(it.derived)}")
            if it.status == "DIFFERS":
                lines.append(f"    derived/printed = {fmt(it.ratio)}")
            if it.note:
                lines.append(f"    note: {it.note}")
        lines += ["", "Chosen parameters against the theorem's conditions:"]
        for c in self.checks:
            lines.append(f"[{c.status}] {c.choice}  vs  {c.condition}: {c.detail}")
        if self.notes:
            lines += ["", "Notes:"] + [f"- {x}" for x in self.notes]
        n_d, n_v = len(self.differs()), len(self.violations())
        lines += ["", f"{len(self.items)} formulas: {len(self.items) - n_d} MATCHES, {n_d} DIFFERS; "
                      f"{len(self.checks)} parameter checks: {n_v} VIOLATES"]
        return "\n".join(lines)


# --------------------------------------------------------------------------------------
def _leading_alpha_over_eps() -> sp.Expr:
    """α/ε with α = 1 + 2lg/ϵ, ε = ϵ/2, to leading order under ϵ ≤ 2lg: Θ(lg/ϵ²)."""
    exact = (1 + 2 * lg / eps) / (eps / 2)
    lead = sp.limit(exact * eps ** 2 / lg, lg, sp.oo)   # = 4
    return lead * lg / eps ** 2


def _argmin_balance(a_term: sp.Expr, b_term: sp.Expr, var: sp.Symbol) -> sp.Expr:
    """The var > 0 where two power terms of opposite monotonicity are equal (Θ-minimiser)."""
    sol = [s for s in sp.solve(sp.Eq(a_term, b_term), var) if s.is_positive is not False]
    if not sol:
        raise ValueError(f"no positive balance point for {a_term} = {b_term}")
    return sp.simplify(sol[0])


def _eta_check(choice: str, value: sp.Expr, limit: sp.Expr, cond: str, assume=()) -> ParamCheck:
    ratio = sp.simplify(value / limit)
    if ratio.is_number:
        st = "OK" if ratio <= 1 else "VIOLATES"
        return ParamCheck(choice, cond, st, f"η/η_max = {sp.sstr(ratio)}")
    # VIOLATES when ratio ≥ 1 on the whole admissible range (b ≥ 1, L ≥ μ)
    lower = ratio.subs({b: 1}).subs({L: mu}) if ratio.has(b) or ratio.has(L) else None
    if lower is not None and lower.is_number and lower > 1 and all(
            sp.diff(ratio, s).is_nonnegative for s in (b,) if ratio.has(s)):
        return ParamCheck(choice, cond, "VIOLATES",
                          f"η/η_max = {sp.sstr(ratio)} ≥ {sp.sstr(lower)} > 1 for all b ≥ 1, L ≥ μ "
                          "(only a Θ-constant below 1/that ratio would rescue it)")
    return ParamCheck(choice, cond, "CONDITIONAL", f"holds iff {sp.sstr(ratio)} ≤ 1")


def _alpha_star_ok(alpha_v: float, q: float, sig: float) -> tuple[bool, str]:
    """Lemma A.13 (AAAI): q ≤ 1/5, σ > 4, α ≤ Kσ²/2 − 2logσ and the second condition."""
    if not (q <= 0.2 and sig > 4 and alpha_v > 1):
        return False, f"needs q ≤ 1/5, σ > 4, α > 1 (q = {q:.3g}, σ = {sig:.3g}, α = {alpha_v:.3g})"
    K = math.log(1 + 1 / (q * (alpha_v - 1)))
    c1 = K * sig ** 2 / 2 - 2 * math.log(sig)
    c2 = (K ** 2 * sig ** 2 / 2 - math.log(5) - 2 * math.log(sig)) / (K + math.log(q * alpha_v) + 1 / (2 * sig ** 2))
    ok = alpha_v <= c1 and alpha_v <= c2
    return ok, f"α = {alpha_v:.4g}, α*-bounds {c1:.4g}, {c2:.4g} (q = {q:.3g}, σ_SGM = {sig:.4g})"


# --------------------------------------------------------------------------------------
def _c2(out: TradeoffDerivation) -> None:
    """C.2: DPSGD-GC, Proposition C.1 (ii) → (93)."""
    sig2 = alpha * C ** 2 * T / (epsilon * n ** 2)                    # (ii): σ_DP² = O(αC²T/(εn²))
    t5, t6 = d * L * eta / C * sigma_dp ** 2, sqrt(d * L * eta) * sigma_dp   # Lemma 3.7's DP terms
    s5 = sp.simplify(t5.subs(sigma_dp, sqrt(sig2)))
    s6 = sp.simplify(t6.subs(sigma_dp, sqrt(sig2)))
    out.items += [
        Item("81", "Prop. C.1 (ii): fifth term after σ_DP² = αC²T/(εn²)", alpha * d * L * eta * C * T / (epsilon * n ** 2), s5, True),
        Item("81", "Prop. C.1 (ii): sixth term", sqrt(alpha * d * L * eta * T * C) / sqrt(epsilon * n), s6, True,
             "printed √(αdLηTC)/√(εn): C and n under the root"),
    ]
    a_e = _leading_alpha_over_eps()
    c5 = sp.simplify(s5.subs(alpha, a_e * epsilon))
    c6 = sp.simplify(s6.subs(alpha, a_e * epsilon))
    out.items += [
        Item("83", "after α = 1 + 2log(1/δ)/ϵ, ε = ϵ/2: fifth term", d * L * eta * C * T * lg / (eps ** 2 * n ** 2), c5),
        Item("83", "sixth term", sqrt(d * L * eta * T * lg * C) / (eps * n), c6, note="printed with C under the root"),
    ]
    # (84): squares; (85): minimise over T
    f = 1 / (eta ** 2 * C ** 2 * T ** 2) + 1 / (eta * T) + c5 ** 2 + c6 ** 2
    Tstar = _argmin_balance(1 / (eta ** 2 * C ** 2 * T ** 2), sp.expand(c5 ** 2), T)
    out.items += [
        Item("84", "squared fifth term", d ** 2 * L ** 2 * eta ** 2 * C ** 2 * T ** 2 * lg ** 2 / (eps ** 4 * n ** 4), sp.expand(c5 ** 2)),
        Item("84", "squared sixth term", d * L * eta * T * lg * C ** 2 / (eps ** 2 * n ** 2), sp.expand(c6 ** 2),
             note="matches the square of the *derived* (83) sixth term, not of the printed one"),
        Item("85", "T minimising (84)", sqrt(1 / (d * L * lg)) * eps * n / (eta * C), Tstar),
    ]
    val = sp.simplify(f.subs(T, Tstar))
    out.items.append(Item("85", "T-dependent terms at T*", C * sqrt(d * L * lg) / (eps * n) + d * L * lg / (eps ** 2 * n ** 2),
                          val, note="Θ-comparison of sums: both terms appear with constant factors 2"))
    # case (1): C and η
    X = d * L * lg / (eps ** 2 * n ** 2)
    C1, eta1 = sqrt(d * L * lg) / (eps * n), b / L
    out.items += [
        Item("87", "case (1) rate with C = √(dL log(1/δ))/(ϵn), η = b/L",
             X, sp.simplify((C * sqrt(d * L * lg) / (eps * n)).subs(C, C1))),
        Item("88", "case (1) T", eps ** 2 * n ** 2 / (b * d * lg), sp.simplify(Tstar.subs({C: C1, eta: eta1}))),
    ]
    out.checks.append(_eta_check("η = Θ(b/L) (C.2 case (1))", eta1, 1 / (9 * L), "Lemma 3.7: η ≤ 1/(9L)"))
    # case (2): g(C) = C√(dLlg)/(ϵn) + σ⁴/C²
    g = C * sqrt(d * L * lg) / (eps * n) + sigma_sgd ** 4 / C ** 2
    C2 = sp.simplify([s for s in sp.solve(sp.diff(g, C), C) if s.is_positive is not False][0])
    out.items += [
        Item("C.2 case (2)", "C solving g'(C) = 0",
             sigma_sgd ** R(4, 3) * eps ** R(1, 3) * n ** R(1, 3) / (d * L * lg) ** R(1, 6), C2),
        Item("90", "case (2) rate g(C*)", sigma_sgd ** R(4, 3) * X ** R(1, 3), sp.simplify(g.subs(C, C2))),
    ]
    eta2 = sp.simplify(sp.solve(sp.Eq(eta * L * sigma_sgd ** 2 / b, sigma_sgd ** R(4, 3) * X ** R(1, 3)), eta)[0])
    out.items += [
        Item("91", "case (2) η (ηLσ²/b equal to the rate)", b / (L * sigma_sgd ** R(2, 3)) * X ** R(1, 3), eta2),
        Item("92", "case (2) T", eps ** R(4, 3) * n ** R(4, 3) * L / (b * (d * L * lg) ** R(2, 3) * sigma_sgd ** R(2, 3)),
             sp.simplify(Tstar.subs({C: C2, eta: eta2}))),
    ]
    out.checks.append(_eta_check("η of (91)", eta2, 1 / (9 * L), "Lemma 3.7: η ≤ 1/(9L)"))
    # σ_DP > 8C/(b√β) at the case (1) choices (leading order, constants 1)
    sdp = sqrt(sig2.subs(alpha, a_e * epsilon)).subs({T: Tstar}).subs({C: C1, eta: eta1})
    ratio = sp.simplify(sdp / (8 * C1 / (b * sqrt(beta))))
    out.checks.append(ParamCheck("σ_DP² = αC²T/(εn²) at the case (1) choices", "σ_DP > 8C/(b√β)",
                                 "CONDITIONAL", f"σ_DP/(8C/(b√β)) = {sp.sstr(ratio)} must exceed 1, i.e. "
                                 f"{sp.sstr(sp.solve(ratio - 1, beta)[0])} < β: fails whenever the batch "
                                 "is small against the dimension d"))
    # α ≤ α* at an example point
    ex = dict(n=10 ** 4, b=100, d=10, eps=1.0, delta=1e-5, beta=0.5)
    lgv = math.log(1 / ex["delta"])
    alpha_v = 1 + 2 * lgv / ex["eps"]
    Tv = ex["eps"] ** 2 * ex["n"] ** 2 / (ex["b"] * ex["d"] * lgv)
    sig_sgm = ex["b"] * math.sqrt(ex["beta"]) / 2 * math.sqrt(alpha_v * Tv / (ex["eps"] / 2)) / ex["n"]
    ok, det = _alpha_star_ok(alpha_v, ex["b"] / ex["n"], sig_sgm)
    out.checks.append(ParamCheck(f"α = 1 + 2log(1/δ)/ϵ with T of (88), example point {ex}",
                                 "α ≤ α*(b/n, b√β σ_DP/(2C))", "OK" if ok else "VIOLATES", det))


def _c3(out: TradeoffDerivation) -> None:
    """C.3: DPSGD-DC, Proposition C.3 (ii) → (105)."""
    Tbp = (1 + eta * L) ** 2 * n ** 2 * D ** 2 / (eta ** 2 * C ** 2)
    m = sp.Symbol("m_T", positive=True)             # min{T, T̄'}
    sig2 = alpha * C ** 2 / (epsilon * n ** 2) * m
    t5, t6 = d * eta * sigma_dp ** 2 * sqrt(L) / C, sqrt(d * eta) * sigma_dp
    s5 = sp.simplify(t5.subs(sigma_dp, sqrt(sig2)))
    s6 = sp.simplify(t6.subs(sigma_dp, sqrt(sig2)))
    out.items += [
        Item("95", "Prop. C.3 (ii): fifth term after σ_DP² = αC² min{T, T̄'}/(εn²)",
             alpha * d * eta * C * sqrt(L) / (epsilon * n ** 2) * m, s5, True),
        Item("95", "Prop. C.3 (ii): sixth term", sqrt(alpha * d * eta / epsilon * m * C / n), s6, True,
             "printed √((αdη/ϵ) min{T, T̄'} C/n): C/n under the root"),
    ]
    a_e = _leading_alpha_over_eps()
    q5 = sp.expand(sp.simplify(s5.subs(alpha, a_e * epsilon)) ** 2)
    q6 = sp.expand(sp.simplify(s6.subs(alpha, a_e * epsilon)) ** 2)
    out.items += [
        Item("97", "squared fifth term after conversion", d ** 2 * L * eta ** 2 * C ** 2 * lg ** 2 / (eps ** 4 * n ** 4) * m ** 2, q5),
        Item("97", "squared sixth term after conversion", d * eta * lg * C ** 2 / (eps ** 2 * n ** 2) * m, q6,
             note="matches the derived substitution, not the printed (95)/(96)"),
    ]
    out.notes.append("C.3 states the cases as T ≤ T̄ / T ≥ T̄ but the bound (97) involves "
                     "T̄' = (1+ηL)²n²D²/(η²C²) (part (ii)); T̄ = (1+ηL)²nbD²/(η²C²) belongs to part (i).")
    # case (1): T ≤ T̄'
    A2 = L ** R(3, 2) / mu ** R(5, 2) * sigma_sgd ** 2
    Tstar = _argmin_balance(L * D ** 4 / (eta ** 2 * C ** 2 * T ** 2), q5.subs(m, T), T)
    f1 = L * D ** 4 / (eta ** 2 * C ** 2 * T ** 2) + D ** 2 / (eta * T) + q5.subs(m, T) + q6.subs(m, T)
    out.items += [
        Item("C.3 case (1)", "T minimising (97)", eps * n * D / (eta * C) * sqrt(1 / (d * lg)), Tstar),
        Item("98", "T-dependent terms at T*", C * D * sqrt(d * lg) / (eps * n) + D ** 2 * d * L * lg / (eps ** 2 * n ** 2),
             sp.simplify(f1.subs(T, Tstar))),
    ]
    Y = D ** 2 * d * L * lg / (eps ** 2 * n ** 2)
    C11, eta11 = D * L * sqrt(d * lg) / (eps * n), b * L ** R(3, 2) / mu ** R(5, 2)
    out.items += [
        Item("99", "case (1.1) rate", Y, sp.simplify((C * D * sqrt(d * lg) / (eps * n)).subs(C, C11))),
        Item("100", "case (1.1) T", eps ** 2 * n ** 2 * mu ** R(5, 2) / (b * L ** R(3, 2) * lg),
             sp.simplify(Tstar.subs({C: C11, eta: eta11})), note="printed T is not dimensionless"),
    ]
    out.checks.append(_eta_check("η = Θ(bL^{3/2}/μ^{5/2}) (C.3 case (1.1))", eta11, R(9, 20) / L,
                                 "Theorem 3.10: η ≤ 9/(20L)"))
    # case (1.2): g(C) = CD√(d lg)/(ϵn) + σ³/(μC)
    g = C * D * sqrt(d * lg) / (eps * n) + sigma_sgd ** 3 / (mu * C)
    C12 = sp.simplify([s for s in sp.solve(sp.diff(g, C), C) if s.is_positive is not False][0])
    rate12 = sp.simplify(g.subs(C, C12))
    eta12 = sp.simplify(sp.solve(sp.Eq(eta * sigma_sgd ** 2 / b, rate12), eta)[0])
    out.items += [
        Item("C.3 case (1.2)", "C minimising CD√(d log(1/δ))/(ϵn) + σ³/(μC)",
             sigma_sgd ** R(3, 2) * eps ** R(1, 2) * n ** R(1, 2) / (mu ** R(1, 2) * D ** R(1, 2) * (d * L * lg) ** R(1, 4)), C12),
        Item("101", "case (1.2) rate", sigma_sgd ** R(3, 2) * D ** R(1, 2) / mu ** R(1, 2) * (d * L * lg / (eps ** 2 * n ** 2)) ** R(1, 4),
             rate12),
        Item("C.3 case (1.2)", "η (ησ²/b equal to the rate)",
             b * D ** R(1, 2) / (mu ** R(1, 2) * sigma_sgd ** R(1, 2)) * (d * L * lg / (eps ** 2 * n ** 2)) ** R(1, 3), eta12),
        Item("102", "case (1.2) T", eps ** R(7, 6) * n ** R(7, 6) * mu * D / (b * (d * L * lg) ** R(2, 3) * sigma_sgd),
             sp.simplify(Tstar.subs({C: C12, eta: eta12}))),
    ]
    out.checks.append(_eta_check("η of case (1.2)", eta12, R(9, 20) / L, "Theorem 3.10: η ≤ 9/(20L)"))
    # case (2): T ≥ T̄'
    out.items += [
        Item("103", "fifth term at min{T, T̄'} = T̄'",
             d ** 2 * L * (1 + eta * L) ** 4 * D ** 4 * lg ** 2 / (eta ** 2 * C ** 2 * eps ** 4), sp.simplify(q5.subs(m, Tbp))),
        Item("103", "sixth term at T̄'", d * (1 + eta * L) ** 2 * D ** 2 * lg / (eta * eps ** 2), sp.simplify(q6.subs(m, Tbp))),
    ]
    h = eta * sigma_sgd ** 2 / b + d * D ** 2 * lg / (eta * eps ** 2)     # (1 + ηL)² = Θ(1), C, T → ∞
    eta2 = _argmin_balance(eta * sigma_sgd ** 2 / b, d * D ** 2 * lg / (eta * eps ** 2), eta)
    out.items += [
        Item("C.3 case (2)", "η balancing ησ²/b and d(1+ηL)²D²log(1/δ)/(ηϵ²)", D * sqrt(b * d * lg) / (eps * sigma_sgd), eta2),
        Item("104", "case (2) rate", sigma_sgd * D * sqrt(d * lg) / sqrt(b * eps), sp.simplify(h.subs(eta, eta2)),
             note="(104)/(105) print √(bϵ); (19) in Section 3.2 prints √b·ϵ"),
        Item("19", "case (2) rate as printed in Section 3.2", sigma_sgd * D * sqrt(d * lg) / (sqrt(b) * eps),
             sp.simplify(h.subs(eta, eta2))),
    ]
    out.checks.append(_eta_check("η = Θ(D√(bd log(1/δ))/(ϵσ_SGD)) (C.3 case (2))", eta2, R(9, 20) / L,
                                 "Theorem 3.10: η ≤ 9/(20L) (and (1+ηL)² = Θ(1) is assumed)"))


def derive_tradeoff(paper: str = "liang-aaai") -> TradeoffDerivation:
    """Redo C.2 and C.3 of ``paper`` (only ``liang-aaai`` prints them)."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {PAPERS} (the ICML version prints no C.2/C.3 "
                         f"derivation), got {paper!r}")
    out = TradeoffDerivation(paper)
    _c2(out)
    _c3(out)
    return out


if __name__ == "__main__":  # pragma: no cover
    print(derive_tradeoff().render())
