"""A tie at or above the target says so in words (RULES.md §3: nobody has won, play goes on)."""

import re

from scorekeeper.engine import Rules, Seat, Tally, replay
from tests.conftest import section, text_of

TIED = "Tied at 1,200 — nobody has won yet: play goes on, deal by deal, until the totals differ."


def tie_message(page: str) -> str | None:
    """The words of the tie message, if the page has one, as a screen reader reads them."""
    found = re.search(r'<p class="tie" role="status">(.*?)</p>', page, re.S)
    return " ".join(text_of(found.group(1)).split()) if found else None


def test_the_engine_calls_a_tie_only_where_the_tie_rule_keeps_play_going():
    def card(rules, *deals):
        tallies = [Tally(Seat(out), scores, stars) for out, scores, stars in deals]
        return replay(rules, Seat.FIRST, tallies)

    at_target = [(0, (600, 600), (0, 0)), (1, (600, 600), (0, 0))]
    assert card(Rules(), *at_target).tied
    assert not card(Rules(), (0, (500, 500), (0, 0))).tied  # equal, below the target
    assert not card(Rules(), *at_target, (0, (100, 50), (0, 0))).tied  # over: Ana won
    natural_needed = Rules(natural_needed=True)
    assert not card(natural_needed, *at_target).tied  # nobody has a natural: not why it goes on
    with_stars = [(0, (600, 600), (1, 1)), (1, (600, 600), (0, 0))]
    assert card(natural_needed, *with_stars).tied


def test_a_tie_at_the_target_says_play_goes_on_until_the_totals_differ(table):
    game_id = table.start_game()
    table.record(game_id, 0, (600, 600))
    assert tie_message(table.page(game_id)) is None  # equal, but nobody at the target yet
    table.record(game_id, 1, (600, 600))
    page = table.page(game_id)
    # In the totals, where a screen reader finds it after both players' totals.
    assert tie_message(section(page, "summary")) == TIED
    assert 'id="deal-form"' in page  # and the next deal can be recorded
    table.record(game_id, 0, (100, 50))
    page = table.page(game_id)
    assert tie_message(page) is None
    assert "Ben pays Ana" in text_of(section(page, "settlement"))


def test_a_tie_above_the_target_says_its_total(table):
    game_id = table.start_game()
    table.record(game_id, 0, (1300, 1300), confirm=True)
    assert tie_message(table.page(game_id)) == TIED.replace("1,200", "1,300")


def test_the_tie_in_french(table):
    game_id = table.start_game()
    table.record(game_id, 0, (1200, 1200), confirm=True)
    table.client.set_cookie("lang", "fr")
    assert tie_message(table.page(game_id)) == (
        "Égalité à 1 200 — personne n'a encore gagné : on continue, donne après donne, "
        "jusqu'à ce que les totaux diffèrent."
    )
