"""Step oracles: PROBABILISTIC and CITED rows judged on real instances (DESIGN.md, *Step
oracles*).  A step names one (``Step(..., oracle="NAME", oracle_args={...})``); each module
here registers its oracles with :func:`checks.plugins.step_oracle`.

=====================  ===================================================================
module                 oracles
=====================  ===================================================================
``worst_case``         ``worst-case``: moment lines against the worst finitely supported law
                       (a linear programme)
``divergence_rows``    Rényi-divergence rows of one noisy clipped-gradient step, on exact
                       1-D instances, both orders
``bound_rows``         a privacy-loss row judged like a typed statement
``stability``          argument stability and iterate norms of SGD on neighbouring datasets
``exists``             "for every admissible value there is a ``var`` with …"
=====================  ===================================================================
"""
