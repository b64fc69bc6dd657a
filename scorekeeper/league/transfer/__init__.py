"""A league's games in and out: CSV and JSON exports, and imports of both.

The JSON export is lossless: importing it into a league without games gives
back every game (players, rules, stakes, first dealer, deals, when it was
played, finished and paid), so every settlement and standing too. The CSV
format is one row per deal, the same for export and for importing paper score
cards (README.md, "Importing paper score cards").

An import is checked completely first — every row by the rules of RULES.md,
each problem reported with its line — and then saved in one transaction:
everything or nothing.
"""
