"""Who may read and change what. Every view asks here about the league that owns its object.

Roles are per league (:class:`Role`); a site administrator is admin of every
league. A public league may be read by anyone; a private one is hidden — a 404
— from everyone outside it.
"""

from flask import abort, g, has_request_context
from flask_login import current_user
from sqlalchemy import case, func, inspect, select

from scorekeeper.models import League, Membership, Role, User, db
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.web.formatting import use_league


def acting_user() -> User | None:
    """The signed-in user of this request, from the session or an API token.

    An API request (``g.bearer_only``) knows only its bearer token, never the
    session cookie, so no other site can act through a signed-in browser.
    """
    user = g.get("api_user")
    if user is not None or g.get("bearer_only"):
        return user  # type: ignore[no-any-return]
    return current_user if current_user.is_authenticated else None  # type: ignore[return-value]


def current_actor() -> User | None:
    """Who is making a change: the acting user in a request, nobody from the shell."""
    return acting_user() if has_request_context() else None


def role_in(league: League, user: User | None = None) -> Role | None:
    """The user's role in the league (site admins are league admins everywhere)."""
    user = user or acting_user()
    if user is None:
        return None
    if user.is_admin:
        return Role.ADMIN
    # A page asks several times (its check, its buttons, its history): one answer a request,
    # read from the memberships loaded with the user when they are.
    known: dict[tuple[int, int], Role | None] = (
        g.setdefault("roles_seen", {}) if has_request_context() else {}
    )
    key = (user.id, league.id)
    if key not in known:
        if "memberships" in inspect(user).dict:  # loaded with the user (auth.load_user)
            role = next((m.role for m in user.memberships if m.league_id == league.id), None)
        else:
            role = db.session.scalar(
                select(Membership.role).where(
                    Membership.user_id == user.id, Membership.league_id == league.id
                )
            )
        known[key] = None if role is None else Role(role)
    return known[key]


def forget_roles() -> None:
    """Roles changed in this request: ask the database again."""
    if has_request_context():
        g.pop("roles_seen", None)


def can_read(league: League) -> bool:
    return league.public or role_in(league) is not None


def may(league: League, role: Role) -> bool:
    """Whether the acting user has at least ``role`` in the league (for showing buttons)."""
    actual = role_in(league)
    return actual is not None and actual >= role


def _kept_league_ids(user: User) -> list[int]:
    """The leagues ``user`` keeps score in by membership. The user is loaded with their
    memberships (``auth.load_user``), so every page can ask without another query."""
    return [m.league_id for m in user.memberships if m.role >= Role.SCOREKEEPER]


def keeps_score_anywhere() -> bool:
    """Whether the signed-in user may start a game in some league (the menu's New game)."""
    user = acting_user()
    return user is not None and (user.is_admin or bool(_kept_league_ids(user)))


def scorekeeping_leagues() -> list[League]:
    """The leagues the acting user may start games in: the default league first, then by name."""
    user = acting_user()
    if user is None or not keeps_score_anywhere():
        return []
    default = select(func.min(League.id)).scalar_subquery()  # records.leagues.default_league()
    query = select(League).order_by(case((League.id == default, 0), else_=1), League.name)
    if not user.is_admin:
        query = query.where(League.id.in_(_kept_league_ids(user)))
    return list(db.session.scalars(query))


def require_read(league: League) -> None:
    """404 unless the league is public or the user belongs to it; its pages then show times
    in its time zone and amounts in its currency."""
    if not can_read(league):
        abort(404)
    use_league(league)


def require_role(league: League, role: Role, *, hide_private: bool = True) -> None:
    """401 for nobody signed in, 404 for a private league the user is outside of
    (``hide_private``; the API answers 403 instead), 403 for too small a role."""
    actual = role_in(league)
    if actual is None and hide_private and not league.public:
        abort(404)
    if acting_user() is None:
        abort(401)
    if actual is None or actual < role:
        abort(403)
    use_league(league)


def league_or_404(slug: str, role: Role | None = None) -> League:
    """The league at this address, if the acting user may read it (or, given ``role``,
    has it there: :func:`require_role`); a 404 otherwise, so a private one stays hidden."""
    league = league_by_slug(slug)
    if league is None:
        abort(404)
    if role is None:
        require_read(league)
    else:
        require_role(league, role)
    return league


def require_site_admin() -> None:
    user = acting_user()
    if user is None:
        abort(401)
    if not user.is_admin:
        abort(403)
