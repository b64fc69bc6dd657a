"""A game at the table: its pages, the deal form, the game service, and counting help."""
