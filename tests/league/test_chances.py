"""Each player's chance to win before a game starts: on the new-game page once both
players are chosen, and beside each game of Tonight's round; whole percent, its source
named."""

import re
from datetime import timedelta

from sqlalchemy import func, select

from scorekeeper.models import Game, PlayerRecord, db, utcnow
from scorekeeper.records import chances, skill
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.records.players import find_player
from tests.league.test_rating_display import play, text_of

NEW_GAME = "/leagues/our-table/games/new"
#: The line as read, tags left out: "·" is shown, ", " said to a screen reader instead.
LINE = re.compile(r"Chance to win: (\w+) (\d+)% · , (\w+) (\d+)% \((.*?)\)")


def expected(app, first, second):
    """The chances worked out here from the stored records, for comparison."""
    with app.app_context():
        league = league_by_slug("our-table").id
        now = utcnow()
        found = []
        for name in (first, second):
            player = find_player(league, name)
            record = player and db.session.get(PlayerRecord, player.id)
            if record is None:
                found.append(skill.FIRST)
                continue
            widened = skill.away(
                skill.Skill(record.skill_mu, record.skill_sigma),
                skill.days_between(record.last_played_at, now),
            )
            found.append(widened)
        return skill.chances(*found)


def games_count(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Game))


def test_the_chances_follow_the_ratings_and_a_newcomer_starts_even(app):
    play(app, [("Ana", "Ben")] * 5 + [("Ben", "Ana")])
    with app.app_context():
        league = league_by_slug("our-table").id
        odds = chances.chances_of_names(league, "ana", "BEN")
        assert odds.names == ("Ana", "Ben")  # as the league writes them
        assert odds.games == (6, 6)
        assert odds.percents[0] > 50
        assert sum(odds.percents) == 100
        # Someone who is no player yet starts as a newcomer: nearer even than Ben.
        stranger = chances.chances_of_names(league, "Ana", "Zoé")
        assert stranger.games == (6, 0)
        assert 50 < stranger.percents[0] < odds.percents[0]
        assert chances.chances_of_names(league, "Zoé", "Yves").percents == (50, 50)
        assert chances.chances_of_names(league, "Ana", "ana") is None
        assert chances.chances_of_names(league, "Ana", "") is None
        assert chances.chances_of_names(league, "Ana", "x" * 41) is None
        ana, ben = (find_player(league, name) for name in ("Ana", "Ben"))
        assert chances.chances_of_pairs([(ben, ana)]) == [
            chances.Chances(("Ben", "Ana"), odds.percents[::-1], (6, 6))
        ]
    assert odds.percents == expected(app, "Ana", "Ben")


def test_time_away_brings_the_chances_nearer_even(app):
    play(app, [("Ana", "Ben")] * 8)
    with app.app_context():
        league = league_by_slug("our-table").id
        ana, ben = (find_player(league, name) for name in ("Ana", "Ben"))
        today = chances.chances_of_pairs([(ana, ben)])[0].percents[0]
        later = chances.chances_of_pairs([(ana, ben)], now=utcnow() + timedelta(days=200))
    assert 50 < later[0].percents[0] < today


def test_the_new_game_page_shows_the_chances_once_both_players_are_chosen(app, table):
    play(app, [("Ana", "Ben")] * 3)
    assert "Chance to win" not in text_of(table.client.get(NEW_GAME))
    before = games_count(app)
    page = table.post_new_game("Ana", "Ben", check="1", submit="")
    assert games_count(app) == before  # seeing the chances starts nothing
    text = text_of(page)
    first, one, second, other, source = LINE.search(text).groups()
    assert (first, second) == ("Ana", "Ben")
    assert (int(one), int(other)) == expected(app, "Ana", "Ben")
    assert source == "OpenSkill, from their games: Ana 3, Ben 3"
    # The form keeps the names, ready to start.
    assert 'value="Ana"' in page.get_data(as_text=True)
    # A game can be started from there as before.
    table.start_game("Ana", "Ben")
    assert games_count(app) == before + 1


def test_the_line_the_script_puts_in_place_and_who_may_read_it(app, table, client):
    play(app, [("Ana", "Ben")])
    line = table.client.get(
        NEW_GAME + "/chances", query_string={"player0": "Ben", "player1": "Cleo"}
    )
    text = text_of(line)
    assert LINE.search(text).groups()[4] == "OpenSkill, from their games: Ben 1, Cleo 0"
    assert text_of(table.client.get(NEW_GAME + "/chances?player0=Ben")).strip() == ""
    assert text_of(table.client.get(NEW_GAME + "/chances")).strip() == ""
    new = text_of(table.client.get(NEW_GAME + "/chances?player0=Yves&player1=Zoe"))
    assert "Yves 50% · , Zoe 50% (OpenSkill: neither has a finished game yet)" in new
    assert client.get(NEW_GAME + "/chances?player0=Ana&player1=Ben").status_code in (302, 401, 404)


def test_the_chances_in_french_are_whole_percent(app, table):
    play(app, [("Ana", "Ben")] * 4)
    table.client.set_cookie("lang", "fr")
    page = table.client.post(NEW_GAME, data={"player0": "Ana", "player1": "Ben", "check": "1"})
    assert "\u00a0%" in page.get_data(as_text=True)  # a non-breaking space before %
    text = text_of(page)
    one, other = expected(app, "Ana", "Ben")
    assert f"Chances de gagner : Ana {one} % · , Ben {other} %" in text
    assert "(OpenSkill, d'après leurs parties : Ana 4, Ben 4)" in text


def test_tonight_shows_each_games_chances(app, table):
    play(app, [("Ana", "Ben")] * 3 + [("Cleo", "Dan")])
    with app.app_context():
        league = league_by_slug("our-table").id
        ids = [find_player(league, name).id for name in ("Ana", "Ben", "Cleo", "Dan")]
    page = table.client.get("/leagues/our-table/tonight", query_string={"here": ids, "pair": "1"})
    lines = LINE.findall(text_of(page))
    assert len(lines) == 2
    for first, one, second, other, _source in lines:
        assert (int(one), int(other)) == expected(app, first, second)
        assert "." not in one + other
