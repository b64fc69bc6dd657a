"""The settlement on the game page adds up: every amount in its column is a line of the sum."""

import json
import re

from tests.conftest import section, text_of

#: The skunk of issue 13, Standard $1–$3: Ana 1,300 with a star, Ben 0 after two chapeaux.
#: Game $3 + difference $13 + naturals $3 + chapeaux $6 = $25, doubled: $50.
SKUNK_CARD = [
    (0, (300, -100), (1, 0)),
    (0, (400, -50), (0, 0)),
    (0, (600, 150), (0, 0)),
]


def amounts(settlement_html: str) -> list[str]:
    """The amount column, top to bottom."""
    cells = re.findall(r'<td class="amount">(.*?)</td>', settlement_html)
    return [text_of(cell).strip() for cell in cells]


def cents(amount: str) -> int:
    """``$13.00``, ``+$25.00``, ``13,00 $`` → 1300."""
    digits = re.sub(r"[^0-9]", "", amount)
    return int(digits)


def play(table, card, **fields):
    game_id = table.start_game(**fields)
    for out, scores, stars in card:
        response = table.record(game_id, out, scores, stars, confirm=True)
        assert response.status_code == 302, response.get_data(as_text=True)
    return game_id


def test_a_doubled_settlement_lists_its_subtotal_and_what_the_skunk_adds(table):
    game_id = play(table, SKUNK_CARD)
    settlement = section(table.page(game_id), "settlement")
    words = text_of(settlement)
    assert amounts(settlement) == [
        "$3.00",
        "$13.00",
        "$3.00",
        "$6.00",
        "$25.00",
        "+$25.00",
        "$50.00",
    ]
    assert "Subtotal $25.00" in words
    assert (
        "Skunk ×2 Ben finished below 600: every payment doubled ($25.00 × 2 = $50.00) +$25.00"
        in words
    )
    assert "Total $50.00" in words
    # The column adds up: the lines make the subtotal, subtotal and skunk make the total.
    column = [cents(amount) for amount in amounts(settlement)]
    assert sum(column[:4]) == column[4]
    assert column[4] + column[5] == column[6]


def test_a_tripled_settlement_adds_twice_the_subtotal(table):
    game_id = play(table, [(0, (1250, -60), (0, 0))])
    settlement = section(table.page(game_id), "settlement")
    # Game $3, difference 1,300 − (−100) = $14, Ben's chapeau $3: $20, tripled: $60.
    assert amounts(settlement) == ["$3.00", "$14.00", "$3.00", "$20.00", "+$40.00", "$60.00"]
    assert "every payment tripled ($20.00 × 3 = $60.00)" in text_of(settlement)


def test_without_a_multiplier_there_is_no_subtotal_row(table, wikipedia_card):
    game_id = play(table, wikipedia_card)
    settlement = section(table.page(game_id), "settlement")
    assert "line-subtotal" not in settlement
    assert amounts(settlement) == ["$3.00", "$1.00", "$3.00", "$3.00", "$10.00"]


def test_the_mark_rule_skunk_is_a_line_of_its_own_and_adds_up(table):
    game_id = play(
        table,
        [(0, (1000, 900), (3, 0)), (0, (1100, -40), (0, 0))],
        preset="progressive",
        target="2000",
        progressive="y",
        skunk="mark",
    )
    settlement = section(table.page(game_id), "settlement")
    # 2,100 − 900 (rounded): $12; game $3; naturals $3 + $6 + $9; chapeau $3; skunk mark $3.
    column = [cents(amount) for amount in amounts(settlement)]
    assert "line-subtotal" not in settlement
    assert sum(column[:-1]) == column[-1] == 3900


def test_a_progressive_game_with_the_multiply_rule_shows_the_subtotal(table):
    game_id = play(
        table,
        [(0, (1000, 500), (2, 0)), (0, (1100, 400), (0, 0))],
        preset="progressive",
        target="2000",
        progressive="y",
        skunk="multiply",
    )
    settlement = section(table.page(game_id), "settlement")
    # Game $3, difference 2,100 − 900 = $12, naturals $3 + $6: $24, doubled: $48.
    assert amounts(settlement) == ["$3.00", "$12.00", "$9.00", "$24.00", "+$24.00", "$48.00"]
    assert "Ana's naturals 2: $3.00 + $6.00 $9.00" in text_of(settlement)


def test_the_same_settlement_in_french(table):
    game_id = play(table, SKUNK_CARD)
    table.client.set_cookie("lang", "fr")
    settlement = section(table.page(game_id), "settlement")
    words = text_of(settlement)
    assert amounts(settlement) == [
        "3,00 $",
        "13,00 $",
        "3,00 $",
        "6,00 $",
        "25,00 $",
        "+25,00 $",
        "50,00 $",
    ]
    assert "Sous-total 25,00 $" in words
    assert "(25,00 $ × 2 = 50,00 $) +25,00 $" in words
    assert "Total 50,00 $" in words


#: What the API answered for SKUNK_CARD before the page showed a subtotal (issue 13): the
#: contract of API.md, line amounts before the multiplier, the total after it.
SKUNK_SETTLEMENT_JSON = (
    '{"lines":[{"amount":"3.00","count":1,"kind":"game"},'
    '{"amount":"13.00","count":13,"kind":"difference"},'
    '{"amount":"3.00","count":1,"kind":"naturals"},'
    '{"amount":"6.00","count":2,"kind":"chapeaux"}],'
    '"multiplier":2,"payee":0,"payer":1,"rounded":[1300,0],"total":"50.00"}'
)


def test_the_api_answers_the_same_settlement_as_before(api, table):
    game_id = play(table, SKUNK_CARD)
    response = api.get(f"/api/v1/games/{game_id}")
    body = response.get_data(as_text=True)
    settlement = json.loads(body)["settlement"]
    assert json.dumps(settlement, sort_keys=True, separators=(",", ":")) == SKUNK_SETTLEMENT_JSON
    assert "subtotal" not in body
