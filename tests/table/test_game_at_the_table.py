"""The game page at the table without a script: where a saved deal's page opens, two
phones on one game, a correction from an out-of-date page, taking back the last deal."""

import html
import re

from scorekeeper.models import AuditEvent, Game, db


def version_on(page: str) -> str:
    """The version the page's deal form carries."""
    found = re.search(r'<input id="version" name="version" type="hidden" value="(\d+)">', page)
    assert found, "no version in the deal form"
    return found.group(1)


def deal_form(page: str) -> str:
    start = page.index('id="deal-form"')
    return page[start : page.index("</form>", start)]


def deal_count(app, game_id: int) -> int:
    with app.app_context():
        return db.session.get(Game, game_id).deal_count


def test_a_saved_deal_opens_the_page_at_the_totals_and_the_next_deal(table):
    game_id = table.start_game()
    response = table.record(game_id, 1, (140, 350))
    assert response.headers["Location"] == f"/games/{game_id}#play"
    page = table.page(game_id)
    play = page[page.index('id="play"') : page.index('class="scorecard')]
    # The anchor holds the message, both totals, who deals next and the whole deal form.
    for part in ("Deal 1 saved.", 'class="summary"', "Ben</strong> deals next", 'id="score1"'):
        assert part in play, part
    # Ready for the next tap: who went out (a page opened at #play focuses the play area).
    assert re.search(r'<input autofocus id="out-0"[^>]*value="0"', play)
    assert 'id="play" class="play" tabindex="-1"' in page


def test_a_deal_typed_on_an_out_of_date_phone_and_already_recorded_is_not_recorded_twice(
    table, app
):
    game_id = table.start_game()
    table.record(game_id, 1, (140, 350))
    phone_b = version_on(table.page(game_id))  # phone B shows deal 2's form
    assert table.record(game_id, 0, (290, 160)).status_code == 302  # phone A saves deal 2
    refused = table.record(game_id, 0, (290, 160), version=phone_b)
    assert refused.status_code == 409
    page = refused.get_data(as_text=True)
    assert "Deal 2, 290 / 160, was recorded from another phone (admin, " in page
    assert "Yours, 290 / 160, is the same deal: it is already on the card as deal 2." in page
    form = deal_form(page)
    assert 'value="290"' in form  # what was typed is kept…
    buttons = re.findall(r"<button[^>]*>\s*([^<]*?)\s*</button>", form)
    # …but the first button (the one Enter presses) keeps the card as it is, and no button
    # is a plain Save: recording it again is a choice that names the deal.
    assert buttons[-2:] == ["Discard mine", "Record it again as deal 3"]
    assert "Save deal" not in form
    assert deal_count(app, game_id) == 2
    # The same tap sent once more from phone B's old page is refused again.
    assert table.record(game_id, 0, (290, 160), version=phone_b).status_code == 409
    discarded = table.record(game_id, 0, (290, 160), version=version_on(page), discard="1")
    assert discarded.headers["Location"] == f"/games/{game_id}#play"
    assert "Your deal was not recorded." in table.page(game_id)
    assert deal_count(app, game_id) == 2
    # Recording it again is possible, knowingly, from the page that asked.
    again = table.record(game_id, 0, (290, 160), version=version_on(page))
    assert again.status_code == 302
    assert deal_count(app, game_id) == 3


def test_a_different_deal_from_an_out_of_date_phone_says_what_changed_and_asks(table, app):
    game_id = table.start_game()
    phone_b = version_on(table.page(game_id))
    table.record(game_id, 1, (140, 350))
    refused = table.record(game_id, 0, (290, 160), version=phone_b)
    assert refused.status_code == 409
    page = refused.get_data(as_text=True)
    assert "Deal 1, 140 / 350, was recorded from another phone" in page
    assert "Yours, 290 / 160, is below, not saved: save it as the next deal" in page
    assert "same deal" not in page
    buttons = re.findall(r"<button[^>]*>\s*([^<]*?)\s*</button>", deal_form(page))
    assert buttons[-2:] == ["Discard mine", "Save mine as deal 2"]
    assert deal_count(app, game_id) == 1


def test_a_deal_refused_because_another_phone_ended_the_game_says_so(table):
    game_id = table.start_game()
    phone_b = version_on(table.page(game_id))
    table.record(game_id, 0, (1250, 0), confirm=True)
    refused = table.record(game_id, 0, (290, 160), version=phone_b)
    assert refused.status_code == 409
    page = refused.get_data(as_text=True)
    assert "Deal 1, 1,250 / 0, was recorded from another phone" in page
    assert "Yours, 290 / 160, was not recorded: the game is over." in page
    assert 'id="deal-form"' not in page


def test_a_refused_correction_keeps_what_was_typed_on_its_fix_page(table, app, wikipedia_card):
    game_id = table.start_game()
    for out, scores, stars in wikipedia_card[:3]:
        table.record(game_id, out, scores, stars)
    fix_page = table.client.get(f"/games/{game_id}/deals/1").get_data(as_text=True)
    phone_b = version_on(fix_page)
    table.record(game_id, 0, (150, -50))  # phone A records deal 4
    typed = {"out": "1", "score0": "150", "score1": "350", "stars0": "0", "stars1": "0"}
    refused = table.client.post(f"/games/{game_id}/deals/1", data={**typed, "version": phone_b})
    assert refused.status_code == 409
    page = refused.get_data(as_text=True)
    assert "Fix deal 1" in page
    assert "Deal 4, 150 / −50, was recorded from another phone" in page
    assert 'value="150"' in deal_form(page)  # nothing typed is lost
    with app.app_context():
        assert db.session.get(Game, game_id).deals[0].score0 == 140
    # Saved again from that page, against the card as it is now.
    saved = table.client.post(
        f"/games/{game_id}/deals/1", data={**typed, "version": version_on(page)}
    )
    assert saved.status_code == 302
    with app.app_context():
        assert db.session.get(Game, game_id).deals[0].score0 == 150


def test_a_correction_refused_for_the_game_s_rules_stays_on_its_fix_page(
    table, app, wikipedia_card
):
    game_id = table.start_game()
    for out, scores, stars in wikipedia_card[:4]:
        table.record(game_id, out, scores, stars)
    typed = {"out": "0", "score0": "1290", "score1": "160", "confirm": "0 1290 160 0 0"}
    refused = table.client.post(f"/games/{game_id}/deals/2", data=typed)
    assert refused.status_code == 409
    page = refused.get_data(as_text=True)
    assert "would end at deal 2" in page
    assert "another phone" not in page  # nothing changed elsewhere: the rules refused it
    assert "Fix deal 2" in page
    assert 'value="1290"' in deal_form(page)


def test_the_deal_that_ended_the_game_is_taken_back_below_the_settlement_asked_once(table, app):
    game_id = table.start_game()
    table.record(game_id, 0, (140, 350))
    table.record(game_id, 0, (1250, 150), confirm=True)  # a typo for 125, confirmed
    page = table.page(game_id)
    # Below the settlement, a question that opens (no script needed), then the answer.
    assert page.index('class="settlement card"') < page.index('<details class="undo-end">')
    start = page.index('<details class="undo-end">')
    question = page[start : page.index("</details>", start)]
    assert "<summary>Undo deal 2 (1,250 / 150)…</summary>" in question
    assert (
        "Taking it back puts the game in progress again: Ana's win and this settlement go."
        in html.unescape(question)
    )
    assert "Yes, take back deal 2: the game goes on" in question
    assert page.count("/undo") == 1
    response = table.client.post(f"/games/{game_id}/undo", data={"version": version_on_undo(page)})
    assert response.headers["Location"] == f"/games/{game_id}#play"
    page = table.page(game_id)
    assert "Deal 2 (1,250 / 150) was taken back: the game is in progress again." in page
    assert 'id="deal-form"' in page
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert (game.status, game.deal_count, game.winner_seat) == ("in_progress", 1, None)
        actions = db.session.scalars(
            db.select(AuditEvent.action).where(AuditEvent.game_id == game_id)
        ).all()
        assert actions[-2:] == ["deal_deleted", "game_reopened"]


def version_on_undo(page: str) -> str:
    found = re.search(
        r'class="undo">\s*<input[^>]*>\s*<input type="hidden" name="version" value="(\d+)"', page
    )
    assert found, "no undo form"
    return found.group(1)


def test_a_paid_game_keeps_its_last_deal(table, app):
    game_id = table.start_game()
    table.record(game_id, 0, (1250, 150), confirm=True)
    table.client.post(f"/games/{game_id}/paid", data={})
    page = table.page(game_id)
    assert 'class="undo"' not in page
    refused = table.client.post(f"/games/{game_id}/undo", data={})
    assert refused.status_code == 409
    assert deal_count(app, game_id) == 1


def test_a_deal_for_a_finished_game_is_refused_without_blaming_another_phone(table):
    game_id = table.start_game()
    table.record(game_id, 0, (1250, 0), confirm=True)
    refused = table.record(game_id, 0, (290, 160))  # no version: a script, an old form
    assert refused.status_code == 409
    page = refused.get_data(as_text=True)
    assert "The game is over: it takes no more deals." in page
    # (live.js's words, in hidden attributes after the card, are not said unless needed.)
    assert "another phone" not in page[: page.index('<div id="live"')]


def fix(table, game_id: int, number: int, **fields: str):
    """Post the Fix page of deal ``number`` with what it shows, ``fields`` changed."""
    page = table.client.get(f"/games/{game_id}/deals/{number}").get_data(as_text=True)
    shown = dict(re.findall(r'name="(score[01]|stars[01])"[^>]*value="([^"]*)"', deal_form(page)))
    out = re.search(
        r'name="out"[^>]*checked[^>]*value="([01])"|checked[^>]*name="out"[^>]*'
        r'value="([01])"',
        deal_form(page),
    )
    assert out, "the Fix page shows who went out"
    data = {"out": out.group(1) or out.group(2), **shown, "version": version_on(page), **fields}
    return table.client.post(f"/games/{game_id}/deals/{number}", data=data)


def test_a_fix_asks_again_only_about_a_value_it_changes(table, app):
    """1,005 was confirmed when deal 1 was saved: a fix that leaves it as it is, or changes
    only the other score, saves without asking; a new unusual value is asked about."""
    game_id = table.start_game()
    assert table.record(game_id, 0, (1005, 50), confirm=True).status_code == 302
    assert table.record(game_id, 1, (30, 60), (0, 1), confirm=True).status_code == 302
    unchanged = fix(table, game_id, 1)
    assert unchanged.status_code == 302, unchanged.get_data(as_text=True)
    other_score = fix(table, game_id, 1, score1="70")
    assert other_score.status_code == 302
    # Deal 2's star on 60 points was confirmed too; a second star is a new value.
    assert fix(table, game_id, 2, score0="35").status_code == 302
    asked = fix(table, game_id, 2, stars1="2")
    assert asked.status_code == 200
    assert "unusual" in asked.get_data(as_text=True)
    higher = fix(table, game_id, 1, score0="1010")
    assert higher.status_code == 200
    assert "1,010 is an unusually high deal score." in higher.get_data(as_text=True)
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert (game.deals[0].score0, game.deals[0].score1) == (1005, 70)
        assert (game.deals[1].score0, game.deals[1].stars1) == (35, 1)


def test_after_a_fix_the_address_is_the_game_page_s_own(table, app):
    game_id = table.start_game()
    table.record(game_id, 0, (140, 350))
    saved = fix(table, game_id, 1, score0="150")
    assert saved.status_code == 302
    assert saved.headers["Location"] == f"/games/{game_id}"
    page = table.client.get(saved.headers["Location"]).get_data(as_text=True)
    assert "Deal 1 corrected; every total after it is recomputed." in page
    assert re.search(r'id="deal-1".*?150', page, re.S)
    # The Fix page's script is told the same address, and never #play.
    fix_page = table.client.get(f"/games/{game_id}/deals/1").get_data(as_text=True)
    assert f'data-next="/games/{game_id}"' in deal_form(fix_page)


def test_a_deal_not_saved_says_why_in_a_code_a_script_reads(table):
    """Issue 22: the page answering a deal it did not save carries why, as data (the
    ``X-Refusal`` header and ``data-refusal`` on the play area), and marks its own words of
    the reason ``data-reason``; offline.js reads those, never the page's classes."""
    game_id = table.start_game()
    phone_b = version_on(table.page(game_id))
    asked = table.record(game_id, 0, (1250, 0))  # a big deal: asked about first
    assert (asked.status_code, asked.headers["X-Refusal"]) == (200, "confirm")
    page = asked.get_data(as_text=True)
    assert 'data-refusal="confirm"' in page
    assert '<div class="confirm" role="alert" data-reason>' in page
    invalid = table.record(game_id, 0, (290, 160), score1="x")
    assert (invalid.status_code, invalid.headers["X-Refusal"]) == (422, "invalid")
    assert re.search(r'<p class="error" id="score1-error" data-reason>', invalid.get_data(True))
    table.record(game_id, 1, (140, 350))
    stale = table.record(game_id, 0, (290, 160), version=phone_b)
    assert (stale.status_code, stale.headers["X-Refusal"]) == (409, "stale")
    assert '<section class="stale card" role="alert" data-reason' in stale.get_data(True)
    # A page that refuses nothing says nothing of it.
    shown = table.page(game_id)
    assert "data-refusal" not in shown
    saved = table.record(game_id, 0, (1250, 0), confirm=True, version=version_on(shown))
    assert saved.status_code == 302
    assert "X-Refusal" not in saved.headers
    over = table.record(game_id, 0, (290, 160))  # the game is over
    assert (over.status_code, over.headers["X-Refusal"]) == (409, "conflict")
    assert '<p class="flash flash-error" data-reason>' in over.get_data(True)
