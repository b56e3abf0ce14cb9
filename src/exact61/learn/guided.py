"""The guided match that ends the tour: a few rounds against an easy bot, where the hint says
why (`hints.explain`, as in every game with one person at the screen).

No screen here: the terminal plays the match (`exact61 learn`) as it plays a game, and the
server as a game of its own (the Learn page). Both play it on a `Table` made with
`rounds=ROUNDS`, which says when it is over.
"""

from __future__ import annotations

OPPONENT = "easy"  # a level (bots.LEVELS): its bot and budget are the level's
SEATS = ("human", OPPONENT)
SEED = 61  # every learner meets the same deals
ROUNDS = 3  # the rounds its Table lasts (`rounds`), unless a side wins first (R30)
