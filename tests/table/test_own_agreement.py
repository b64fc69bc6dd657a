"""The scorekeeper's own agreement (issue 38, point 5): a scorekeeper whose account is
linked to one of the game's players agrees with the card by recording it and marking it
paid. Mark paid asks only about the other players, and the card says so; a scorekeeper
linked to nobody at the table (or to a player of another league) is asked as before.
Nothing is stored for it: the other seats' agreements are what they were."""

import pytest
from sqlalchemy import select

from scorekeeper.accounts import own_players
from scorekeeper.accounts import users as user_service
from scorekeeper.accounts.members import set_membership
from scorekeeper.league import service as league_service
from scorekeeper.models import Game, Player, Role, db
from scorekeeper.records import players as player_service
from scorekeeper.records.leagues import league_by_slug
from tests.conftest import Table

from .kind_helpers import post_deal, start, words
from .test_seat_links import finish, share
from .test_seat_links_of_every_game import finished as finished_kind


def link_to(app, username: str, name: str, league: str = "our-table") -> None:
    """Link the account ``username`` to the player ``name`` of the league (a member of it)."""
    with app.app_context():
        found = league_by_slug(league)
        assert found is not None
        player = db.session.scalar(
            select(Player).where(Player.league_id == found.id, Player.name == name)
        )
        assert player is not None, name
        own_players.link(player, user_service.user_by_name(username).id)
        db.session.remove()


def state(app, game_id: int) -> tuple[bool, int, int]:
    """Whether the game is paid, its agreements given and its version."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        found = (game.paid_at is not None, game.agreement_count, game.version)
        db.session.remove()
    return found


def agree(client, game_id: int, seat: int, version: int) -> None:
    data = {"version": str(version), "seat": str(seat)}
    assert client.post(f"/games/{game_id}/agree", data=data).status_code == 302


def mark_paid(client, game_id: int, version: int):
    data = {"version": str(version), "ask": "agreements"}
    return client.post(f"/games/{game_id}/paid", data=data)


@pytest.fixture
def mille(app, table, auth):
    """A finished game of Mille, Ana against Ben, and a scorekeeper ("ana") of the league
    linked to nobody yet: the game and the scorekeeper's client."""
    game_id = table.start_game()
    table.record(game_id, 0, (290, 160))
    finish(table, game_id)
    keeper = auth.member("scorekeeper", username="ana")
    return game_id, keeper


def test_mille_the_scorekeepers_own_player_is_not_asked_about(app, table, mille):
    game_id, keeper = mille
    link_to(app, "ana", "Ana")
    _, _, version = state(app, game_id)
    card = words(keeper.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Ana (you) recorded this card: that is your agreement." in card
    assert "Ana has not agreed" not in card
    assert "Ana agrees with this card" not in card  # no button to agree for herself
    assert "Ben has not agreed with this card yet." in card
    keeper.set_cookie("lang", "fr")
    carte = words(keeper.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Ana (vous)\u00a0: vous avez tenu cette feuille, c'est votre approbation." in carte
    keeper.delete_cookie("lang")
    # Ben has not agreed: he is asked about, she is not.
    asked = words(mark_paid(keeper, game_id, version).get_data(as_text=True))
    assert "Ben has not agreed with this card yet. Mark it paid anyway?" in asked
    assert "Ana has not agreed" not in asked
    agree(keeper, game_id, 1, version)
    response = mark_paid(keeper, game_id, version)
    assert response.status_code == 302
    assert state(app, game_id)[:2] == (True, 1)  # paid; Ben's agreement, none stored for Ana
    # Another scorekeeper (the site admin, linked to nobody) sees Ana as not agreed.
    assert "Ana (you)" not in words(table.page(game_id))


def test_mille_a_scorekeeper_linked_to_nobody_is_asked_as_before(app, table, mille):
    game_id, keeper = mille
    _, _, version = state(app, game_id)
    agree(keeper, game_id, 1, version)
    asked = mark_paid(keeper, game_id, version)
    assert asked.status_code == 200
    said = words(asked.get_data(as_text=True))
    assert "Ana has not agreed with this card yet. Mark it paid anyway?" in said
    assert "(you)" not in said
    assert state(app, game_id)[0] is False


def test_mille_a_scorekeeper_linked_to_a_player_of_another_league_is_asked(app, table, mille):
    game_id, keeper = mille
    with app.app_context():
        club = league_service.create_league("Secret club", public=False)
        player_service.add_player(club.id, "Ana")  # the same name, another league's player
        set_membership(club.id, user_service.user_by_name("ana").id, Role.SCOREKEEPER)
        db.session.remove()
    link_to(app, "ana", "Ana", league="secret-club")
    _, _, version = state(app, game_id)
    agree(keeper, game_id, 1, version)
    said = words(mark_paid(keeper, game_id, version).get_data(as_text=True))
    assert "Ana has not agreed with this card yet. Mark it paid anyway?" in said
    assert "(you)" not in said
    assert state(app, game_id)[0] is False


def test_mille_a_change_after_the_others_agreed_still_asks_about_them(app, table, mille):
    """Only the scorekeeper's own seat counts as agreed: Ben's agreement is voided by an
    undo as any agreement is, and he is asked about again."""
    game_id, keeper = mille
    link_to(app, "ana", "Ana")
    _, _, version = state(app, game_id)
    agree(keeper, game_id, 1, version)
    assert keeper.post(f"/games/{game_id}/undo", data={"version": str(version)}).status_code == 302
    table.record(game_id, 0, (700, 50))
    _, _, version = state(app, game_id)
    said = words(mark_paid(keeper, game_id, version).get_data(as_text=True))
    assert "Ben has not agreed with this card yet. Mark it paid anyway?" in said
    assert "Ana has not agreed" not in said
    assert state(app, game_id)[0] is False


@pytest.fixture
def knock(app, table, auth):
    """A finished sitting of Knock Rummy (Ana, Ben, Cy, Dan) and a scorekeeper "ana"."""
    game_id = finished_kind(app, table, "knock-rummy")
    keeper = auth.member("scorekeeper", username="ana")
    return game_id, keeper


def test_knock_rummy_the_scorekeepers_own_player_is_not_asked_about(app, table, knock):
    game_id, keeper = knock
    link_to(app, "ana", "Ana")
    _, _, version = state(app, game_id)
    card = words(keeper.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Ana (you) recorded this card: that is your agreement." in card
    assert "Ana has not agreed" not in card
    agree(keeper, game_id, 1, version)  # Ben only
    said = words(mark_paid(keeper, game_id, version).get_data(as_text=True))
    assert "Cy has not agreed with this card yet. Dan has not agreed" in said
    assert "Ana has not agreed" not in said
    assert "Ben has not agreed" not in said
    for seat in (2, 3):
        agree(keeper, game_id, seat, version)
    assert mark_paid(keeper, game_id, version).status_code == 302
    assert state(app, game_id)[:2] == (True, 3)


def test_knock_rummy_two_players_only_bens_agreement_marks_it_paid(app, table, auth):
    game_id = start(app, "knock-rummy", players=2)
    deal = {"knocker": "0", "counts_0": "6", "counts_1": "20"}
    assert post_deal(table.client, game_id, deal).status_code == 302
    assert table.client.post(f"/games/{game_id}/finish").status_code == 302
    keeper = auth.member("scorekeeper", username="ana")
    _, _, version = state(app, game_id)
    agree(keeper, game_id, 1, version)
    asked = mark_paid(keeper, game_id, version)  # linked to nobody: asked
    assert "Ana has not agreed with this card yet." in words(asked.get_data(as_text=True))
    link_to(app, "ana", "Ana")
    assert mark_paid(keeper, game_id, version).status_code == 302
    assert state(app, game_id)[:2] == (True, 1)


def test_knock_rummy_linked_to_nobody_or_another_league_is_asked(app, table, knock):
    game_id, keeper = knock
    with app.app_context():
        club = league_service.create_league("Secret club", public=False)
        player_service.add_player(club.id, "Ana")
        set_membership(club.id, user_service.user_by_name("ana").id, Role.SCOREKEEPER)
        db.session.remove()
    _, _, version = state(app, game_id)
    for seat in (1, 2, 3):
        agree(keeper, game_id, seat, version)
    said = words(mark_paid(keeper, game_id, version).get_data(as_text=True))
    assert "Ana has not agreed with this card yet. Mark it paid anyway?" in said
    link_to(app, "ana", "Ana", league="secret-club")
    said = words(mark_paid(keeper, game_id, version).get_data(as_text=True))
    assert "Ana has not agreed with this card yet. Mark it paid anyway?" in said
    assert "(you)" not in said
    assert state(app, game_id)[0] is False


def test_on_the_others_links_the_card_her_account_recorded_is_her_agreement(app, table, auth):
    """Ben's link says that Ana recorded the card, not that she has not agreed, while the
    card's latest change is her account's; a correction by another account (linked to
    nobody) makes her one of the players to agree again."""
    keeper = Table(auth.member("scorekeeper", username="ana"))
    game_id = keeper.start_game()
    link_to(app, "ana", "Ana")
    keeper.record(game_id, 0, (290, 160))
    finish(keeper, game_id)
    ben = app.test_client()
    link = share(keeper.client, game_id, 1)
    card = words(ben.get(link).get_data(as_text=True))
    assert "Ana recorded this card: that is Ana's agreement." in card
    assert "Ana has not agreed" not in card
    assert "You have not agreed with this card yet." in card  # Ben is asked, as before
    ben.set_cookie("lang", "fr")
    carte = words(ben.get(link).get_data(as_text=True))
    assert "Ana a tenu cette feuille\u00a0: c'est l'approbation d'Ana." in carte
    ben.delete_cookie("lang")
    # The site's administrator (linked to nobody) corrects deal 1: Ana is asked again.
    fixed = table.client.post(
        f"/games/{game_id}/deals/1", data={"out": "0", "score0": "300", "score1": "160"}
    )
    assert fixed.status_code == 302
    card = words(ben.get(link).get_data(as_text=True))
    assert "Ana has not agreed with this card yet." in card
    assert "Ana recorded this card" not in card
    assert state(app, game_id)[1] == 0  # nothing was stored for her either way
