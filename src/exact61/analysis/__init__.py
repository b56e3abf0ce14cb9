"""Analysis: the match equity table (`equity`, solved by `markov`) and the exact late-round
solver (`solver`, on the packed state of `abstract`).

Imports only `exact61.core`: the bots (the `equity` bot) and the post-game review
(`exact61.review`) build on it. Nothing is imported here, so importing one module never pulls
in the others.
"""
