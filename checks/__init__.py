"""Whether the claims HOLD: symbolic proofs, numeric search, divergences, simulation.

``checks`` reads ``theory`` as data; ``theory`` never imports ``checks``.
"""
__version__ = "0.1.0"
