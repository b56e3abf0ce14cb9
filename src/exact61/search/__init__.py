"""Search on the rules engine: the match equity table (`equity`, solved by `markov`), the exact
late-round solver (`solver`), deals sampled consistently with a seat's view (`sampler`) and each
move's value from what a seat may know (`evaluate`).

Imports only `exact61.core`: the bots and the post-game analysis (`exact61.analysis`) build on
it. Nothing is imported here, so importing one module never pulls in the others.
"""
