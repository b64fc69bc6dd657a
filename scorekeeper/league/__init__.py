"""A league: standings, players, head-to-head, seasons, members and settings, who owes whom,
the statistics kept up to date, and import/export."""
