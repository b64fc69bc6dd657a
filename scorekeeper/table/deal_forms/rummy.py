"""Rummy's deal form: who went out, each other player's count, and whether it was rummy."""

from wtforms import BooleanField

from scorekeeper.engine.games import Entry
from scorekeeper.engine.games.rummy import RUMMY
from scorekeeper.table.deal_forms.went_out import WentOutForm
from scorekeeper.web.translation import lazy_gettext as _l


class RummyForm(WentOutForm):
    kind = RUMMY.name

    rummy = BooleanField(_l("Rummy, all declared in one turn: payments doubled"))

    def entry(self) -> dict[str, object]:
        return {**super().entry(), "rummy": bool(self.rummy.data)}

    def fill(self, entry: Entry) -> None:
        super().fill(entry)
        self.rummy.data = bool(entry.get("rummy"))
