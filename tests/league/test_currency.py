"""A league's currency, a league setting (issue 37): every amount its pages show is
written in it, as Babel writes it in the page's language; the API and the exports keep
their decimal strings, and no amount changes with it. A league left at Canadian dollars
(NULL, as after the upgrade) writes its pages exactly as before."""

import json
import re

import pytest

from scorekeeper.models import League, db
from tests.conftest import Api, make_token, text_of

LINK = re.compile(r'class="share-link" href="http://localhost(/s/[A-Za-z0-9_-]+)"')
#: What differs between two renderings of one page in one session: the forms' tokens.
TOKENS = re.compile(r'(name="(?:csrf_token|token)"[^>]*value=")[^"]*"')


def _settings(table, currency: str, zone: str = ""):
    return table.client.post(
        "/leagues/our-table/settings",
        data={
            "league-name": "Our table",
            "league-time_zone": zone,
            "league-currency": currency,
            "league-submit": "1",
        },
    )


def _currency_of(app) -> str | None:
    with app.app_context():
        found = db.session.scalar(db.select(League.currency).where(League.slug == "our-table"))
        db.session.remove()
    return found


@pytest.fixture
def paid_and_owed(table):
    """Ana beats Ben 1,590 to 260 at $1–$3 (a skunk: Ben pays $32.00); Ben's seat link."""
    game_id = table.start_game()
    response = table.client.post(f"/games/{game_id}/seats/1/share")
    assert response.status_code == 201
    found = LINK.search(response.get_data(as_text=True))
    assert found
    for scores in ((290, 160), (600, 50), (700, 50)):
        assert table.record(game_id, 0, scores).status_code in (200, 302)
    table.page(game_id)  # the deals' "saved" messages, shown once
    return game_id, found.group(1)


def _league_pages(game_id: int) -> list[str]:
    return [
        f"/games/{game_id}",
        f"/games/{game_id}/receipt",
        "/leagues/our-table",
        "/leagues/our-table/owes",
        "/leagues/our-table/owes/2/1",
        "/leagues/our-table/players/1",
        "/leagues/our-table/head-to-head?first=1&second=2",
        "/leagues/our-table/games",
        "/leagues/our-table/games/new",
        "/",
    ]


def _rendered(client, paths: list[str]) -> dict[str, str]:
    pages = {}
    for path in paths:
        response = client.get(path, follow_redirects=True)
        assert response.status_code == 200, path
        pages[path] = TOKENS.sub(r'\1…"', response.get_data(as_text=True))
    return pages


def test_a_league_in_euros_writes_every_amount_in_euros(app, table, paid_and_owed):
    game_id, _ben = paid_and_owed
    assert _settings(table, "EUR").status_code == 302
    assert _currency_of(app) == "EUR"
    game = text_of(table.page(game_id))
    assert "€32.00" in game
    assert "$32" not in game
    standings = text_of(table.client.get("/leagues/our-table").get_data(as_text=True))
    assert "+€32.00" in standings
    assert "−€32.00" in standings
    owes = text_of(table.client.get("/leagues/our-table/owes").get_data(as_text=True))
    assert "Ben owes Ana €32.00 over 1 game" in owes
    balance = text_of(table.client.get("/leagues/our-table/owes/2/1").get_data(as_text=True))
    assert "Ben owes Ana €32.00" in balance
    new_game = table.client.get("/leagues/our-table/games/new").get_data(as_text=True)
    assert "Small stake (€ per 100 points)" in new_game
    assert "e.g. 1 for €1–€3, or 0.25" in new_game
    for path in _league_pages(game_id):
        assert "$" not in text_of(table.client.get(path).get_data(as_text=True)), path
    table.client.set_cookie("lang", "fr")
    owes = table.client.get("/leagues/our-table/owes").get_data(as_text=True)
    assert "<strong>Ben doit 32,00\xa0€ à Ana</strong> sur 1 partie" in owes
    new_game = table.client.get("/leagues/our-table/games/new").get_data(as_text=True)
    assert "Petite mise (€ par 100 points)" in new_game
    assert "p. ex. 1 pour 1\xa0€ – 3\xa0€, ou 0,25" in new_game


def test_the_seat_link_its_receipt_and_the_paypal_amount_follow_the_currency(
    app, table, paid_and_owed
):
    game_id, ben = paid_and_owed
    ana = LINK.search(table.client.post(f"/games/{game_id}/seats/0/share").get_data(as_text=True))
    assert ana
    phone = app.test_client()
    assert phone.post(ana.group(1) + "/payment", data={"kind": "paypal", "handle": "AnaT"})
    assert _settings(table, "GBP").status_code == 302
    bill = app.test_client().get(ben).get_data(as_text=True)
    assert 'href="https://paypal.me/AnaT/32.00GBP"' in bill
    assert "Pay £32.00 on PayPal" in bill
    share_text = re.search(r'id="share-text">(.*?)</p>', bill, re.S)
    assert share_text
    assert share_text.group(1).startswith("Ben owes Ana £32.00 for the game of ")
    assert "game £3.00, difference £13.00, doubled for the skunk." in share_text.group(1)
    receipt = app.test_client().get(ben + "/receipt", follow_redirects=True)
    assert "Ben owes Ana £32.00." in receipt.get_data(as_text=True)
    french = app.test_client()
    french.set_cookie("lang", "fr")
    bill = french.get(ben).get_data(as_text=True)
    assert "Ben doit 32,00\xa0£ à Ana pour la partie du " in bill


def test_the_json_and_the_exports_are_the_same_in_any_currency(app, table, paid_and_owed):
    game_id, _ben = paid_and_owed
    api = Api(app, make_token(app))
    paths = [
        f"/api/v1/games/{game_id}",
        f"/api/v1/games/{game_id}/history",
        "/api/v1/leagues/our-table",
        "/api/v1/leagues/our-table/standings",
        "/api/v1/leagues/our-table/games",
    ]

    def answers():
        found = {path: api.get(path).get_json() for path in paths}
        found["csv"] = table.client.get("/leagues/our-table/export.csv").get_data(as_text=True)
        exported = json.loads(table.client.get("/leagues/our-table/export.json").get_data())
        exported.pop("exported_at")
        found["json"] = exported
        return found

    before = answers()
    assert before[f"/api/v1/games/{game_id}"]["settlement"]["total"] == "32.00"
    assert set(before["/api/v1/leagues/our-table"]) == {"slug", "name", "public", "players"}
    assert _settings(table, "CHF").status_code == 302
    assert answers() == before


def test_a_league_left_at_cad_writes_its_pages_exactly_as_before(app, table, paid_and_owed):
    """A league never set (NULL, as every league after the upgrade) and one set to CAD write
    the same bytes, in English and in French, as the page snapshots did before (scripts)."""
    game_id, ben = paid_and_owed
    paths = [*_league_pages(game_id), ben, ben + "/receipt"]
    for language in ("en", "fr"):
        table.client.set_cookie("lang", language)
        assert _currency_of(app) is None
        unset = _rendered(table.client, paths)
        assert ("$32.00" if language == "en" else "32,00\xa0$") in unset[f"/games/{game_id}"]
        assert _settings(table, "CAD").status_code == 302
        assert _currency_of(app) == "CAD"
        table.client.get("/leagues/our-table")  # the flash of the saved settings, shown
        assert _rendered(table.client, paths) == unset
        with app.app_context():
            db.session.execute(db.update(League).values(currency=None))
            db.session.commit()
            db.session.remove()


def test_the_settings_offer_the_currencies_by_name_in_the_pages_language(app, table):
    page = table.client.get("/leagues/our-table/settings").get_data(as_text=True)
    assert '<option value="EUR">Euro (EUR)</option>' in page
    assert '<option value="CAD">Canadian Dollar (CAD)</option>' in page
    assert _settings(table, "USD").status_code == 302
    table.client.set_cookie("lang", "fr")
    page = table.client.get("/leagues/our-table/settings").get_data(as_text=True)
    assert '<option selected value="USD">Dollar des États-Unis (USD)</option>' in page
    assert "Devise de ses montants" in page


@pytest.mark.parametrize("typed", ["XYZ", "JPY", "eur", "", "€"])
def test_a_currency_not_in_the_list_is_refused_beside_its_field(app, table, typed):
    assert _settings(table, "EUR").status_code == 302
    response = _settings(table, typed)
    if typed == "":
        # Sent empty, as by a form without the field: the default.
        assert response.status_code == 302
        assert _currency_of(app) == "CAD"
        return
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    field = page[page.index('<label for="league-currency">') :]
    assert "Choose a currency from the list." in field[: field.index("</div>")]
    assert _currency_of(app) == "EUR"


def test_saving_the_rule_defaults_keeps_the_currency(app, table):
    assert _settings(table, "AUD", zone="Australia/Sydney").status_code == 302
    defaults = {
        "defaults-preset": "standard",
        "defaults-target": "1200",
        "defaults-skunk": "multiply",
        "defaults-difference": "round",
        "defaults-small": "2",
        "defaults-save_defaults": "1",
    }
    assert table.client.post("/leagues/our-table/settings", data=defaults).status_code == 302
    assert _currency_of(app) == "AUD"
    new_game = table.client.get("/leagues/our-table/games/new").get_data(as_text=True)
    assert "A$2.00–A$6.00" in new_game
