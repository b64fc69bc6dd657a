"""Tonight for every game (issue 37): pick a game, tick who is here, and the players are
split into tables of the game's size; one tap starts every table with the league's last
stakes for that game (asked for first when the league has never played it). And who is
here is remembered for the evening (issue 38, point 10)."""

from datetime import timedelta
from html.parser import HTMLParser
from itertools import combinations

import pytest
from sqlalchemy import select, update

from scorekeeper.league.pairing import History, pair, seating_cost
from scorekeeper.models import Game, GameSeat, LeagueRound, db, utcnow
from scorekeeper.records import players as player_service
from scorekeeper.records.leagues import league_by_slug
from tests.conftest import text_of
from tests.league.test_query_counts import count_statements

TONIGHT = "/leagues/our-table/tonight"
NINE = ["Ana", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
NBSP = "\u00a0"


class RoundForm(HTMLParser):
    """What a browser sends from the round's form (the POST form under ``#round``)."""

    def __init__(self) -> None:
        super().__init__()
        self.inside, self.fields = False, []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form" and attributes.get("method") == "post":
            self.inside = True
        elif tag == "input" and self.inside and "name" in attributes:
            unticked = attributes.get("type") == "checkbox" and "checked" not in attributes
            if not unticked:
                self.fields.append((attributes["name"], attributes.get("value") or ""))

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False


def round_form(html: str) -> dict[str, list[str]]:
    start = html.index('id="round"')
    parser = RoundForm()
    parser.feed(html[start : html.index("</section>", start)])
    sent: dict[str, list[str]] = {}
    for name, value in parser.fields:
        sent.setdefault(name, []).append(value)
    return sent


def add_players(app, names=NINE) -> list[int]:
    with app.app_context():
        league = league_by_slug("our-table")
        ids = [player_service.add_player(league.id, name).id for name in names]
        db.session.remove()
    return ids


def remember(app, kind: str, rules: dict, stakes: dict) -> None:
    with app.app_context():
        league = league_by_slug("our-table")
        league.remember_setup(kind, rules, stakes)
        db.session.commit()


def seat(client, game: str, ids: list[int], **more):
    return client.get(TONIGHT, query_string={"game": game, "here": ids, "pair": "1", **more})


def start(client, page: str, **changed):
    return client.post(TONIGHT, data={**round_form(page), **changed})


def tables_started(app) -> list[tuple[str, tuple[int, ...], dict]]:
    """Each game: its kind, its players by seat, its setup."""
    with app.app_context():
        games = db.session.scalars(select(Game).order_by(Game.id)).all()
        return [
            (game.kind, tuple(seat.player_id for seat in game.seats), game.setup) for game in games
        ]


def rounds(app) -> list[int | None]:
    with app.app_context():
        return list(db.session.scalars(select(LeagueRound.sitting_out_id)))


def test_nine_for_knock_rummy_start_at_a_table_of_five_and_one_of_four(app, table):
    ids = add_players(app)
    remember(app, "knock-rummy", {}, {"point": 5})
    page = seat(table.client, "knock-rummy", ids)
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    words = text_of(text)
    assert "The next round of Knock Rummy" in words
    assert "Table 1 (5 players)" in words
    assert "Table 2 (4 players)" in words
    assert "last game of Knock Rummy: Per point: $0.05" in words
    assert "Start these 2 games" in words
    response = start(table.client, text)
    assert response.status_code == 302
    assert response.headers["Location"].endswith("#in-progress")
    assert "game=knock-rummy" in response.headers["Location"]
    games = tables_started(app)
    assert [(kind, len(players)) for kind, players, _ in games] == [
        ("knock-rummy", 5),
        ("knock-rummy", 4),
    ]
    assert all(setup["stakes"] == {"point": 5} for _, _, setup in games)
    assert sorted(player for _, players, _ in games for player in players) == sorted(ids)
    assert rounds(app) == [None]  # one round, nobody out
    back = table.client.get(response.headers["Location"]).get_data(as_text=True)
    assert "2 games started." in back
    assert text_of(back).count("Knock Rummy · ") == 2  # both in progress, each named


def test_the_next_round_mixes_those_who_sat_together_least(app, table):
    ids = add_players(app)
    remember(app, "knock-rummy", {}, {"point": 5})
    first = seat(table.client, "knock-rummy", ids).get_data(as_text=True)
    assert start(table.client, first).status_code == 302
    before = [players for _, players, _ in tables_started(app)]
    met = {pair(a, b): 1 for players in before for a, b in combinations(players, 2)}
    second = seat(table.client, "knock-rummy", ids).get_data(as_text=True)
    assert start(table.client, second).status_code == 302
    after = [players for _, players, _ in tables_started(app)][2:]
    # Six pairs meet again at best (three of one table and two of the other at five).
    assert seating_cost(after, History(met=met)) == (6, 6)


def test_a_game_the_league_never_played_asks_for_its_stakes_first(app, table):
    ids = add_players(app, NINE[:6])
    text = seat(table.client, "rummy", ids).get_data(as_text=True)
    assert "The league has not played Rummy yet" in text_of(text)
    refused = start(table.client, text)  # the stake left empty
    assert refused.status_code == 422
    assert 'aria-invalid="true"' in refused.get_data(as_text=True)
    assert tables_started(app) == []
    again = refused.get_data(as_text=True)
    response = start(table.client, again, **{"rummy-stake_point": "0.10"})
    assert response.status_code == 302
    assert [(kind, len(players)) for kind, players, _ in tables_started(app)] == [("rummy", 6)]
    with app.app_context():
        assert league_by_slug("our-table").last_setup("rummy")["stakes"] == {"point": 10}
    # The next round starts with them, without asking.
    text = seat(table.client, "rummy", ids).get_data(as_text=True)
    assert "last game of Rummy: Per point: $0.10" in text_of(text)


def test_gamblers_rummy_seats_fours_and_the_rest_sit_out_in_turn(app, table):
    ids = add_players(app)
    remember(app, "gamblers-rummy", {}, {"point": 1})
    text = seat(table.client, "gamblers-rummy", ids).get_data(as_text=True)
    assert "sits out this round" in text
    assert start(table.client, text).status_code == 302
    first_out = rounds(app)
    assert len(first_out) == 1
    assert first_out[0] is not None
    text = seat(table.client, "gamblers-rummy", ids).get_data(as_text=True)
    assert start(table.client, text).status_code == 302
    outs = rounds(app)
    assert len(outs) == 2
    assert outs[1] != outs[0]
    # Eleven: three sit out, one round kept as a row for each.
    more = ids + add_players(app, ["Jo", "Kim"])
    text = seat(table.client, "gamblers-rummy", more).get_data(as_text=True)
    assert "sit out this round" in text
    assert start(table.client, text).status_code == 302
    assert len(rounds(app)) == 5
    assert [len(players) for _, players, _ in tables_started(app)] == [4] * 6


def test_every_stake_of_the_last_game_is_said(app, table):
    ids = add_players(app, NINE[:5])
    remember(app, "spoil-five", {}, {"ante": 25, "dealer": 10, "maximum": None})
    text = seat(table.client, "spoil-five", ids).get_data(as_text=True)
    assert (
        "last game of Spoil Five: Ante (each player, when a pool starts): $0.25 · "
        "Dealer's stake (the other deals): $0.10 · Change"
    ) in text_of(text).replace("&#39;", "'")


def test_scotch_whist_in_partnerships_seats_four_six_or_eight(app, table):
    ids = add_players(app, [*NINE, "Jo"])
    remember(app, "scotch-whist", {"target": 21, "partnerships": True}, {"game": 200})
    text = seat(table.client, "scotch-whist", ids).get_data(as_text=True)
    assert (
        "last game of Scotch Whist: Per game (each loser pays): $2.00 · Target: 21 · "
        "Play in partnerships (partners sit opposite) · Change"
    ) in text_of(text)
    assert "Table 1 (6 players)" in text_of(text)
    assert "Table 2 (4 players)" in text_of(text)
    assert start(table.client, text).status_code == 302
    setups = [setup for _, _, setup in tables_started(app)]
    assert all(setup["rules"] == {"target": 21, "partnerships": True} for setup in setups)


@pytest.mark.parametrize(
    ("game", "count", "words"),
    [
        ("gamblers-rummy", 3, "Gambler's Rummy needs 4 players at a table"),
        ("knock-rummy", 1, "Knock Rummy needs 2 players at a table"),
        ("knock-rummy", 0, "Knock Rummy needs 2 players at a table"),
    ],
)
def test_too_few_to_seat_a_table_is_said_beside_the_list(app, table, game, count, words):
    ids = add_players(app)[:count]
    page = seat(table.client, game, ids)
    assert page.status_code == 422
    assert words in text_of(page.get_data(as_text=True)).replace("&#39;", "'")
    assert 'id="here-error"' in page.get_data(as_text=True)


def test_a_double_tap_starts_one_round_and_an_old_page_starts_none(app, table):
    ids = add_players(app, NINE[:8])
    remember(app, "knock-rummy", {}, {"point": 5})
    text = seat(table.client, "knock-rummy", ids).get_data(as_text=True)
    other = seat(table.client, "knock-rummy", ids).get_data(as_text=True)
    assert start(table.client, text).status_code == 302
    assert start(table.client, text).status_code == 302  # the same token: nothing more
    assert len(tables_started(app)) == 2
    stale = start(table.client, other)
    assert stale.status_code == 409
    assert "The tables changed since the page was loaded" in stale.get_data(as_text=True)
    assert len(tables_started(app)) == 2
    assert rounds(app) == [None]


def test_forged_posts_start_nothing(app, table):
    ids = add_players(app, NINE[:4])
    remember(app, "knock-rummy", {}, {"point": 5})
    text = seat(table.client, "knock-rummy", ids).get_data(as_text=True)
    assert start(table.client, text, game="poker").status_code == 400
    assert start(table.client, text, token="short").status_code == 400
    assert start(table.client, text, **{"knock-rummy-stake_point": "lots"}).status_code == 422
    assert start(table.client, text, **{"knock-rummy-stake_point": "-1"}).status_code == 422
    assert start(table.client, text, signature="x" * 40).status_code == 409
    assert tables_started(app) == []


def test_only_scorekeepers_seat_and_start(app, auth):
    ids = add_players(app, NINE[:4])
    viewer = auth.member("viewer")
    assert viewer.get(TONIGHT, query_string={"game": "knock-rummy"}).status_code == 403
    assert viewer.post(TONIGHT, data={"game": "knock-rummy", "here": ids}).status_code == 403


def test_mille_is_first_and_the_default_and_an_unknown_game_is_mille(app, table):
    ids = add_players(app, NINE[:4])
    for query in ({}, {"game": "poker"}, {"game": "mille"}):
        text = table.client.get(TONIGHT, query_string={**query, "here": ids, "pair": "1"}).text
        assert "The next round" in text
        assert "Start these 2 games" in text
        assert 'ol class="pairings"' in text
    options = text[text.index('<select id="game"') : text.index("</select>")]
    assert options.index('value="mille"') < options.index('value="rummy"')
    assert 'value="mille" selected' in options
    assert options.count("<option") == 8  # every game the league can start


def test_the_round_is_where_the_page_opens(app, table):
    ids = add_players(app, NINE[:4])
    text = table.client.get(TONIGHT).get_data(as_text=True)
    assert f'action="{TONIGHT}#round"' in text  # "Pair them" opens the page at the round
    for game in ("mille", "knock-rummy"):
        assert 'id="round"' in seat(table.client, game, ids).get_data(as_text=True)


def test_who_is_here_is_remembered_for_the_evening(app, table):
    ids = add_players(app, NINE[:5])
    nobody = table.client.get(TONIGHT).get_data(as_text=True)
    assert " checked" not in nobody
    text = table.client.get(TONIGHT, query_string={"here": ids, "pair": "1"}).text
    assert table.client.post(TONIGHT, data=round_form(text)).status_code == 302
    again = table.client.get(TONIGHT).get_data(as_text=True)
    assert again.count(" checked") == 5  # four playing, one sitting out
    other_game = table.client.get(TONIGHT, query_string={"game": "knock-rummy"}).text
    assert other_game.count(" checked") == 5
    # Unticked and sent, nobody is ticked: what was sent is what is shown.
    sent = table.client.get(TONIGHT, query_string={"here": ids[:2]}).text
    assert sent.count(" checked") == 2
    # Yesterday evening is not tonight.
    with app.app_context():
        long_ago = utcnow() - timedelta(days=2)
        db.session.execute(update(Game).values(created_at=long_ago))
        db.session.execute(update(LeagueRound).values(created_at=long_ago))
        db.session.commit()
    assert " checked" not in table.client.get(TONIGHT).get_data(as_text=True)


def test_who_is_here_tonight_is_in_the_leagues_time_zone(app, table):
    ids = add_players(app, NINE[:2])
    with app.app_context():
        league = league_by_slug("our-table")
        league.time_zone = "Pacific/Kiritimati"  # UTC+14: its night began hours ago
        db.session.commit()
        from scorekeeper.league import tonight as tonight_service

        game_at = tonight_service.night_began("Pacific/Kiritimati") - timedelta(minutes=5)
        db.session.add(
            Game(
                league_id=league.id,
                player0_id=ids[0],
                player1_id=ids[1],
                seats=[GameSeat(seat=0, player_id=ids[0]), GameSeat(seat=1, player_id=ids[1])],
                first_dealer=0,
                created_at=game_at,
            )
        )
        db.session.commit()
        assert tonight_service.here_tonight(league) == []
        db.session.execute(update(Game).values(created_at=game_at + timedelta(minutes=10)))
        db.session.commit()
        assert [player.id for player in tonight_service.here_tonight(league)] == ids


def test_the_page_reads_in_french(app, table):
    ids = add_players(app)
    table.client.get("/language/fr")
    text = seat(table.client, "gamblers-rummy", ids).get_data(as_text=True)
    words = text_of(text)
    assert "Quel jeu" in words
    assert "Former les tables" in words
    assert "La prochaine ronde de Rami des joueurs" in words
    assert "Table 1 (4 joueurs)" in words
    assert f"se repose cette ronde{NBSP}:" in text  # words() makes every space a space
    assert f"joué de partie de Rami des joueurs{NBSP}: indiquez-en les mises" in text
    assert "Lancer ces 2 parties" in words
    refused = seat(table.client, "gamblers-rummy", ids[:3]).get_data(as_text=True)
    assert f"Il faut 4 joueurs à une table de Rami des joueurs{NBSP}:" in refused


def test_the_page_reads_the_same_number_of_times_however_many_played(app, table):
    ids = add_players(app)
    remember(app, "knock-rummy", {}, {"point": 5})

    def reads() -> int:
        return count_statements(app, lambda: seat(table.client, "knock-rummy", ids))[1]

    counts = []
    for _ in range(3):
        text = seat(table.client, "knock-rummy", ids).get_data(as_text=True)
        assert start(table.client, text).status_code == 302
        counts.append(reads())
    # The user, the league, its players, those here, the season, who sat together and who
    # sat out, the games in progress and their seats.
    assert counts == [9, 9, 9]
