"""Analysis: the match equity table, the exact late-round solver and post-game analysis.

`abstract`, `equity` and `solver` import only `exact61.core` (the expert bot builds on them);
`evaluate` and `report` also use the bots' sampler. Nothing is imported here, so importing one
module never pulls in the others.
"""
