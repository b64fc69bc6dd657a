"""Who may open a game, a deal of it or one of its seats: the one check that every route
taking one makes, before anything about the game is read or said.

Every way to a game comes here — its pages, counting, closing and sharing, its seats'
links and the API — and gets either the game or a refusal that tells the asker nothing
they may not know. A route says what it needs: to read the game (:data:`READ`), to be a
member of its league (``Role.VIEWER``), or a role to change it. Then:

* **Pages**: a private league's game is a 404 to everyone outside the league, as a game
  that doesn't exist is; signed out, a change is a 401 (sign in first); a member without
  the role gets a 403.
* **The API** (``shared/API.md``): a change without a token is a 401, before the game is
  even looked up; then a game that doesn't exist, or a private one read from outside its
  league, is a 404; then a missing role is a 403 (a private league's game changed from
  outside included).
* **A seat's link** is the capability itself: a link that isn't open (wrong, stopped,
  expired, its game abandoned or gone) is a 404, and one made by an account that is no
  longer in use (disabled or deleted) reads the card but changes nothing: a 403.

Only the game's league is looked at (or the link): the game's state — settled,
abandoned, its deals — is read after the check passes, so no answer about it (a 409 with
the card) is ever built for someone who may not see the game. A write that loads the
game under its lock hands the league to :func:`allows` as soon as it is locked
(``table.service.locked_game``), before any check of its state, and costs no statement
more: the league comes with the lock, and the role is read once a request.
"""

from collections.abc import Callable
from typing import Final

from flask import abort
from sqlalchemy import bindparam, select
from sqlalchemy.orm import joinedload

from scorekeeper.accounts.permissions import acting_user, role_in
from scorekeeper.models import MAX_ID, MILLE, Game, GameSeat, League, Role, SeatLink, db
from scorekeeper.table import seats
from scorekeeper.web.formatting import use_league

#: Reading the game: anyone in a public league, a member of a private one.
READ: Final = None

#: A game with what every game page shows, the league, both players and the deals: one
#: query, not four, built once. A game of Mille comes with its deals; any other game with
#: its seats (up to twelve players), and its page reads its deals from its ledger
#: (:mod:`.kind_card`): a sitting of 200 deals is not 200 rows of the game and its league.
GAME_PAGE: Final = (
    select(Game)
    .where(Game.id == bindparam("game_id"))
    .options(
        joinedload(Game.league),
        joinedload(Game.player0),
        joinedload(Game.player1),
        joinedload(Game.deals.and_(Game.kind == MILLE)),
        # Each seat's player joined flat (an outer join: every seat has one), not nested
        # inside the seats' outer join, which SQLite reads as every seat of the database
        # joined to its player first (a quarter of a second at 20,000 games).
        joinedload(Game.seats.and_(Game.kind != MILLE)).joinedload(
            GameSeat.player, innerjoin=False
        ),
    )
)

#: What the API says with a refusal (a page shows the error page of its status instead).
NO_GAME: Final = "There is no such game."
NO_LINK: Final = "There is no such link: wrong, stopped or expired."
MAKER_GONE: Final = (
    "This link was shared by an account that is no longer in use: it shows the card but "
    "changes nothing. Ask the scorekeeper for a new link."
)


def _changes(need: Role | None) -> bool:
    return need is not None and need >= Role.SCOREKEEPER


def refusal(league: League | None, need: Role | None, *, api: bool = False) -> int | None:
    """The status that refuses the acting user ``need`` on a game of ``league`` (None:
    there is no such game), or None when they have it. The one decision about accounts;
    nothing of the game but its league is looked at."""
    user = acting_user()
    if api and _changes(need) and user is None:
        return 401
    if league is None:
        return 404
    actual = role_in(league, user) if user is not None else None
    if actual is None and not league.public and not (api and _changes(need)):
        return 404  # a private league is hidden; the API's changes say 403 instead
    if need is None:
        return None
    if user is None:
        return 401
    if actual is None or actual < need:
        return 403
    return None


def check(league: League | None, need: Role | None = READ, *, api: bool = False) -> League:
    """``league`` (the league of the game asked for; None: no such game) if the acting
    user has ``need`` there, else the refusal :func:`refusal` chooses (the API's with its
    sentence). The league's pages then show times in its time zone and amounts in its
    currency."""
    status = refusal(league, need, api=api)
    if status is not None:
        sentence = {404: NO_GAME}.get(status)
        if status == 403 and need is not None:
            sentence = f"This needs the {need.label.lower()} role (or above) in this league."
        abort(status, description=sentence if api else None)
    assert league is not None
    use_league(league)
    return league


def allows(need: Role | None, *, api: bool = False) -> Callable[[League], object]:
    """:func:`check` for ``need``, as the callback a write hands its locked game's league
    to (``allowed`` in :mod:`.service`)."""
    return lambda league: check(league, need, api=api)


def _unseen(need: Role | None, api: bool) -> bool:
    """A change through the API without a token: refused before the game is looked up."""
    return api and _changes(need) and acting_user() is None


def game(game_id: int, need: Role | None = READ, *, api: bool = False) -> Game:
    """The game with its league, players and deals (:data:`GAME_PAGE`), checked first."""
    found = None
    if game_id <= MAX_ID and not _unseen(need, api):
        found = db.session.scalars(GAME_PAGE, {"game_id": game_id}).unique().one_or_none()
    check(found.league if found else None, need, api=api)
    assert found is not None
    # What was not joined is not none: it is read when asked for.
    db.session.expire(found, ["seats"] if found.is_mille else ["deals"])
    return found


def league_of(game_id: int, need: Role | None = READ, *, api: bool = False) -> League:
    """The game's league, checked, in one statement that doesn't read the game: for a
    route whose service then loads the game itself (and so may not read it twice)."""
    return league_and_kind_of(game_id, need, api=api)[0]


def league_and_kind_of(
    game_id: int, need: Role | None = READ, *, api: bool = False
) -> tuple[League, str]:
    """:func:`league_of`, with the game's kind read in the same statement (which of the
    engine's games keeps it, and so which service changes it)."""
    found = None
    if game_id <= MAX_ID and not _unseen(need, api):
        found = db.session.execute(
            select(League, Game.kind).join(Game.league).where(Game.id == game_id)
        ).first()
    league = check(found[0] if found else None, need, api=api)
    assert found is not None
    return league, str(found[1])


# A seat's link -------------------------------------------------------------------------


def link_refusal(link: SeatLink | None, *, changing: bool = False) -> int | None:
    """The status that refuses a link (None: not open), or None when it may do this:
    read its game, or (``changing``) agree and say how its player is paid, which a link
    made by an account no longer in use may not."""
    if link is None:
        return 404
    if changing and not link.maker_in_use:
        return 403
    return None


def check_link(link: SeatLink | None, *, changing: bool = False, api: bool = False) -> SeatLink:
    """``link`` (an open one, or None: :func:`.seats.open_seat`) if it may do this, else
    the refusal :func:`link_refusal` chooses."""
    status = link_refusal(link, changing=changing)
    if status is not None:
        sentence = NO_LINK if status == 404 else MAKER_GONE
        abort(status, description=sentence if api else None)
    assert link is not None
    return link


def seat(token: str, *, changing: bool = False, api: bool = False) -> SeatLink:
    """The open link with this token, its game loaded, checked by :func:`check_link`; its
    pages then show times and amounts as the game's league does."""
    link = check_link(seats.open_seat(token), changing=changing, api=api)
    use_league(link.game.league)
    return link


def receipt(token: str) -> SeatLink:
    """The open link whose receipt token this is: it reads the receipt, and nothing else."""
    link = check_link(seats.open_receipt(token))
    use_league(link.game.league)
    return link
