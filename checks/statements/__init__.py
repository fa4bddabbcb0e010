"""The statement driver: every typed statement of a result (:class:`~theory.model.Bound`,
:class:`~theory.model.Rate`) checked against the truth of the registered providers
(DESIGN.md, *Statement checks*).

==============  ========================================================================
module          what it holds
==============  ========================================================================
``driver``      dispatch: which provider answers, the per-process memo, a result's
                statement verdict
``space``       the admissible space of a statement; points drawn in it; targets realised
``evaluator``   the truth at a point (one evaluator, one truth memo)
``search``      the targeted (Hypothesis) phase
``bounds``      explicit forms (search, confirmation at 50 digits) and O-forms (paths)
``outcome``     what a check found
==============  ========================================================================
"""
from checks.statements.driver import (bound_statements, check_result_statements,
                                      check_statement, supporting)
from checks.statements.outcome import Outcome
from checks.statements.space import Space, implicit_value, realise, seeded

__all__ = ["Outcome", "Space", "bound_statements", "check_result_statements", "check_statement",
           "implicit_value", "realise", "seeded", "supporting"]
