"""The game in the terminal: the full screen (`app`, Textual) and the line-by-line mode for
screen readers and pipes (`plain`), both playing a saved `exact61.table.Table` (`session`) and
saying what happens in the player's language (`words`)."""
