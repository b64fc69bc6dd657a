"""Boathouse Rummy's deal form: who went out and each other player's count, Aces at 11."""

from scorekeeper.engine.games.boathouse_rummy import BOATHOUSE_RUMMY, CARD_VALUES
from scorekeeper.table.deal_forms.went_out import WentOutForm


class BoathouseRummyForm(WentOutForm):
    kind = BOATHOUSE_RUMMY.name
    card_values = CARD_VALUES
