"""A member's own player (issue 38, point 13): a league admin links a member's account to a
player; the member then says how they are paid on their account page, kept in the league's
history as an admin's change is."""

import html

from sqlalchemy import select

from scorekeeper.accounts import users as user_service
from scorekeeper.models import AuditAction, AuditEvent, Player, db
from scorekeeper.records import players as player_service
from scorekeeper.records.leagues import league_by_slug


def add_player(app, name: str) -> int:
    with app.app_context():
        player_id = player_service.add_player(league_by_slug("our-table").id, name).id
        db.session.remove()
    return player_id


def user_id(app, username: str) -> int:
    with app.app_context():
        found = user_service.user_by_name(username).id
        db.session.remove()
    return found


def link(table, player_id: int, user: int | str) -> None:
    response = table.client.post(
        f"/leagues/our-table/players/{player_id}/account",
        data={"account-user": str(user), "account-submit": "1"},
    )
    assert response.status_code == 302


def handle_of(app, player_id: int) -> tuple[str | None, str | None]:
    with app.app_context():
        player = db.session.get(Player, player_id)
        found = (player.payment_kind, player.payment_handle)
        db.session.remove()
    return found


def test_a_member_linked_to_a_player_says_how_they_are_paid_on_their_account(app, table, auth):
    ana = add_player(app, "Ana")
    member = auth.member("viewer", username="ana")
    assert "How I am paid" not in member.get("/account").get_data(as_text=True)
    link(table, ana, user_id(app, "ana"))
    page = member.get("/account").get_data(as_text=True)
    assert "How I am paid in Our table" in page
    assert page.index("How I am paid") < page.index("Change password")  # first
    form = {f"pay{ana}-kind": "paypal", f"pay{ana}-handle": "paypal.me/AnaT"}
    response = member.post(f"/account/payment/{league_by_slug_id(app)}", data=form)
    assert response.status_code == 302
    assert handle_of(app, ana) == ("paypal", "AnaT")
    assert 'value="AnaT"' in member.get("/account").get_data(as_text=True)
    with app.app_context():
        event = db.session.scalars(
            select(AuditEvent).where(AuditEvent.action == AuditAction.HANDLE_CHANGED)
        ).one()
        assert event.user_id == user_id(app, "ana")
        assert event.after == {"kind": "paypal", "handle": "AnaT"}
        db.session.remove()
    # The league's admins see it on the player's page, with who changed it.
    player_page = html.unescape(
        table.client.get(f"/leagues/our-table/players/{ana}").get_data(as_text=True)
    )
    assert "Now: AnaT." in player_page
    assert "ana:" in player_page


def league_by_slug_id(app) -> int:
    with app.app_context():
        found = league_by_slug("our-table").id
        db.session.remove()
    return found


def test_a_bad_handle_is_told_at_the_field_and_changes_nothing(app, table, auth):
    ana = add_player(app, "Ana")
    member = auth.member("viewer", username="ana")
    link(table, ana, user_id(app, "ana"))
    form = {f"pay{ana}-kind": "phone", f"pay{ana}-handle": "12"}
    response = member.post(f"/account/payment/{league_by_slug_id(app)}", data=form)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'aria-invalid="true"' in page
    assert "Enter a 10-digit phone number" in page
    assert handle_of(app, ana) == (None, None)


def test_only_a_linked_member_says_it_and_only_an_admin_links(app, table, auth):
    ana = add_player(app, "Ana")
    stranger = auth.member("scorekeeper", username="ben")
    form = {f"pay{ana}-kind": "paypal", f"pay{ana}-handle": "Ben"}
    assert stranger.post(f"/account/payment/{league_by_slug_id(app)}", data=form).status_code == 404
    response = stranger.post(
        f"/leagues/our-table/players/{ana}/account",
        data={"account-user": str(user_id(app, "ben")), "account-submit": "1"},
    )
    assert response.status_code == 403
    assert handle_of(app, ana) == (None, None)
    assert "How I am paid" not in stranger.get("/account").get_data(as_text=True)


def test_one_member_per_player_and_nobody_again(app, table, auth):
    ana = add_player(app, "Ana")
    first, second = auth.member("viewer", username="ana"), auth.member("viewer", username="ana2")
    link(table, ana, user_id(app, "ana"))
    link(table, ana, user_id(app, "ana2"))
    assert "How I am paid" not in first.get("/account").get_data(as_text=True)
    assert "How I am paid" in second.get("/account").get_data(as_text=True)
    link(table, ana, "")
    assert "How I am paid" not in second.get("/account").get_data(as_text=True)


def test_someone_not_a_member_is_not_linked(app, table):
    ana = add_player(app, "Ana")
    with app.app_context():
        outsider = user_service.create_user("outsider", "member-password").id
        db.session.remove()
    link(table, ana, outsider)
    page = table.client.get(f"/leagues/our-table/players/{ana}").get_data(as_text=True)
    assert "Choose one of the league&#39;s members." in page
    assert '<option selected value="">' in page


def test_the_account_page_reads_in_french(app, table, auth):
    ana = add_player(app, "Ana")
    member = auth.member("viewer", username="ana")
    link(table, ana, user_id(app, "ana"))
    member.set_cookie("lang", "fr")
    page = html.unescape(member.get("/account").get_data(as_text=True))
    assert "Comment je suis payé·e dans Our table" in page


def test_whoever_joins_by_an_invitation_made_for_a_player_is_that_player(app, table, client):
    from tests.accounts.test_invitations import LINK, join

    ana = add_player(app, "Ana")
    members = table.client.get("/leagues/our-table/members").get_data(as_text=True)
    assert f'<option value="{ana}">Ana</option>' in members
    response = table.client.post(
        "/leagues/our-table/invitations", data={"role": "1", "player": str(ana)}
    )
    assert response.status_code == 201
    page = response.get_data(as_text=True)
    assert "for Ana" in page  # the open invitation says whom it is for
    (token,) = LINK.findall(page)
    join(client, token, "ana")
    assert "How I am paid in Our table" in client.get("/account").get_data(as_text=True)


def test_an_invitation_for_no_player_of_the_league_is_refused_at_the_field(app, table):
    add_player(app, "Ana")
    response = table.client.post(
        "/leagues/our-table/invitations", data={"role": "1", "player": "999"}
    )
    assert response.status_code == 422
    page = html.unescape(response.get_data(as_text=True))
    assert "Choose one of the league's players." in page
    assert 'id="player-error"' in page or 'aria-invalid="true"' in page
    with app.app_context():
        from scorekeeper.models import Invitation

        assert db.session.scalars(select(Invitation)).all() == []
        db.session.remove()


def test_whose_account_a_player_is_is_kept_in_the_league_s_history(app, table, auth):
    """Linking, moving and removing a player's account: each change an event of the
    league, by the admin who made it, on the player's page; the same choice again adds
    nothing."""
    ana = add_player(app, "Ana")
    auth.member("viewer", username="ana")
    auth.member("viewer", username="ana2")
    link(table, ana, user_id(app, "ana"))
    link(table, ana, user_id(app, "ana"))  # the same: no change
    link(table, ana, user_id(app, "ana2"))
    link(table, ana, "")
    with app.app_context():
        events = db.session.scalars(
            select(AuditEvent)
            .where(AuditEvent.action == AuditAction.ACCOUNT_LINKED)
            .order_by(AuditEvent.id)
        ).all()
        assert [(e.params["was"], e.params["account"]) for e in events] == [
            (None, "ana"),
            ("ana", "ana2"),
            ("ana2", None),
        ]
        assert {e.user_id for e in events} == {user_id(app, "admin")}
        assert {e.game_id for e in events} == {None}
        db.session.remove()
    page = " ".join(
        html.unescape(
            table.client.get(f"/leagues/our-table/players/{ana}").get_data(as_text=True)
        ).split()
    )
    assert "admin: Ana's account set to ana." in page
    assert "admin: Ana's account set to ana2." in page
    assert "admin: Ana's account removed (it was ana2)." in page
