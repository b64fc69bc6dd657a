"""People join a league by invitation: a single-use link with a role, open for 7 days,
withdrawn at will, its token stored hashed and shown once."""

import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from scorekeeper.accounts import invitations as invitation_service
from scorekeeper.models import Invitation, Membership, Role, User, db, utcnow

LINK = re.compile(r"http://localhost/invitations/([A-Za-z0-9_-]+)")


def make_link(client, role: Role = Role.SCOREKEEPER, slug: str = "our-table") -> str:
    """An admin's client makes an invitation on the members page; the token it shows."""
    response = client.post(f"/leagues/{slug}/invitations", data={"role": str(int(role))})
    assert response.status_code == 201, response.get_data(as_text=True)
    assert response.headers["Cache-Control"] == "no-store"
    found = LINK.findall(response.get_data(as_text=True))
    assert len(found) == 1
    return found[0]


def role_of(app, username: str, slug: str = "our-table") -> Role | None:
    with app.app_context():
        role = db.session.scalar(
            select(Membership.role)
            .join(User, User.id == Membership.user_id)
            .where(User.username == username)
        )
        return None if role is None else Role(role)


def join(client, token: str, username: str = "newcomer", password: str = "a long passphrase"):
    return client.post(
        f"/invitations/{token}",
        data={"username": username, "password": password, "confirm": password},
    )


def test_an_invitee_chooses_a_name_and_password_and_joins_with_the_role(app, table, client):
    token = make_link(table.client)
    page = client.get(f"/invitations/{token}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Join Our table" in text
    assert "as scorekeeper" in text
    response = join(client, token)
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/leagues/our-table")
    assert role_of(app, "newcomer") is Role.SCOREKEEPER
    # Signed in at once: the new scorekeeper may start a game.
    assert client.get("/leagues/our-table/games/new").status_code == 200


def test_the_token_is_long_random_and_stored_only_hashed(app, table):
    tokens = {make_link(table.client) for _ in range(3)}
    assert len(tokens) == 3
    for token in tokens:
        assert len(token) >= 43  # 32 bytes: 256 random bits, URL-safe
    with app.app_context():
        stored = db.session.scalars(select(Invitation)).all()
        assert {row.token_hash for row in stored} == {Invitation.digest(t) for t in tokens}
        assert not any(token in repr(vars(row)) for row in stored for token in tokens)
    # The members page lists them, without the link.
    page = table.client.get("/leagues/our-table/members").get_data(as_text=True)
    assert page.count("Withdraw") == 3
    assert not any(token in page for token in tokens)


def test_a_link_is_used_once(app, table, client):
    token = make_link(table.client, Role.VIEWER)
    assert join(client, token).status_code == 302
    assert role_of(app, "newcomer") is Role.VIEWER
    other = app.test_client()
    again = join(other, token, username="second")
    assert again.status_code == 410
    assert "already used" in again.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(User).where(User.username == "second")) is None


def test_an_expired_link_opens_nothing(app, table, client):
    token = make_link(table.client)
    with app.app_context():
        row = db.session.scalars(select(Invitation)).one()
        row.expires_at = utcnow() - timedelta(seconds=1)
        db.session.commit()
    page = client.get(f"/invitations/{token}")
    assert page.status_code == 410
    assert "expired" in page.get_data(as_text=True)
    assert join(client, token).status_code == 410
    assert role_of(app, "newcomer") is None
    # No longer listed as open.
    assert "No open invitations" in table.client.get("/leagues/our-table/members").get_data(
        as_text=True
    )


def test_an_admin_withdraws_a_link(app, table, client):
    token = make_link(table.client)
    with app.app_context():
        invitation_id = db.session.scalars(select(Invitation.id)).one()
    response = table.client.post(f"/leagues/our-table/invitations/{invitation_id}/withdraw")
    assert response.status_code == 302
    page = client.get(f"/invitations/{token}")
    assert page.status_code == 410
    assert "withdrawn" in page.get_data(as_text=True)
    assert join(client, token).status_code == 410
    # Withdrawn twice, or from another league's page: nothing to withdraw.
    again = table.client.post(f"/leagues/our-table/invitations/{invitation_id}/withdraw")
    assert again.status_code == 404


def test_an_unknown_or_mangled_link_is_a_404(client):
    for token in ["nope", "x" * 500, "%00"]:
        assert client.get(f"/invitations/{token}").status_code == 404
        assert join(client, token).status_code == 404


@pytest.mark.parametrize("role", [str(int(Role.ADMIN)), "0", "9", "admin", ""])
def test_an_invitation_makes_only_a_viewer_or_a_scorekeeper(app, table, role):
    response = table.client.post("/leagues/our-table/invitations", data={"role": role})
    assert response.status_code == 422
    assert 'class="error"' in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(Invitation.id)) is None
    with app.app_context(), pytest.raises(invitation_service.ServiceError):
        invitation_service.create(1, Role.ADMIN, None)


def test_only_the_leagues_admin_makes_or_withdraws_invitations(app, table, auth):
    token = make_link(table.client)
    with app.app_context():
        invitation_id = db.session.scalars(select(Invitation.id)).one()
    keeper = auth.member("scorekeeper")
    assert keeper.post("/leagues/our-table/invitations", data={"role": "1"}).status_code == 403
    withdraw = f"/leagues/our-table/invitations/{invitation_id}/withdraw"
    assert keeper.post(withdraw).status_code == 403
    assert app.test_client().post(withdraw).status_code in (302, 401, 404)
    assert app.test_client().get(f"/invitations/{token}").status_code == 200  # still open


def test_the_same_rules_as_every_account_apply(app, table, client):
    token = make_link(table.client)
    cases = [
        ("admin", "a long passphrase", "is taken"),
        ("", "a long passphrase", "Choose a username"),
        ("newcomer", "short", "at least 8"),
        ("newcomer", "password", "most common"),
        ("newcomer", "newcomer", "differ from the username"),
        ("x" * 41, "a long passphrase", "40"),
        ("bad\u200bname", "a long passphrase", ""),
    ]
    for username, password, message in cases:
        response = join(client, token, username, password)
        assert response.status_code == 422, (username, password)
        assert message in response.get_data(as_text=True)
    mismatch = client.post(
        f"/invitations/{token}",
        data={"username": "newcomer", "password": "a long passphrase", "confirm": "other one"},
    )
    assert mismatch.status_code == 422
    assert "The passwords differ" in mismatch.get_data(as_text=True)
    # Nothing was used up: the link still works.
    assert join(client, token).status_code == 302


def test_a_signed_in_user_joins_with_their_account(app, table, auth):
    other_league = auth.member("admin", username="boss")
    with app.app_context():
        from scorekeeper.league import service as league_service

        league_service.create_league("Friday club", public=False)
    token = make_link(table.client, Role.SCOREKEEPER, slug="friday-club")
    page = other_league.get(f"/invitations/{token}").get_data(as_text=True)
    assert "You are signed in as boss" in page
    assert "Create your account" not in page
    response = other_league.post(f"/invitations/{token}")
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/leagues/friday-club")
    assert other_league.get("/leagues/friday-club").status_code == 200
    with app.app_context():
        roles = dict(
            db.session.execute(
                select(Membership.league_id, Membership.role)
                .join(User, User.id == Membership.user_id)
                .where(User.username == "boss")
            ).all()
        )
    assert sorted(roles.values()) == [Role.SCOREKEEPER, Role.ADMIN]


def test_joining_never_lowers_a_members_role(app, table, auth):
    admin = auth.member("admin", username="boss")
    token = make_link(table.client, Role.VIEWER)
    assert admin.post(f"/invitations/{token}").status_code == 302
    assert role_of(app, "boss") is Role.ADMIN


def test_the_pages_read_in_french(app, table, client):
    token = make_link(table.client)
    client.get("/language/fr")
    page = client.get(f"/invitations/{token}").get_data(as_text=True)
    assert "Rejoindre Our table" in page
    members = table.client
    members.get("/language/fr")
    assert "Invitations" in members.get("/leagues/our-table/members").get_data(as_text=True)


def test_the_invitation_page_is_kept_by_no_cache_and_its_address_sent_nowhere(
    app, table, client, auth
):
    """Its token is in the address: every answer to it, open, refused, closed or joined, is
    ``no-store`` (no shared cache or back button keeps it) and ``no-referrer`` (no link or
    resource it loads is told the address)."""
    token = make_link(table.client)
    answers = [
        client.get(f"/invitations/{token}"),
        join(client, token, password="short"),  # refused beside the field: 422
        client.get("/invitations/nope"),  # unknown: 404
        join(client, token),  # joined: the redirect
        client.get(f"/invitations/{token}"),  # used: 410
    ]
    assert [answer.status_code for answer in answers] == [200, 422, 404, 302, 410]
    for answer in answers:
        assert answer.headers["Cache-Control"] == "no-store"
        assert answer.headers["Referrer-Policy"] == "no-referrer"


def league_admin(app, auth, username="lea"):
    """A league admin of Our table (not a site administrator), signed in; and their id."""
    client = auth.member("admin", username=username)
    with app.app_context():
        user_id = db.session.scalar(select(User.id).where(User.username == username))
    return client, user_id


def still_opens(client, token) -> bool:
    page = client.get(f"/invitations/{token}")
    assert page.status_code in (200, 410), page.status_code
    return page.status_code == 200


def refused_for_its_maker(app, client, token):
    """The link opens nothing, says why, and makes no account."""
    page = client.get(f"/invitations/{token}")
    assert page.status_code == 410
    assert "no longer manages the league" in page.get_data(as_text=True)
    assert join(client, token).status_code == 410
    assert role_of(app, "newcomer") is None
    with app.app_context():
        assert db.session.scalar(select(User).where(User.username == "newcomer")) is None


def test_an_invitation_ends_when_its_maker_is_disabled(app, table, auth, client):
    """Disabled with a stolen password, say: what the thief made must not let them back in
    with a new account. Putting the maker back in use doesn't reopen it."""
    lea, lea_id = league_admin(app, auth)
    token = make_link(lea)
    assert table.client.post(f"/users/{lea_id}/disable").status_code == 302
    refused_for_its_maker(app, client, token)
    assert "No open invitations" in table.client.get("/leagues/our-table/members").text
    assert table.client.post(f"/users/{lea_id}/enable").status_code == 302
    assert client.get(f"/invitations/{token}").status_code == 410  # withdrawn for good
    assert join(client, token).status_code == 410
    assert role_of(app, "newcomer") is None


@pytest.mark.parametrize("change", ["remove", str(int(Role.SCOREKEEPER)), str(int(Role.VIEWER))])
def test_an_invitation_ends_when_its_maker_leaves_the_league_or_is_no_longer_its_admin(
    app, table, auth, client, change
):
    lea, lea_id = league_admin(app, auth)
    token = make_link(lea)
    other, _other_id = league_admin(app, auth, "olga")
    kept = make_link(other)
    changed = table.client.post(
        f"/leagues/our-table/members/{lea_id}", data={f"m{lea_id}-role": change}
    )
    assert changed.status_code == 302
    refused_for_its_maker(app, client, token)
    assert still_opens(client, kept)  # another admin's invitation is theirs
    assert table.client.get("/leagues/our-table/members").text.count("Withdraw") == 1


def test_an_invitation_whose_maker_lost_the_role_is_refused_even_if_left_open(
    app, table, auth, client
):
    """The role is checked as the link is used, whatever changed it (a restore, the shell)."""
    lea, lea_id = league_admin(app, auth)
    token = make_link(lea)
    with app.app_context():
        membership = db.session.scalars(select(Membership).where(Membership.user_id == lea_id))
        membership.one().role = int(Role.SCOREKEEPER)
        db.session.commit()
    refused_for_its_maker(app, client, token)
    signed_in = auth.member("viewer", username="vera")
    assert signed_in.post(f"/invitations/{token}").status_code == 410
    assert role_of(app, "vera") is Role.VIEWER


def test_a_site_administrators_invitation_lasts_while_they_are_one(app, table, client):
    """A site administrator is admin of every league, member or not."""
    token = make_link(table.client)
    with app.app_context():
        admin_id = db.session.scalar(select(User.id).where(User.username == "admin"))
    removed = table.client.post(
        f"/leagues/our-table/members/{admin_id}", data={f"m{admin_id}-role": "remove"}
    )
    assert removed.status_code == 302
    assert still_opens(client, token)
    assert join(client, token).status_code == 302
