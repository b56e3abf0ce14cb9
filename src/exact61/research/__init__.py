"""Exact 61 Five Up for research libraries: OpenSpiel, PettingZoo and Gymnasium.

Install with `pip install "exact61[research]"`. Each interface is its own module and is imported
on purpose (importing `exact61.research.openspiel` registers `python_exact61` with pyspiel;
importing `exact61.research.gymnasium` registers `Exact61-v0`). All of them play through
`exact61.core` and share one action space and one observation tensor (`encoding`).
"""
