"""Evidence specific to one paper: one package per paper (or per family of versions),
registering its step oracles, figures and derive commands through :mod:`checks.plugins`.

This is the only part of ``checks`` that may import ``theory.papers`` or name a paper.
"""
