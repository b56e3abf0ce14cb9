"""Learning the game: the guided tour of the rule book's positions (`tour`) and the puzzles the
solver proves (`puzzles`), with what a learner's progress keeps. No screen here: the terminal
(`exact61 learn`, `exact61 puzzle`) and the server's Learn and Puzzles pages show them.

Imports the core, the search (to prove a puzzle), the bots and the analysis (the guided match's
hint and why), the table and the language texts; nothing is imported here, so importing one
module never pulls in the others.
"""
