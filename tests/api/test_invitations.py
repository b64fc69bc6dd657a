"""Invitations through the API: a league admin lists and makes them; the token is in the
creating answer only, and the link it makes works as the members page's does."""

import hashlib
import re

import pytest
from sqlalchemy import select

from scorekeeper.models import Invitation, Membership, Role, User, db
from tests.conftest import refused

INVITATIONS = "/api/v1/leagues/our-table/invitations"


def test_an_admin_makes_an_invitation_and_sees_its_token_once(app, api):
    admin = api.as_("admin")
    made = admin.post(INVITATIONS, {"role": "scorekeeper"})
    assert made.status_code == 201
    assert made.headers["Cache-Control"] == "no-store"
    answer = made.get_json()
    assert set(answer) == {"id", "role", "created_by", "created_at", "expires_at", "token", "url"}
    assert answer["role"] == "scorekeeper"
    assert answer["created_by"].startswith("admin-")
    token = answer["token"]
    assert len(token) >= 43  # 256 random bits, URL-safe
    assert re.fullmatch(rf"http://localhost/invitations/{re.escape(token)}", answer["url"])
    with app.app_context():
        stored = db.session.get(Invitation, answer["id"])
        assert stored.token_hash == hashlib.sha256(token.encode()).hexdigest()
        assert stored.role_enum is Role.SCOREKEEPER
    # The list shows it, without its token.
    listed = admin.get(INVITATIONS)
    assert listed.status_code == 200
    assert listed.get_json() == [
        {key: answer[key] for key in ("id", "role", "created_by", "created_at", "expires_at")}
    ]
    assert token not in listed.get_data(as_text=True)
    # The link works: whoever opens it joins with the role.
    joined = app.test_client().post(
        f"/invitations/{token}",
        data={
            "username": "newcomer",
            "password": "a long new password",
            "confirm": "a long new password",
        },
    )
    assert joined.status_code in (302, 303), joined.get_data(as_text=True)[:300]
    with app.app_context():
        user = db.session.scalars(select(User).where(User.username == "newcomer")).one()
        role = db.session.scalars(
            select(Membership.role).where(Membership.user_id == user.id)
        ).one()
    assert role == Role.SCOREKEEPER
    assert admin.get(INVITATIONS).get_json() == []  # used: no longer open


def test_the_list_is_newest_first_and_a_viewer_invitation_too(api):
    admin = api.as_("admin")
    first = admin.post(INVITATIONS, {"role": "viewer"}).get_json()
    second = admin.post(INVITATIONS, {"role": "scorekeeper"}).get_json()
    listed = admin.get(INVITATIONS).get_json()
    assert [row["id"] for row in listed] == [second["id"], first["id"]]
    assert [row["role"] for row in listed] == ["scorekeeper", "viewer"]


@pytest.mark.parametrize("role", ["scorekeeper", "viewer"])
def test_a_scorekeeper_or_a_viewer_is_refused(api, role):
    member = api.as_(role)
    before = api.snapshot()
    refused(member.get(INVITATIONS), 403)
    refused(member.post(INVITATIONS, {"role": "viewer"}), 403)
    assert api.snapshot() == before


def test_without_a_token_or_outside_a_league(api):
    refused(api.as_("anonymous").get(INVITATIONS), 401)
    refused(api.as_("anonymous").post(INVITATIONS, {"role": "viewer"}), 401)
    refused(api.get("/api/v1/leagues/no-such-league/invitations"), 404)
    refused(api.post("/api/v1/leagues/no-such-league/invitations", {"role": "viewer"}), 404)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"role": "admin"}, "role"),
        ({"role": "owner"}, "role"),
        ({"role": 2}, "role"),
        ({}, "role"),
        ({"role": "viewer", "days": 30}, "days"),
    ],
)
def test_a_bad_role_or_an_unknown_field_is_a_field_error(api, body, field):
    admin = api.as_("admin")
    before = api.snapshot()
    error = refused(admin.post(INVITATIONS, body), 422, field)
    if body.get("role") == "admin":
        assert "viewer or scorekeeper" in error["fields"]["role"][0]
    assert api.snapshot() == before


def test_a_body_that_is_not_json_is_a_400(api):
    refused(api.as_("admin").post(INVITATIONS, data="role=viewer"), 400)
