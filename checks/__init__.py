"""Whether the claims HOLD: symbolic proofs, numeric search, divergences, simulation.

``checks`` reads ``theory`` as data; ``theory`` never imports ``checks``.
"""
__version__ = "0.1.0"

#: search examples per step and random seed of a run (``dpcheck verify --budget/--seed``)
DEFAULT_BUDGET = 2000
DEFAULT_SEED = 0
