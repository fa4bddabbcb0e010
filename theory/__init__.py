"""What the papers CLAIM: pure SymPy declarations, no numerics, no I/O.

``theory.get(id)`` returns one encoded result; ``theory.all_results()`` all of them
in paper order. ``theory`` never imports ``checks``.
"""
from theory.registry import all_results, get, papers, results_of, step_ids

__all__ = ["all_results", "get", "papers", "results_of", "step_ids"]
