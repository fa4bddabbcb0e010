"""Truth providers: exact or measured truth, generic over papers (DESIGN.md, *Truth providers*).

Each provider says which mechanisms and problem classes it ``supports()``; the statement
checker asks every provider and uses those that support a statement, else NOT-TESTED.
"""
