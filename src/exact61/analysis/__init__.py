"""Post-game analysis, what `exact61 analyze` runs: each decision of a match valued by match
equity (`analyze`, with `exact61.search.evaluate`) and written for people (`report`).

Nothing is imported here, so importing one module never pulls in the others.
"""
