"""A sitting of a game other than Mille, from its page, to its end and its payment (issue
36): the end asked first and taken back until paid, the fewest payments that settle it
with the deals that made each payer's balance (equal to the API's settlement), marked
paid and locked, unlocked by an admin, abandoned and restored, and played again."""

import re

from scorekeeper.models import Game, db
from scorekeeper.records.sittings import sitting_of
from scorekeeper.table import kind_service

from .kind_helpers import GAMES, NAMES, as_api, post_deal, standings, start, words


def version_of(page: str) -> str:
    found = re.search(r'name="version" value="(\d+)"', page)
    assert found
    return found.group(1)


def played(table, app, kind: str, **setup) -> int:
    game_id = start(app, kind, **setup)
    for fields in GAMES[kind][3]:
        assert post_deal(table.client, game_id, fields).status_code == 302
    return game_id


def test_ending_a_sitting_is_asked_first_then_settled_as_the_api_says(table, app, api):
    game_id = played(table, app, "knock-rummy")
    page = table.page(game_id)
    # One button, asked first: a question that opens (no script), then the second button.
    question = page[page.index('<details class="end-sitting') :]
    question = question[: question.index("</details>")]
    assert "End the sitting…" in question
    assert "It can go on again until it is paid." in words(question)
    assert f'action="/games/{game_id}/finish"' in question
    ended = table.client.post(f"/games/{game_id}/finish", data={"version": version_of(question)})
    assert ended.status_code == 302
    page = table.page(game_id)
    said = words(page)
    assert "The sitting is over: here is who pays whom." in said
    assert "The sitting ended after 2 deals." in said
    assert 'id="deal-form"' not in page
    answer = api.get(f"/api/v1/games/{game_id}").get_json()
    assert answer["status"] == "finished"
    for payment in answer["settlement"]["payments"]:
        payer, payee = answer["players"][payment["from"]], answer["players"][payment["to"]]
        assert f"{payer} pays {payee} ${payment['amount']}" in said
    # Each payer's balance, made of the deals that moved it.
    assert "Dan's balance, −$7.00: deal 1: −$1.40 · deal 2: −$5.60" in said
    assert "The sitting ended after deal 2." in said  # in the history


def test_an_ended_sitting_goes_on_again_until_it_is_paid(table, app, auth):
    game_id = played(table, app, "continental-rummy")
    table.client.post(f"/games/{game_id}/finish", data={"version": version_of(table.page(game_id))})
    page = table.page(game_id)
    assert "Take back the end: the sitting goes on" in page
    resumed = table.client.post(f"/games/{game_id}/resume", data={"version": version_of(page)})
    assert resumed.status_code == 302
    page = table.page(game_id)
    assert "The sitting goes on: record the next deal." in page
    assert 'id="deal-form"' in page
    assert "Deal 3" in page
    assert post_deal(table.client, game_id, {"out": "0", "jokers": "1"}).status_code == 302
    table.client.post(f"/games/{game_id}/finish", data={"version": version_of(table.page(game_id))})
    page = table.page(game_id)
    paid = table.client.post(f"/games/{game_id}/paid", data={"version": version_of(page)})
    assert paid.status_code == 302
    page = table.page(game_id)
    assert "Marked paid. The game is settled and locked." in page
    assert "Take back the end" not in page
    assert "/deals/1" not in page
    refused = table.client.post(f"/games/{game_id}/resume", data={"version": version_of(page)})
    assert refused.status_code == 409
    assert "settled" in words(refused.get_data(as_text=True))
    # A scorekeeper can't unlock it; a league admin can, and it can then go on.
    scorekeeper = auth.member("scorekeeper")
    assert scorekeeper.post(f"/games/{game_id}/unlock", data={}).status_code == 403
    unlocked = table.client.post(f"/games/{game_id}/unlock", data={"version": version_of(page)})
    assert unlocked.status_code == 302
    assert "Take back the end: the sitting goes on" in table.page(game_id)


def test_a_spoil_five_sitting_ends_with_its_pool_given_back(table, app, api):
    game_id = start(app, "spoil-five")
    post_deal(table.client, game_id, {"winner": "spoilt", "jink": "none"})
    page = table.page(game_id)
    assert "What is in the pool goes back to those who put it in" in words(page)
    table.client.post(f"/games/{game_id}/finish", data={"version": version_of(page)})
    said = words(table.page(game_id))
    assert "Everyone got $1.00 back from the pool." in said
    assert "Everyone is even: nobody pays." in said
    assert "Mark it settled" in said
    assert api.get(f"/api/v1/games/{game_id}").get_json()["pool"] == "0.00"


def test_a_game_that_ends_itself_is_taken_back_by_undoing_its_last_deal(table, app):
    game_id = played(table, app, "scotch-whist")
    page = table.page(game_id)
    assert "Game over after 2 deals." in words(page)
    assert "Take back the end" not in page
    assert "Undo deal 2…" in page  # asked first, as Mille's last deal is
    refused = table.client.post(f"/games/{game_id}/resume", data={"version": version_of(page)})
    assert refused.status_code == 409
    undone = table.client.post(f"/games/{game_id}/undo", data={"version": version_of(page)})
    assert undone.status_code == 302
    page = table.page(game_id)
    assert "Deal 2 was taken back: the game is in progress again." in page
    assert 'id="deal-form"' in page


def test_a_rematch_keeps_the_players_in_their_seats_and_passes_the_first_deal_on(table, app):
    game_id = played(table, app, "knock-rummy")
    table.client.post(f"/games/{game_id}/finish", data={"version": version_of(table.page(game_id))})
    page = table.page(game_id)
    assert "A new game with the same players in the same seats" in words(page)
    token = re.search(r'name="token" value="([^"]+)"', page).group(1)
    started = table.client.post(f"/games/{game_id}/rematch", data={"token": token})
    assert started.status_code == 302
    new_id = int(re.search(r"/games/(\d+)#play$", started.headers["Location"]).group(1))
    again = table.client.post(f"/games/{game_id}/rematch", data={"token": token})
    assert again.headers["Location"] == started.headers["Location"]  # a double tap: one game
    with app.app_context():
        old, new = db.session.get(Game, game_id), db.session.get(Game, new_id)
        assert new.kind == old.kind == "knock-rummy"
        assert [p.name for p in new.seated] == NAMES[:4]
        assert new.setup == old.setup
        assert new.first_dealer == (old.first_dealer + 1) % 4
        db.session.remove()
    assert "Rematch: the same players in the same seats. Ben deals first." in table.page(new_id)


def test_a_sitting_abandoned_and_restored(table, app, auth):
    game_id = played(table, app, "gamblers-rummy")
    page = table.page(game_id)
    abandoned = table.client.post(f"/games/{game_id}/abandon", data={"version": version_of(page)})
    assert abandoned.status_code == 302
    page = table.page(game_id)
    assert "Abandoned after 2 deals." in words(page)
    assert 'id="deal-form"' not in page
    assert "Restore this game" in page
    restored = table.client.post(f"/games/{game_id}/restore", data={"version": version_of(page)})
    assert restored.status_code == 302
    assert 'id="deal-form"' in table.page(game_id)


def test_a_viewer_reads_the_card_and_gets_no_form(app, auth, table):
    game_id = played(table, app, "rummy")
    page = auth.member("viewer").get(f"/games/{game_id}").get_data(as_text=True)
    assert 'id="deal-form"' not in page
    assert "End the sitting" not in page
    assert "/deals/1" not in page  # no Fix
    assert "Ana went out. Rummy: every payment doubled." in words(page)
    assert as_api("−$0.35") == "-0.35"


def _running(answer: dict) -> list[list[str]]:
    """Each seat's balance after every deal, added up from the API's payments."""
    balances, after = [0] * len(answer["players"]), []
    for deal in answer["deals"]:
        for payment in deal["payments"]:
            cents = round(float(payment["amount"]) * 100)
            if payment["from"] is not None:
                balances[payment["from"]] -= cents
            if payment["to"] is not None:
                balances[payment["to"]] += cents
        after.append(
            [f"{'-' if b < 0 else ''}{abs(b) // 100}.{abs(b) % 100:02d}" for b in balances]
        )
    return after


def test_a_long_sitting_shows_its_newest_deals_with_the_apis_balances(table, app, api):
    """The card of a long sitting is read from its ledger: its newest deals, and balances
    and a pool carried over from the deals before them, exactly as the API replays them."""
    game_id = start(app, "spoil-five")
    winners = ["spoilt", "1", "spoilt", "spoilt", "3", "0", "spoilt", "2"] * 3
    for number, winner in enumerate(winners[:23]):
        jink = "won" if number % 7 == 5 else "failed" if number % 5 == 4 else "none"
        post_deal(
            table.client,
            game_id,
            {"winner": winner, "jink": jink if winner != "spoilt" else "none"},
        )
    page = table.page(game_id)
    answer = api.get(f"/api/v1/games/{game_id}").get_json()
    assert len(answer["deals"]) == 23
    assert [as_api(amount) for amount in standings(page)] == answer["balances"]
    assert f"In the pool: ${answer['pool']}" in words(page)
    rows = re.findall(r'<tbody id="deal-(\d+)">.*?<tr class="numbers">(.*?)</tr>', page, re.S)
    assert [int(number) for number, _cells in rows] == list(range(14, 24))  # the newest 10
    running = _running(answer)
    for number, cells in rows:
        shown = [as_api(cell) for cell in re.findall(r'<span class="total">([^<]*)</span>', cells)]
        assert shown == running[int(number) - 1], number
    assert "Deals 1 to 13 are not shown here." in words(page)
    every = table.client.get(f"/games/{game_id}?deals=all").get_data(as_text=True)
    assert every.count('<tbody id="deal-') == 23
    # Ended: the pool goes back, and the settlement is the API's.
    table.client.post(f"/games/{game_id}/finish", data={"version": version_of(page)})
    page = table.page(game_id)
    answer = api.get(f"/api/v1/games/{game_id}").get_json()
    assert [as_api(amount) for amount in standings(page)] == answer["balances"]
    said = words(page)
    for payment in answer["settlement"]["payments"]:
        payer, payee = answer["players"][payment["from"]], answer["players"][payment["to"]]
        assert f"{payer} pays {payee} ${payment['amount']}" in said


def test_each_change_keeps_the_balances_and_the_pool_on_the_game_as_the_replay_says(app):
    """A long sitting's page reads where everyone stands from the game (``Game.balances``,
    ``Game.pool``) rather than summing its old deals: every change keeps them equal to the
    replay of the deals, the pool carried over spoilt deals and given back at the end."""
    game_id = start(app, "spoil-five")
    changes = [
        lambda: kind_service.record(game_id, {"winner": None}),
        lambda: kind_service.record(game_id, {"winner": None}),
        lambda: kind_service.record(game_id, {"winner": 3, "jink": "won"}),
        lambda: kind_service.record(game_id, {"winner": None}),
        lambda: kind_service.edit(game_id, 2, {"winner": 1, "jink": "failed"}),
        lambda: kind_service.delete_deal(game_id, 1),
        lambda: kind_service.finish(game_id),
        lambda: kind_service.resume(game_id),
        lambda: kind_service.record(game_id, {"winner": 0}),
        lambda: kind_service.finish(game_id),
    ]
    kept = []
    with app.app_context():
        for change in changes:
            played = change()
            db.session.remove()
            game = db.session.get(Game, game_id)
            sitting = sitting_of(game)
            assert sitting == played.sitting
            assert (game.balances, game.pool) == (list(sitting.balances), sitting.pool), change
            kept.append(game.pool)
            db.session.remove()
    # Five antes, the dealer's, taken, five antes again; the jink failed: the pool stays;
    # given back at the end, and ready again when the end is taken back.
    assert kept == [500, 600, 0, 500, 500, 500, 0, 500, 0, 0]
