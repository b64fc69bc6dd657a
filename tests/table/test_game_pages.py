"""The table through its pages: a whole game recorded deal by deal, then fixed."""

import re

from scorekeeper.models import Deal, Game, Player, db
from tests.conftest import section, text_of


def test_home_page_says_what_to_do_and_links_to_a_new_game(table):
    page = table.client.get("/").get_data(as_text=True)
    assert "Score a game of Mille" in page
    assert 'href="/leagues/our-table/games/new"' in page


def test_home_page_asks_a_visitor_to_sign_in_to_keep_score(client):
    page = client.get("/").get_data(as_text=True)
    assert "Sign in to keep score" in page


def test_wikipedia_score_card_recorded_through_the_pages(table, wikipedia_card):
    game_id = table.start_game()
    for out, scores, stars in wikipedia_card:
        assert table.record(game_id, out, scores, stars).status_code == 302
    page = table.page(game_id)
    card = text_of(section(page, "scorecard"))
    # Deal score and running total per player, as a screen reader says them.
    assert "4 150 out , went out; total 800 −50 ; total 540 (chapeau)" in card
    assert "7 125 out , went out; total 1,275 150 ; total 1,180" in card
    assert '<span class="circled">540</span><span class="sr"> (chapeau)</span>' in page
    assert page.count('<span class="circled">') == 1
    # A's star in deal 3 (650) and B's in deal 5 (840), each also said in words.
    assert re.search(
        r'650<span class="stars" aria-hidden="true">★</span><span class="sr">, 1 star', page
    )
    assert re.search(
        r'840<span class="stars" aria-hidden="true">★</span><span class="sr">, 1 star', page
    )
    settlement = text_of(section(page, "settlement"))
    assert "Game $3.00" in settlement
    assert "rounded 1,300 − 1,200: 1 × $1.00 $1.00" in settlement
    assert "Ana's naturals 1 × $3.00 $3.00" in settlement
    assert "Ben's chapeaux 1 × $3.00 $3.00" in settlement
    assert "Total $10.00" in settlement
    assert "Ben pays Ana $10.00" in settlement
    assert 'id="deal-form"' not in page  # a finished game takes no more deals


def test_each_row_shows_deal_score_and_running_total(table, wikipedia_card):
    game_id = table.start_game()
    for out, scores, stars in wikipedia_card[:4]:
        table.record(game_id, out, scores, stars)
    rows = re.findall(r'<tr id="deal-(\d+)">(.*?)</tr>', table.page(game_id), re.S)
    totals = [
        re.findall(r'<span class="total">\s*(?:<span class="circled">)?([−\d,]+)', row)
        for _, row in rows
    ]
    assert totals == [["140", "350"], ["430", "510"], ["650", "590"], ["800", "540"]]


def test_game_page_shows_progress_next_dealer_and_marks_in_words(table):
    game_id = table.start_game(first_dealer="1")
    page = table.page(game_id)
    assert "Deal 1: <strong>Ben</strong> deals next." in page
    table.record(game_id, 0, (600, -20), (1, 0))
    page = table.page(game_id)
    assert "Deal 2: <strong>Ana</strong> deals next." in page
    assert 'aria-valuetext="600 of 1,200"' in page
    assert 'class="bar w50"' in page
    summary = text_of(section(page, "summary"))
    assert "Ana Total 600 1 star ★ · 0 chapeaux" in summary
    assert "Ben Total −20 0 stars · 1 chapeau" in summary
    assert "<svg" in page
    assert "Running totals over 1 deals" in page


def test_new_game_keeps_its_own_copy_of_rules_and_stakes(table, app):
    game_id = table.start_game(
        preset="progressive", target="2000", progressive="y", skunk="mark", small="0.25", big="0.75"
    )
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert (game.target, game.progressive, game.skunk) == (2000, True, "mark")
        assert (game.small_stake, game.big_stake) == (25, 75)
        assert game.preset == "progressive"


def test_big_stake_defaults_to_three_times_the_small_one(table, app):
    game_id = table.start_game(small="2")
    with app.app_context():
        assert db.session.get(Game, game_id).stakes.big == 600


def test_a_small_stake_too_big_to_triple_asks_for_the_big_one(table, app):
    response = table.post_new_game(small="5000", big="")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Three times the small stake is more than $10,000.00: enter the big stake." in page
    assert 'value="5000"' in page
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Game.id))) == 0


def test_a_settlement_past_two_to_the_31_cents_is_kept_and_shown(table, app):
    """Money columns are 64 bits: PostgreSQL's ``integer`` refused this game's end."""
    game_id = table.start_game(
        preset="progressive",
        target="2000",
        progressive="y",
        skunk="mark",
        small="10000",
        big="10000",
    )
    for _ in range(5):
        response = table.record(game_id, 0, (15, -1140), (14, 0), confirm=True)
        assert response.status_code == 302
    response = table.record(game_id, 0, (2000, 0), confirm=True)
    assert response.status_code == 302
    # 2,075 to −5,700: a difference of 2,100 + 5,700 = 78 small stakes, then big stakes:
    # the game 1, Ana's 70 progressive naturals 1 + 2 + … + 70 = 2,485, Ben's 5 chapeaux
    # 1 + … + 5 = 15, and the skunk mark 1 — 2,580 × $10,000.
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert (game.total0, game.total1, game.winner_seat) == (2075, -5700, 0)
        assert game.amount_due == 2_580_000_000 > 2**31
    assert "Ben pays Ana $25,800,000.00" in text_of(table.page(game_id))
    owes = table.client.get("/leagues/our-table/owes").get_data(as_text=True)
    assert "$25,800,000.00" in owes


def test_edited_options_make_custom_rules(table, app):
    game_id = table.start_game(target="1500")
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game.preset is None
        assert game.target == 1500
    assert "Custom rules · to 1,500" in table.page(game_id)


def test_new_players_are_created_and_existing_ones_found_ignoring_case(table, app):
    table.start_game("Ana", "Ben")
    table.start_game("  ana ", "Cleo")
    with app.app_context():
        names = sorted(p.name for p in db.session.scalars(db.select(Player)))
    assert names == ["Ana", "Ben", "Cleo"]


def test_apply_preset_without_javascript_fills_every_option(table):
    response = table.client.post(
        "/leagues/our-table/games/new",
        data={
            "player0": "Ana",
            "player1": "Ben",
            "preset": "progressive",
            "apply_preset": "1",
            "target": "1200",
            "skunk": "multiply",
            "difference": "round",
            "small": "2",
        },
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert 'value="2000"' in page
    assert re.search(r'<input checked id="progressive"', page)
    assert re.search(r'<input checked id="skunk-1" name="skunk" type="radio" value="mark"', page)
    assert 'value="Ana"' in page
    assert 'value="2"' in page


def test_a_preset_picked_but_not_filled_in_is_filled_in_and_said_not_ignored(table, app):
    """Without JavaScript, tapping Progressive leaves Standard's options below it; starting
    then shows Progressive's options to check instead of a quiet Standard game."""
    fields = {"preset": "progressive", "small": "2"}  # Standard's options still below
    response = table.post_new_game(**fields)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "The options below now follow Progressive" in text_of(page)
    assert 'value="2000"' in page
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Game.id))) == 0
    # The options as shown now are Progressive's: starting again starts that game.
    progressive = {**fields, "target": "2000", "progressive": "y", "skunk": "mark"}
    game_id = table.start_game(**progressive)
    with app.app_context():
        assert db.session.get(Game, game_id).preset == "progressive"
    # Options changed by hand are the rules, whatever preset is still picked.
    game_id = table.start_game(**{**fields, "target": "1500"})
    with app.app_context():
        assert (db.session.get(Game, game_id).target, db.session.get(Game, game_id).preset) == (
            1500,
            None,
        )


def test_first_dealer_drawn_at_random_is_a_seat(table, app):
    game_id = table.start_game(first_dealer="random")
    with app.app_context():
        assert db.session.get(Game, game_id).first_dealer in (0, 1)


def test_reload_after_saving_does_not_record_twice(table, app):
    game_id = table.start_game()
    response = table.record(game_id, 0, (100, 50), token="same-token")
    assert response.status_code == 302
    again = table.record(game_id, 0, (100, 50), token="same-token")
    assert again.status_code == 302
    with app.app_context():
        assert db.session.get(Game, game_id).deal_count == 1
    follow = table.client.get(again.headers["Location"]).get_data(as_text=True)
    assert "already saved" in follow


def test_a_page_out_of_date_is_refused_with_the_current_card(table, app):
    game_id = table.start_game()
    assert table.record(game_id, 0, (100, 50), version="1").status_code == 302
    response = table.record(game_id, 0, (100, 50), version="1")  # the card is at version 2 now
    assert response.status_code == 409
    assert "Not saved: the score card changed on another phone" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Game, game_id).deal_count == 1


def test_finished_game_takes_no_more_deals(table, app):
    game_id = table.start_game()
    table.record(game_id, 0, (1200, 0), confirm=True)
    response = table.record(game_id, 0, (100, 50))
    assert response.status_code == 409
    assert "takes no more deals" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Game, game_id).deal_count == 1


def test_tie_at_the_target_plays_on(table):
    game_id = table.start_game()
    table.record(game_id, 0, (1200, 1200), confirm=True)
    page = table.page(game_id)
    assert 'id="deal-form"' in page
    assert "Settlement" not in page


def test_fixing_a_past_deal_recomputes_totals_and_the_settlement(table, app, wikipedia_card):
    game_id = table.start_game()
    for out, scores, stars in wikipedia_card:
        table.record(game_id, out, scores, stars)
    form = table.client.get(f"/games/{game_id}/deals/2").get_data(as_text=True)
    assert 'value="290"' in form
    assert 'value="160"' in form
    response = table.client.post(
        f"/games/{game_id}/deals/2",
        data={
            "out": "0",
            "score0": "190",
            "score1": "160",
            "stars0": "0",
            "stars1": "0",
        },
    )
    assert response.status_code == 302
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert (game.total0, game.total1) == (1175, 1180)
        assert game.status == "in_progress"  # nobody has reached 1,200 any more
        assert game.amount_due is None
    page = table.page(game_id)
    assert "Settlement" not in page
    assert 'id="deal-form"' in page


def test_a_fix_that_would_end_the_game_before_later_deals_is_refused(table, app, wikipedia_card):
    game_id = table.start_game()
    for out, scores, stars in wikipedia_card[:4]:
        table.record(game_id, out, scores, stars)
    response = table.client.post(
        f"/games/{game_id}/deals/2",
        data={
            "out": "0",
            "score0": "1290",
            "score1": "160",
            "stars0": "0",
            "stars1": "0",
            "confirm": "0 1290 160 0 0",
        },
    )
    assert response.status_code == 409
    assert "would end at deal 2" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Game, game_id).total0 == 800


def test_deleting_a_deal_renumbers_the_later_ones(table, app, wikipedia_card):
    game_id = table.start_game()
    for out, scores, stars in wikipedia_card[:4]:
        table.record(game_id, out, scores, stars)
    response = table.client.post(f"/games/{game_id}/deals/2/delete", data={})
    assert response.status_code == 302
    with app.app_context():
        deals = db.session.scalars(
            db.select(Deal).where(Deal.game_id == game_id).order_by(Deal.number)
        ).all()
        assert [(d.number, d.score0) for d in deals] == [(1, 140), (2, 220), (3, 150)]
        assert db.session.get(Game, game_id).total0 == 510


def test_undo_takes_back_the_last_deal_with_one_tap(table, app):
    game_id = table.start_game()
    table.record(game_id, 0, (100, 50))
    table.record(game_id, 1, (40, 200))
    assert "Undo deal 2" in table.page(game_id)
    response = table.client.post(f"/games/{game_id}/undo", data={})
    assert response.status_code == 302
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert (game.deal_count, game.total0, game.total1) == (1, 100, 50)
    # Which deal went, with its scores: one tap is easy to make by mistake.
    assert "Deal 2 (40 / 200) was taken back." in table.page(game_id)


def test_undo_on_an_empty_card_says_there_is_nothing_to_undo(table):
    game_id = table.start_game()
    response = table.client.post(f"/games/{game_id}/undo", data={})
    assert response.status_code == 409
    assert "no deal to undo" in response.get_data(as_text=True)


def test_deleting_the_winning_deal_puts_the_game_back_in_progress(table, app):
    game_id = table.start_game()
    table.record(game_id, 0, (1250, 0), confirm=True)
    table.client.post(f"/games/{game_id}/undo", data={})
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert (game.status, game.winner_seat, game.finished_at) == ("in_progress", None, None)


def test_unknown_games_and_deals_are_404(table):
    client = table.client
    assert client.get("/games/999").status_code == 404
    game_id = table.start_game()
    assert client.get(f"/games/{game_id}/deals/1").status_code == 404
    assert client.post(f"/games/{game_id}/deals/3/delete").status_code == 404
    assert client.get("/leagues/nope/players").status_code == 404


def test_settlement_page_for_a_skunk_shows_the_multiplier(table):
    game_id = table.start_game()
    table.record(game_id, 0, (1250, 590), confirm=True)
    settlement = text_of(section(table.page(game_id), "settlement"))
    assert "Skunk ×2" in settlement
    assert "every payment doubled ($10.00 × 2 = $20.00) +$10.00" in settlement
    assert "Ben pays Ana $20.00" in settlement


def test_progressive_settlement_shows_the_arithmetic(table):
    game_id = table.start_game(preset="progressive", target="2000", progressive="y", skunk="mark")
    table.record(game_id, 0, (1000, 900), (3, 0))
    table.record(game_id, 0, (1100, -40), confirm=True)
    settlement = text_of(section(table.page(game_id), "settlement"))
    assert "Ana's naturals 3: $3.00 + $6.00 + $9.00 $18.00" in settlement
    assert "Ben's chapeaux 1: $3.00 $3.00" in settlement


def test_player_names_are_escaped(table):
    game_id = table.start_game("<script>alert(1)</script>", '"><img src=x onerror=alert(1)>')
    page = table.page(game_id)
    assert "<script>alert(1)</script>" not in page
    assert "<img src=x onerror" not in page
    assert "&lt;script&gt;" in page


def test_ids_beyond_any_database_integer_are_404(table):
    assert table.client.get("/games/99999999999999999999").status_code == 404
    assert table.client.post("/games/9999999999999/deals", data={}).status_code == 404
    assert table.client.get("/games/1/deals/99999999999999999999").status_code == 404


def ids_used_twice(page: str) -> list[str]:
    ids = re.findall(r'\sid="([^"]+)"', page)
    return sorted({name for name in ids if ids.count(name) > 1})


def test_no_id_is_used_twice_on_a_page_of_many_forms(table, make_app):
    """Each form on a page (deal, undo, payment; a season's Remove) carries its own CSRF
    token and version, without ids that would repeat."""
    with_csrf = make_app(WTF_CSRF_ENABLED=True).test_client()  # as served: tokens drawn
    with_csrf.set_cookie("session", table.client.get_cookie("session").value)

    def page(path: str) -> str:
        response = with_csrf.get(path)
        assert response.status_code == 200
        html = response.get_data(as_text=True)
        assert 'name="csrf_token"' in html
        return html

    game_id = table.start_game()
    table.record(game_id, 0, (100, 50))
    table.record(game_id, 1, (50, 100))
    assert "Undo deal 2" in (playing := page(f"/games/{game_id}"))
    assert ids_used_twice(playing) == []
    assert "Delete deal 1" in (fix := page(f"/games/{game_id}/deals/1"))
    assert ids_used_twice(fix) == []
    table.record(game_id, 0, (1200, 0), confirm=True)
    assert "Not paid yet." in (finished := page(f"/games/{game_id}"))
    assert ids_used_twice(finished) == []
    for name, starts in (("Spring", "2026-03-01"), ("Fall", "2026-09-01")):
        table.client.post(
            "/leagues/our-table/seasons",
            data={"name": name, "starts_on": starts, "ends_on": starts[:5] + "12-31"},
        )
    assert "Fall" in (seasons := page("/leagues/our-table/seasons"))
    assert ids_used_twice(seasons) == []


def test_once_paid_the_settlement_says_the_loser_paid(table):
    game_id = table.start_game()
    table.record(game_id, 0, (1250, 50), confirm=True)
    assert "Ben pays Ana $" in text_of(table.page(game_id))
    assert table.client.post(f"/games/{game_id}/paid").status_code == 302
    paid = text_of(table.page(game_id))
    assert "Ben paid Ana $" in paid
    assert "Ben pays Ana" not in paid


def test_a_game_row_says_when_it_was_played_and_whether_it_is_paid(table, app):
    finished, playing = table.start_game(), table.start_game("Cleo", "Dan")
    table.record(finished, 0, (1250, 50), confirm=True)
    table.record(playing, 0, (100, 50))
    with app.app_context():
        days = {g: f"{db.session.get(Game, g).created_at:%Y-%m-%d}" for g in (finished, playing)}

    def rows() -> str:
        return text_of(table.client.get("/leagues/our-table/games").get_data(as_text=True))

    assert f"{days[playing]} · in progress · 1 deal" in rows()
    # The game page says where and when, and leads back to its league.
    assert f"Our table · {days[playing]}" in text_of(table.page(playing))
    assert 'href="/leagues/our-table">Our table</a>' in table.page(playing)
    assert re.search(rf"{days[finished]} · Ana won · \$\d+\.\d\d, not paid", rows())
    table.client.post(f"/games/{finished}/paid")
    assert re.search(rf"{days[finished]} · Ana won · \$\d+\.\d\d, paid", rows())
