"""What the API answers about a league: its summary, its players, its standings and its
open invitations; declared as :mod:`.answers` declares a game's."""

from typing import Annotated, Any, Literal

from flask import jsonify
from pydantic import Field, RootModel
from werkzeug.wrappers import Response

from scorekeeper import models
from scorekeeper.league.kind_standings import KindStanding as KindStandingRow
from scorekeeper.league.settle_up import Night as NightRow
from scorekeeper.league.standings import Standing as StandingRow

from .answers import Answer, Counted, Money, Time


class LeagueSummary(Answer):
    slug: str
    name: str
    public: bool
    players: Counted
    games: Counted


class Player(Answer):
    id: int
    name: str

    @classmethod
    def of(cls, player: models.Player) -> "Player":
        return cls(id=player.id, name=player.name)


class League(Answer):
    slug: str
    name: str
    public: bool
    players: list[Player]

    @classmethod
    def of(cls, league: models.League, players: list[models.Player]) -> "League":
        return cls(
            slug=league.slug,
            name=league.name,
            public=league.public,
            players=[Player.of(player) for player in players],
        )


class Standing(Answer):
    player: str
    played: Counted
    won: Counted
    lost: Counted
    net: Annotated[Money, Field(description="Money won minus money lost.")]
    naturals: Counted
    chapeaux: Counted
    skunks_given: Counted
    skunks_taken: Counted
    rating: int

    @classmethod
    def of(cls, standing: StandingRow) -> "Standing":
        counts = {name: getattr(standing, name) for name in cls.model_fields if name != "player"}
        return cls(player=standing.name, **counts)


class KindStanding(Answer):
    """A player's line in the standings of a game other than Mille."""

    player: str
    played: Annotated[Counted, Field(description="Finished games.")]
    won: Annotated[
        Counted, Field(description="Deals won (games won in a game that ends by its rule).")
    ]
    net: Annotated[Money, Field(description="Money won minus money lost.")]

    @classmethod
    def of(cls, standing: KindStandingRow) -> "KindStanding":
        return cls(player=standing.name, played=standing.played, won=standing.won, net=standing.net)


class Standings(RootModel[list[Standing] | list[KindStanding]]):
    """The standings of one game, best first: Mille's, or another game's."""


class PlayerNet(Answer):
    player: str
    net: Annotated[Money, Field(description="Money received minus paid over the games.")]


class NightPayment(Answer):
    payer: Annotated[str, Field(serialization_alias="from")]
    payee: Annotated[str, Field(serialization_alias="to")]
    amount: Money


class Night(Answer):
    """A night settled up: its games, each player's net over them, and the fewest payments
    that bring every net to zero."""

    games: list[int]
    net: list[PlayerNet]
    payments: list[NightPayment]

    @classmethod
    def of(cls, night: NightRow) -> "Night":
        return cls(
            games=[game.id for game in night.games],
            net=[PlayerNet(player=player.name, net=net) for player, net in night.nets],
            payments=[
                NightPayment(payer=p.payer.name, payee=p.payee.name, amount=p.amount)
                for p in night.payments
            ],
        )

    def said(self) -> Response:
        return jsonify(self.model_dump(mode="json", by_alias=True))


InvitedRole = Literal["viewer", "scorekeeper"]


class Invitation(Answer):
    """An open invitation link: single-use, open until it expires (7 days) unless
    withdrawn. Its token is never shown again: only a SHA-256 of it is kept."""

    id: int
    role: InvitedRole
    created_by: Annotated[str | None, Field(description="The admin's username.")]
    created_at: Time
    expires_at: Time

    @classmethod
    def fields_of(cls, invitation: models.Invitation) -> dict[str, Any]:
        return {
            "id": invitation.id,
            "role": invitation.role_enum.name.lower(),
            "created_by": invitation.created_by.username if invitation.created_by else None,
            "created_at": invitation.created_at,
            "expires_at": invitation.expires_at,
        }

    @classmethod
    def of(cls, invitation: models.Invitation) -> "Invitation":
        return cls(**cls.fields_of(invitation))


class CreatedInvitation(Invitation):
    """A new invitation, with its token and link: shown this once, never again."""

    token: Annotated[str, Field(description="256 random bits; shown once, only its hash kept.")]
    url: Annotated[str, Field(description="The link to send: whoever opens it joins.")]

    @classmethod
    def made(cls, invitation: models.Invitation, token: str, url: str) -> "CreatedInvitation":
        return cls(**cls.fields_of(invitation), token=token, url=url)
