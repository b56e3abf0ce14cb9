"""Post-game review: each decision of a match valued by match equity (`analyze`), from the
moves' values over deals sampled consistently with the seat's view (`evaluate`).

Above `exact61.analysis` and the bots' sampler; nothing is imported here, so importing one
module never pulls in the others.
"""
