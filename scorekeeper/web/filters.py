"""The template filters that write numbers, money, days and stars as the page's language
writes them (:mod:`.formatting`): ``1,275`` / ``1 275``, ``66.7%`` / ``66,7 %``,
``+$10.00`` / ``+10,00 $``. Registered once, for every area's templates."""

from flask import Flask
from jinja2 import pass_context
from jinja2.runtime import Context

from scorekeeper.web import formatting


def stars(count: int) -> str:
    return "★" * count


@pass_context
def whole_money(context: Context, cents: int) -> str:
    """:func:`.formatting.whole_money`, written on every page: a filter of a constant
    (``100|whole_money``) without the context would be written once, when the template is
    compiled, in the language and currency of the first page that shows it."""
    return formatting.whole_money(cents)


def init_app(app: Flask) -> None:
    app.add_template_filter(formatting.money)
    app.add_template_filter(formatting.number, "points")  # a total as on the card
    app.add_template_filter(formatting.subtracted)  # a total after a minus: (−100)
    app.add_template_filter(formatting.signed_money)
    app.add_template_filter(whole_money)  # an example amount: $1 / 1 $
    app.add_template_filter(formatting.signed)
    app.add_template_filter(formatting.tenths)
    app.add_template_filter(formatting.percent)
    app.add_template_filter(formatting.whole_percent)
    app.add_template_filter(formatting.day)
    app.add_template_filter(formatting.moment)
    app.add_template_filter(formatting.machine_time)
    app.add_template_filter(formatting.clock)
    app.add_template_filter(stars)
