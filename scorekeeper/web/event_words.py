"""The audit trail in words: what a change to a game (or to a league's players) was, worded
from its action and the values kept with it, once, for pages (in their language) and for
the API (in English, amounts as the API writes money). Part of the one catalog
(:mod:`.messages`)."""

from collections.abc import Callable, Mapping
from typing import Any, Final

from scorekeeper.engine.money import format_money
from scorekeeper.models import AuditAction, AuditEvent, Game
from scorekeeper.web.formatting import money
from scorekeeper.web.languages import english_words
from scorekeeper.web.translation import gettext, ngettext


def event_summary(event: AuditEvent, game: Game | None = None, english: bool = False) -> str:
    """What a change to a game was, worded from its action and the values kept with it: in
    the page's language with amounts as the page writes money, or (``english``) as the API
    says it, amounts as the API writes them ("12.50")."""
    wording = _EVENTS.get(event.action)
    if wording is None:
        return unread_text(event)
    try:
        if not english:
            return wording(event.params, money)
        with english_words():
            return wording(event.params, format_money)
    except (KeyError, TypeError):
        return unread_text(event)


def unread_text(event: AuditEvent) -> str:
    """An event whose values can't be worded: the sentence it was kept with, if the
    migration to values couldn't read it (``text``), else its action."""
    return str(event.params.get("text") or event.action)


def _imported(values: Mapping[str, Any]) -> str:
    where = (
        gettext("line %(number)s", number=values["where"])
        if values["place"] == "line"
        else gettext("game %(key)s", key=values["where"])
    )
    if values["file"] == "league_export":
        text = gettext("Imported from a league export (%(where)s).", where=where)
    else:
        text = gettext("Imported from a paper score card (%(where)s).", where=where)
    if values.get("paid_by"):
        said = gettext("The file says %(name)s marked it paid.", name=values["paid_by"])
        text = f"{text} {said}"
    if "abandoned_by" in values:
        said = (
            gettext("The file says %(name)s abandoned it.", name=values["abandoned_by"])
            if values["abandoned_by"]
            else gettext("The file says it was abandoned.")
        )
        text = f"{text} {said}"
    return text


def _handle_changed(values: Mapping[str, Any]) -> str:
    name, after = values["name"], values["handle"]
    if values["by"] != "link":
        if after:
            return gettext("How %(name)s is paid set to %(handle)s.", name=name, handle=after)
        return gettext("How %(name)s is paid removed.", name=name)
    maker = values.get("shared_by") or gettext("an account since deleted")
    if after:
        return gettext(
            "Where %(name)s is paid for this game set to %(handle)s through their seat's link "
            "(shared by %(maker)s).",
            name=name,
            handle=after,
            maker=maker,
        )
    return gettext(
        "Where %(name)s is paid for this game taken back to the league's, through their "
        "seat's link (shared by %(maker)s).",
        name=name,
        maker=maker,
    )


def _merged(values: Mapping[str, Any]) -> str:
    text = ngettext(
        "%(old)s merged into %(new)s: %(num)s game moved, with its records and payments.",
        "%(old)s merged into %(new)s: %(num)s games moved, with their records and payments.",
        values["games"],
        old=values["from"],
        new=values["into"],
    )
    if values.get("handle") == "from":
        said = gettext("%(new)s is paid where %(old)s was.", old=values["from"], new=values["into"])
        text = f"{text} {said}"
    return text


#: How each action is worded from its values, given how to write money.
_Wording = Callable[[Mapping[str, Any], Callable[[int], str]], str]

_EVENTS: Final[dict[AuditAction, _Wording]] = {
    AuditAction.DEAL_RECORDED: lambda v, _: gettext(
        "Deal %(number)s recorded.", number=v["number"]
    ),
    AuditAction.DEAL_EDITED: lambda v, _: gettext("Deal %(number)s corrected.", number=v["number"]),
    AuditAction.DEAL_DELETED: lambda v, _: gettext(
        "Deal %(number)s deleted; later deals moved up.", number=v["number"]
    ),
    AuditAction.GAME_FINISHED: lambda v, _: (
        gettext("%(winner)s won after deal %(number)s.", winner=v["winner"], number=v["number"])
        if v["winner"]
        else gettext("The sitting ended after deal %(number)s.", number=v["number"])
    ),
    AuditAction.GAME_REOPENED: lambda v, _: gettext("The game is in progress again."),
    AuditAction.PAYMENT_TICKED: lambda v, money: gettext(
        "Settling up: %(payer)s paid %(payee)s %(amount)s.",
        payer=v["payer"],
        payee=v["payee"],
        amount=money(v["amount"]),
    ),
    AuditAction.NIGHT_SETTLED: lambda v, _: gettext(
        "Settled up: %(count)s games marked paid.", count=v["games"]
    ),
    AuditAction.PAYMENT_MARKED: lambda v, written: (
        gettext(
            "%(payer)s's payment of %(amount)s marked paid.",
            payer=v["payer"],
            amount=written(v["amount"]),
        )
        if v["payer"]
        else gettext("Marked settled: nobody owed anything.")
    ),
    AuditAction.GAME_UNLOCKED: lambda v, _: gettext("Game unlocked; its payment is unpaid again."),
    AuditAction.GAME_ABANDONED: lambda v, _: gettext("Game abandoned: it no longer counts."),
    AuditAction.GAME_RESTORED: lambda v, _: gettext("Game restored: it counts again."),
    AuditAction.GAME_IMPORTED: lambda v, _: _imported(v),
    AuditAction.HANDLE_CHANGED: lambda v, _: _handle_changed(v),
    AuditAction.PLAYER_RENAMED: lambda v, _: gettext(
        "Renamed %(old)s to %(new)s.", old=v["from"], new=v["into"]
    ),
    AuditAction.PLAYERS_MERGED: lambda v, _: _merged(v),
    AuditAction.ACCOUNT_LINKED: lambda v, _: (
        gettext("%(name)s's account set to %(account)s.", name=v["name"], account=v["account"])
        if v["account"]
        else gettext("%(name)s's account removed (it was %(was)s).", name=v["name"], was=v["was"])
    ),
    AuditAction.CARD_AGREED: lambda v, _: (
        gettext(
            "%(name)s agreed with the card (version %(version)s) on their own phone.",
            name=v["name"],
            version=v["version"],
        )
        if v["by"] == "link"
        else gettext(
            "%(name)s agreed with the card (version %(version)s).",
            name=v["name"],
            version=v["version"],
        )
    ),
}
