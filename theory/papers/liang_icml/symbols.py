"""The symbols of this version: both versions of Liang et al. share one table
(:mod:`theory.papers.liang.symbols`)."""
from theory.papers.liang.symbols import *  # noqa: F401,F403
from theory.papers.liang.symbols import TABLE  # noqa: F401
