"""The project's own papers, one package per paper key, each exposing ``PAPER`` and
``RESULTS`` (see :mod:`theory.registry`).  ``liang`` holds what the two versions of
Liang et al. share; it is not a paper itself.

:data:`BUILTIN` fixes the order in which ``dpcheck verify`` reports the built-in papers
(any other package here that exposes ``PAPER`` follows, alphabetically).
"""
BUILTIN = ("liang_icml", "liang_aaai", "dice", "holder", "nsgd")
