"""What the API answers for a game of any kind but Mille (API.md, "The other games").

Its deals are the entries its engine module read, each with the dealer, the deal's
winner and the payments it made; the game carries the balances, the pool, the totals
per side and, once finished, the fewest payments that settle it. Everything is said
from the game's :class:`~scorekeeper.engine.games.Sitting`, as its page shows it:
nothing here knows one game from another. Declared once; :mod:`.answers` hands these
classes out with the rest.
"""

from typing import Annotated, Any

from flask import jsonify
from pydantic import ConfigDict, Field, RootModel
from werkzeug.wrappers import Response

from scorekeeper import models
from scorekeeper.engine.games import KINDS, Line, Payment, Reason, Sitting, Transfer
from scorekeeper.table import kind_service, seats
from scorekeeper.table import service as game_service

from .answers import Agreement, Answer, Game, Money, SeatCard, Status, Time

Seat = Annotated[int, Field(ge=0, lt=models.MAX_SEATS, description="0: the first player named.")]
#: A seat, or null: the pool.
SeatOrPool = Annotated[
    int | None,
    Field(ge=0, lt=models.MAX_SEATS, description="A seat; null: the pool."),
]
OTHER_KINDS = [name for name in KINDS if name != models.MILLE]


class Movement(Answer):
    """Money a deal moved (or the end of a sitting: a pool given back)."""

    payer: Annotated[SeatOrPool, Field(serialization_alias="from")]
    payee: Annotated[SeatOrPool, Field(serialization_alias="to")]
    amount: Annotated[Money, Field(description="More than 0.")]
    reason: Reason

    @classmethod
    def of(cls, payment: Payment) -> "Movement":
        return cls(
            payer=payment.payer,
            payee=payment.payee,
            amount=payment.amount,
            reason=payment.reason,
        )


class SettlingPayment(Answer):
    """One of the fewest payments that settle a finished game."""

    payer: Annotated[Seat, Field(serialization_alias="from")]
    payee: Annotated[Seat, Field(serialization_alias="to")]
    amount: Money

    @classmethod
    def of(cls, transfer: Transfer) -> "SettlingPayment":
        return cls(payer=transfer.payer, payee=transfer.payee, amount=transfer.amount)


class SettlementOfKind(Answer):
    """The fewest payments that bring every balance to zero."""

    payments: list[SettlingPayment]


class DealOfKind(Answer):
    """A deal: what was entered (the fields of its body, every default filled in), its
    dealer, the seat it paid and every payment it made; ``scores`` per side for a game
    kept in points."""

    # The entry's fields sit beside these, as the deal's body has them.
    model_config = ConfigDict(extra="allow", defer_build=True)

    number: Annotated[int, Field(ge=1)]
    dealer: Seat
    winner: Annotated[
        Seat | None,
        Field(
            description="The seat it paid (in spoil-five, who won three tricks, a failed "
            "jink too); null: a dead or spoilt deal."
        ),
    ]
    payments: list[Movement]
    scores: Annotated[
        list[int] | None, Field(description="Each side's deal score (scotch-whist).")
    ] = None

    @classmethod
    def of(cls, line: Line) -> "DealOfKind":
        # A body that names a winner keeps it (a failed jink's jinker, whom the deal
        # pays nothing); any other deal says whom it paid.
        found: dict[str, Any] = {
            "winner": line.winner,
            **line.entry,
            "number": line.number,
            "dealer": line.dealer,
            "payments": [Movement.of(payment) for payment in line.payments],
        }
        if line.scores is not None:
            found["scores"] = list(line.scores)
        return cls(**found)


class CardOfKind(Answer):
    """A game of any kind but Mille as a seat's link reads it: everything
    :class:`GameOfKind` says but the two things the link's page never shows, the game's id
    on this server and its league."""

    game: Annotated[str, Field(json_schema_extra={"enum": OTHER_KINDS})]
    players: Annotated[list[str], Field(min_length=2, max_length=models.MAX_SEATS)]
    rules: dict[str, int | bool | str]
    stakes: dict[str, Money | None]
    status: Status
    version: Annotated[int, Field(ge=1)]
    first_dealer: Seat
    next_dealer: Seat
    deals: list[DealOfKind]
    balances: Annotated[
        list[Money],
        Field(description="Each seat's money received minus paid, in seat order."),
    ]
    pool: Annotated[Money | None, Field(description="Money in the pool (spoil-five).")]
    totals: Annotated[list[int] | None, Field(description="Per side (scotch-whist).")]
    winner: Annotated[
        list[Seat] | None, Field(description="The winning side's seats (scotch-whist).")
    ]
    settlement: SettlementOfKind | None
    locked: Annotated[bool, Field(description="Marked paid: no change until unlocked.")]
    paid_at: Time | None
    created_at: Time
    finished_at: Time | None

    @classmethod
    def of(cls, game: models.Game, sitting: Sitting | None = None) -> "CardOfKind":
        """The card from ``sitting`` (a change's one replay) when given, else replayed."""
        return cls(**cls.values_of(game, sitting))

    @staticmethod
    def values_of(game: models.Game, sitting: Sitting | None) -> dict[str, Any]:
        if sitting is None:
            sitting = kind_service.sitting_of(game)
        setup = sitting.setup
        return {
            "game": game.kind,
            "players": [player.name for player in game.seated],
            "rules": dict(setup.rules),
            "stakes": dict(setup.stakes),
            "status": game.status,
            "version": game.version,
            "first_dealer": game.first_dealer,
            "next_dealer": sitting.next_dealer,
            "deals": [DealOfKind.of(line) for line in sitting.lines],
            "balances": list(sitting.balances),
            "pool": sitting.pool,
            "totals": None if sitting.totals is None else list(sitting.totals),
            "winner": None if sitting.winners is None else list(sitting.winners),
            "settlement": None
            if sitting.settlement is None
            else SettlementOfKind(
                payments=[SettlingPayment.of(transfer) for transfer in sitting.settlement]
            ),
            "locked": game.locked,
            "paid_at": game.paid_at,
            "created_at": game.created_at,
            "finished_at": game.finished_at,
        }

    def said(self) -> dict[str, Any]:
        """As JSON: ``from`` and ``to`` for a payment's seats, ``scores`` only where kept."""
        found = self.model_dump(mode="json", by_alias=True)
        for deal in found["deals"]:
            if deal.get("scores") is None:
                deal.pop("scores", None)
        return found  # type: ignore[no-any-return]


class GameOfKind(CardOfKind):
    """A game of any kind but Mille, as every game endpoint returns it (API.md)."""

    id: int
    league: Annotated[str, Field(description="The league's slug.")]

    @classmethod
    def of(cls, game: models.Game, sitting: Sitting | None = None) -> "GameOfKind":
        """The game from ``sitting`` (a change's one replay) when given, else replayed."""
        return cls(id=game.id, league=game.league.slug, **cls.values_of(game, sitting))


class AnyGame(RootModel[Game | GameOfKind]):
    """A game of any kind, as every game endpoint returns it: Mille's, or another's."""


class AgreementOfKind(Agreement):
    """A player's latest agreement with the card of a game of any kind but Mille: as
    Mille's, with a seat of the game's two to twelve."""

    seat: Seat  # type: ignore[assignment]


def agreements_of(game: models.Game) -> list[Agreement]:
    """Each player's latest agreement with the card of a game of any kind."""
    kind = Agreement if game.is_mille else AgreementOfKind
    return [kind.of(game, found) for found in seats.agreements(game) if found is not None]


class AnyAgreement(RootModel[Agreement | AgreementOfKind]):
    """A player's agreement with the card of a game of any kind."""


class SeatCardOfKind(Answer):
    """What a seat's link to a game of any kind but Mille opens: the seat, its game's card
    (as every game endpoint says it, but the game's id and league), and every player's
    agreement."""

    seat: Seat
    game: CardOfKind
    agreements: list[Agreement]

    @classmethod
    def of(cls, link: models.SeatLink) -> "SeatCardOfKind":
        return cls(
            seat=link.seat,
            game=CardOfKind.of(link.game),
            agreements=agreements_of(link.game),
        )

    def sent(self, status: int = 200) -> Response:
        found = self.model_dump(mode="json", exclude_unset=True)
        found["game"] = self.game.said()
        response = jsonify(found)
        response.status_code = status
        return response


class AnySeatCard(RootModel[SeatCard | SeatCardOfKind]):
    """What a seat's link opens, of a game of any kind: Mille's, or another's."""


def seat_card(link: models.SeatLink) -> SeatCard | SeatCardOfKind:
    """What a seat's link opens, as its game's kind says it."""
    return SeatCard.of(link) if link.game.is_mille else SeatCardOfKind.of(link)


def game_answer(game: models.Game, change: object = None) -> dict[str, Any]:
    """The game as JSON: from ``change`` (the replay of the change just made: Mille's
    ``Saved`` or another kind's ``Played``) when given, else replayed now."""
    if game.is_mille:
        saved = change if isinstance(change, game_service.Saved) else None
        return Game.of(game, saved).model_dump(mode="json")
    sitting = change.sitting if isinstance(change, kind_service.Played) else None
    return GameOfKind.of(game, sitting).said()
