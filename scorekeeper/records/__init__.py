"""What a game and its league both keep: the league found by its address, its players, and
its results and records, kept up to date in the same transaction as every change to a game.

Below :mod:`scorekeeper.table` (which changes games) and :mod:`scorekeeper.league` (which
shows leagues), so that neither has to import the other's pages to keep them in step.
"""
