"""Learning the game: the guided tour of the rule book's positions (`tour`), the guided match
that ends it (`guided`), the hint that says why (`hints`, every game's), and the puzzles the
solver proves (`puzzles`), with what a learner's progress keeps (`progress`). No screen here:
the terminal (`exact61 learn`, `exact61 puzzle`, the game's hint) and the server's pages show
them.

Imports the core, the search (to prove a puzzle), the bots and the analysis (the hint's judge),
the table and the language texts; nothing is imported here, so importing one module never
pulls in the others.
"""
