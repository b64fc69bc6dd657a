"""Gambler's Rummy's deal form: who went out, or nobody (a dead deal), and every count."""

from collections.abc import Mapping
from typing import ClassVar

from flask_babel.speaklater import LazyString

from scorekeeper.engine.games.gamblers_rummy import GAMBLERS_RUMMY
from scorekeeper.table.deal_forms.went_out import WentOutForm
from scorekeeper.web.translation import lazy_gettext as _l


class GamblersRummyForm(WentOutForm):
    kind = GAMBLERS_RUMMY.name
    missing: ClassVar[Mapping[str, LazyString]] = {"out": _l("Choose who went out, or nobody.")}
    nobody = _l("Nobody (a dead deal)")
