"""A second, independent implementation of the rules, written from SPEC.md alone (see `rules`).

The engine (`exact61.core`) must agree with it move by move (tests/core/test_reference.py). It
imports only value types from `exact61`, never anything that computes a rule.
"""
