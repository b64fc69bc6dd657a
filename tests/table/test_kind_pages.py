"""The page of every game but Mille, through its forms without a script (issue 36): each
deal recorded and read back in words, its balances equal to the API's, a count that can't
be refused beside its field with nothing saved, an unusual one asked about, a deal fixed,
deleted and taken back, a save made on a card changed elsewhere, and French."""

import re
from pathlib import Path

import pytest

from scorekeeper.engine.games import KINDS
from scorekeeper.models import MILLE
from scorekeeper.table.deal_forms import FORMS, partial_of

from .kind_helpers import (
    GAMES,
    as_api,
    confirmation_in,
    deal_count,
    post_deal,
    standings,
    start,
    words,
)

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_every_other_game_has_its_deal_form_and_its_partial():
    others = {name for name in KINDS if name != MILLE}
    assert set(FORMS) == others
    assert set(GAMES) == others
    for name in others:
        assert (TEMPLATES / partial_of(name)).is_file(), name


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_sitting_recorded_through_the_page_shows_what_the_api_says(table, app, api, kind):
    game_id = start(app, kind)
    for number, deal in enumerate(GAMES[kind][3], start=1):
        response = post_deal(table.client, game_id, deal)
        assert response.status_code == 302, words(response.get_data(as_text=True))[:600]
        assert response.headers["Location"].endswith(f"/games/{game_id}#play")
        assert deal_count(app, game_id) == number
    page = table.page(game_id)
    assert "Deal 2 saved." in page
    answer = api.get(f"/api/v1/games/{game_id}").get_json()
    if answer["totals"] is None:
        assert [as_api(amount) for amount in standings(page)] == answer["balances"]
    else:
        assert [int(total) for total in standings(page)] == answer["totals"]
    # Every deal on the card, in words, with its dealer and what it paid.
    card = words(page[page.index('<section class="scorecard') :])
    for deal in answer["deals"]:
        assert f"{answer['players'][deal['dealer']]} dealt." in card
    if answer["pool"] is not None:
        assert f"In the pool: ${answer['pool']}" in words(page)


def test_a_knock_reads_in_words_with_who_paid_whom_and_why(table, app):
    game_id = start(app, "knock-rummy", players=3)
    fields = {"knocker": "0", "counts_0": "6", "counts_1": "6", "counts_2": "14"}
    assert post_deal(table.client, game_id, fields).status_code == 302
    card = words(table.page(game_id))
    assert "Ana knocked; Ben won. Counts: Ana 6, Ben 6, Cy 14." in card
    assert "Ana paid Ben $1.00 (the knocker's penalty)." in card
    assert "Cy paid Ben $0.80 (for the cards left)." in card
    assert "Deal 2: Ben deals next." in card
    assert standings(table.page(game_id)) == ["−$1.00", "+$1.80", "−$0.80"]


def test_a_pool_a_jink_and_a_spoilt_deal_are_said_in_words(table, app):
    game_id = start(app, "spoil-five")
    for fields in GAMES["spoil-five"][3]:
        post_deal(table.client, game_id, fields)
    card = words(table.page(game_id))
    assert "Spoilt: nobody won three tricks, so the pool stays." in card
    assert "Everyone put $1.00 into the pool (the ante)." in card
    assert "Cy jinked and took all five tricks" in card
    assert "Everyone else paid Cy $1.00 each (for the jink)." in card
    assert "Ben put $1.00 into the pool (the dealer's stake)." in card
    assert "Cy took the pool: $6.00." in card
    assert "Pool: $5.00." in card
    assert "Pool: $0.00." in card


def test_continental_says_the_jokers_and_the_rummy_doubling_in_words(table, app):
    game_id = start(app, "continental-rummy")
    post_deal(table.client, game_id, GAMES["continental-rummy"][3][0])
    assert "Everyone else paid Cy $1.25 each ($0.25 for the win, $1.00 for the Jokers)." in (
        words(table.page(game_id))
    )
    rummy = start(app, "rummy")
    for fields in GAMES["rummy"][3]:
        post_deal(table.client, rummy, fields)
    card = words(table.page(rummy))
    assert "Ana went out. Rummy: every payment doubled. Counts: Ben 12, Cy 9." in card
    assert "Ben paid Ana $1.20 ($0.60 for the cards left, $0.60 doubled for rummy)." in card


def test_scotch_whist_shows_each_sides_total_and_progress_to_its_target(table, app):
    game_id = start(app, "scotch-whist")
    post_deal(table.client, game_id, GAMES["scotch-whist"][3][0])
    page = table.page(game_id)
    assert standings(page) == ["25", "7"]
    assert 'aria-valuetext="25 of 41"' in page
    assert "Ana & Cy: Jack, Queen, Ten; Ben & Dan: Ace, King." in words(page)
    assert "End the sitting" not in page  # it ends by its own rule
    post_deal(table.client, game_id, GAMES["scotch-whist"][3][1])
    page = words(table.page(game_id))
    assert "Ana & Cy won" in page
    assert "Ben pays Ana $5.00 Ben's balance, −$5.00: deal 2: −$5.00" in page
    assert "Dan pays Cy $5.00 Dan's balance, −$5.00: deal 2: −$5.00" in page
    assert "Game over after 2 deals." in page


@pytest.mark.parametrize(
    ("kind", "fields", "field", "said"),
    [
        ("knock-rummy", {"counts_0": "6", "counts_1": "6", "counts_2": "14", "counts_3": "9"},
         "knocker", "Choose who knocked."),
        ("knock-rummy", {"knocker": "0", "counts_0": "6", "counts_1": "71", "counts_2": "x",
                         "counts_3": "1"}, "counts_1", "A count is a whole number from 0 to 70."),
        ("knock-rummy", {"knocker": "0", "counts_0": "6", "counts_1": "7", "counts_2": "x",
                         "counts_3": "1"}, "counts_2", "This must be a whole number."),
        ("rummy", {"out": "1", "counts_0": "3", "counts_1": "5", "counts_2": "7"},
         "counts_1", "The player who went out holds nothing: their count is 0."),
        ("boathouse-rummy", {"out": "0", "counts_0": "", "counts_1": "1", "counts_2": ""},
         "counts_2", "Type the count: 0 if every card is in a set."),
        ("continental-rummy", {"out": "3", "jokers": "3"}, "jokers",
         "The winner's Jokers are from 0 to 2."),
        ("spoil-five", {"winner": "spoilt", "jink": "won"}, "jink",
         "Only a player who won three tricks can jink: choose who did."),
        ("scotch-whist", {"honours_jack": "0", "honours_ace": "1", "honours_king": "1",
                          "honours_queen": "0", "cards_0": "36", "cards_1": "0"},
         "honours_ten", "Choose who took it."),
    ],
)  # fmt: skip
def test_a_deal_that_cant_be_is_refused_beside_its_field_and_nothing_is_saved(
    table, app, kind, fields, field, said
):
    players = 5 if kind == "continental-rummy" else None
    game_id = start(app, kind, players=players)
    response = post_deal(table.client, game_id, fields)
    assert response.status_code == 422
    assert response.headers["X-Refusal"] == "invalid"
    page = response.get_data(as_text=True)
    error = re.search(rf'<p class="error" id="{field}-error" data-reason>(.*?)</p>', page, re.S)
    assert error, words(page)[:800]
    assert said in words(error.group(1))
    assert "This deal is not saved" in page
    assert deal_count(app, game_id) == 0
    # What was typed stays in the form, to be fixed.
    for name, value in fields.items():
        if name.startswith(("counts_", "cards_")) and value:
            assert f'name="{name}" type="text" value="{value}"' in page


def test_whist_cards_that_dont_make_the_pack_are_said_at_the_sides_cards(table, app):
    game_id = start(app, "scotch-whist")
    fields = {**GAMES["scotch-whist"][3][0], "cards_1": "12"}
    response = post_deal(table.client, game_id, fields)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert '<p class="error" id="cards-error" data-reason>' in page
    assert "The sides' cards must add up to the pack: 36 cards." in words(page)


def test_an_unusual_count_is_asked_about_then_saved_as_typed(table, app, api):
    game_id = start(app, "knock-rummy")
    fields = {"knocker": "0", "counts_0": "6", "counts_1": "6", "counts_2": "14", "counts_3": "65"}
    asked = post_deal(table.client, game_id, fields)
    assert asked.status_code == 200
    assert asked.headers["X-Refusal"] == "confirm"
    page = asked.get_data(as_text=True)
    assert "65 is an unusually high count (most hands hold 56 or less)." in words(page)
    assert deal_count(app, game_id) == 0
    # A changed count is asked about again, not saved under the old answer.
    changed = {**fields, "counts_3": "66"}
    again = post_deal(table.client, game_id, changed, confirm=confirmation_in(page))
    assert again.status_code == 200
    assert "66 is an unusually high count" in words(again.get_data(as_text=True))
    saved = post_deal(table.client, game_id, fields, confirm=confirmation_in(page))
    assert saved.status_code == 302
    deal = api.get(f"/api/v1/games/{game_id}").get_json()["deals"][0]
    assert deal["counts"] == [6, 6, 14, 65]


def test_a_deal_fixed_deleted_and_taken_back_through_the_pages(table, app, api):
    game_id = start(app, "knock-rummy", players=3)
    for knocker, counts in (("0", "6 6 14"), ("1", "9 2 4"), ("2", "5 8 0")):
        fields = {f"counts_{seat}": count for seat, count in enumerate(counts.split())}
        post_deal(table.client, game_id, {"knocker": knocker, **fields})
    fix = table.client.get(f"/games/{game_id}/deals/2").get_data(as_text=True)
    assert re.search(
        r'<input id="knocker-1" name="knocker" type="radio" value="1" required[^>]* checked>', fix
    )
    assert 'name="counts_2" type="text" value="4"' in fix
    version = re.search(r'name="version" type="hidden" value="(\d+)"', fix).group(1)
    fields = {"knocker": "1", "counts_0": "9", "counts_1": "2", "counts_2": "30"}
    fixed = table.client.post(f"/games/{game_id}/deals/2", data={**fields, "version": version})
    assert fixed.status_code == 302
    answer = api.get(f"/api/v1/games/{game_id}").get_json()
    assert answer["deals"][1]["counts"] == [9, 2, 30]
    page = table.page(game_id)
    assert "Deal 2 corrected; every total after it is recomputed." in page
    assert "Counts: Ana 9, Ben 2, Cy 30." in words(page)
    assert [as_api(amount) for amount in standings(page)] == answer["balances"]

    version = str(answer["version"])
    deleted = table.client.post(f"/games/{game_id}/deals/1/delete", data={"version": version})
    assert deleted.status_code == 302
    assert deal_count(app, game_id) == 2
    page = table.page(game_id)
    assert "Deal 1 deleted; the later deals moved up." in page
    assert "Undo deal 2" in page
    version = str(answer["version"] + 1)
    undone = table.client.post(f"/games/{game_id}/undo", data={"version": version})
    assert undone.status_code == 302
    assert "Deal 2 was taken back." in table.page(game_id)
    assert deal_count(app, game_id) == 1
    assert api.get(f"/api/v1/games/{game_id}").get_json()["deals"][0]["knocker"] == 1
    # The history says what a corrected and a deleted deal were, in the game's words.
    history = words(table.page(game_id)[table.page(game_id).index('class="history') :])
    assert "was: Ben knocked." in history
    assert "now: Ben knocked." in history
    assert "it was: Ana knocked. Counts: Ana 6, Ben 6, Cy 14." in history


def test_a_fix_that_cant_be_stays_on_its_page_beside_its_field(table, app):
    game_id = start(app, "continental-rummy")
    post_deal(table.client, game_id, {"out": "2", "jokers": "1"})
    refused = table.client.post(f"/games/{game_id}/deals/1", data={"out": "2", "jokers": "9"})
    assert refused.status_code == 422
    assert 'id="jokers-error"' in refused.get_data(as_text=True)
    assert deal_count(app, game_id) == 1


def test_a_deal_typed_on_a_card_changed_elsewhere_is_kept_and_not_saved(table, app):
    game_id = start(app, "knock-rummy", players=3)
    fields = {"knocker": "0", "counts_0": "6", "counts_1": "6", "counts_2": "14"}
    page = table.page(game_id)
    version = re.search(r'name="version" type="hidden" value="(\d+)"', page).group(1)
    assert post_deal(table.client, game_id, fields, version=version).status_code == 302
    # The same deal, sent again from a page of before it (a second phone): a duplicate.
    stale = post_deal(table.client, game_id, fields, version=version)
    assert stale.status_code == 409
    assert stale.headers["X-Refusal"] == "stale"
    said = words(stale.get_data(as_text=True))
    assert "Not saved: the score card changed on another phone" in said
    assert "Deal 1 recorded." in said
    assert "Ana knocked. Counts: Ana 6, Ben 6, Cy 14." in said
    assert "Yours is the same deal: it is already on the card as deal 1." in said
    assert "Record it again as deal 2" in said
    assert deal_count(app, game_id) == 1
    discarded = post_deal(table.client, game_id, fields, discard="1")
    assert discarded.status_code == 302
    assert "Your deal was not recorded." in table.page(game_id)


def test_a_save_by_the_pages_script_is_answered_with_the_page(table, app):
    game_id = start(app, "spoil-five")
    fields = GAMES["spoil-five"][3][0]
    answer = post_deal(table.client, game_id, fields, headers={"X-Requested-With": "fetch"})
    assert answer.status_code == 200
    assert answer.headers["X-Deal-Saved"] == "1"
    page = answer.get_data(as_text=True)
    assert "Deal 1 saved." in page
    assert "Deal 2" in page
    assert 'data-fresh="1"' in page


def test_the_page_in_french(table, app):
    game_id = start(app, "spoil-five")
    for fields in GAMES["spoil-five"][3]:
        post_deal(table.client, game_id, fields)
    table.client.set_cookie("lang", "fr")
    page = words(table.page(game_id))
    assert "Spoil Five · 5 joueurs" in page
    assert "Gâchée\u00a0: personne n'a fait trois levées, la cagnotte reste." in page
    assert "Chacun a mis 1,00\u00a0$ dans la cagnotte (la mise)." in page
    assert "Tous les autres ont payé 1,00\u00a0$ chacun à Cy (pour le jink)." in page
    assert "Qui a fait trois levées\u00a0?" in page
    assert "solde −2,00\u00a0$" in page
    assert "Terminer la séance…" in page


def test_a_deal_of_another_game_asks_who_may_record_first(table, app, auth, client):
    game_id = start(app, "knock-rummy", players=3)
    fields = {"knocker": "0", "counts_0": "6", "counts_1": "6", "counts_2": "14"}
    outsider = post_deal(client, game_id, fields)
    assert outsider.status_code == 404  # a private league's game, to someone outside it
    assert "Ana" not in outsider.get_data(as_text=True)
    assert post_deal(auth.member("viewer"), game_id, fields).status_code == 403
    assert post_deal(client, 10**6, fields).status_code == 404
    assert deal_count(app, game_id) == 0
