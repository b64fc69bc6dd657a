"""A new username can't pass for an existing one (Unicode TS #39's skeleton) nor mix
scripts; existing accounts stay as they are (issue 34, point 8)."""

import pytest
from sqlalchemy import func, select

from scorekeeper import look_alike
from scorekeeper.accounts import users as user_service
from scorekeeper.errors import ServiceError
from scorekeeper.models import User, db
from tests.accounts.test_invitations import join, make_link
from tests.conftest import run_together

LOOKS_LIKE = "looks too much like an existing one"
MIXED = "mix alphabets"


def make(app, username, password="a long passphrase"):
    with app.app_context():
        user_service.create_user(username, password)
        db.session.remove()


def accounts(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count(User.id)))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("alice", "аlice"),  # Cyrillic а
        ("alice", "alıce"),  # dotless ı
        ("alice", "aIice"),  # a capital I for l
        ("alice", "a1ice"),  # a digit one
        ("ALICE", "ALlCE"),  # a small l for I
        ("coco", "сосо"),  # all Cyrillic
        ("bob", "b0b"),  # a zero for o
        ("arnie", "amie"),  # rn and m
    ],
)
def test_the_skeletons_of_look_alikes_meet(first, second):
    assert look_alike.skeletons(first) & look_alike.skeletons(second)


@pytest.mark.parametrize(
    ("first", "second"), [("Zoe", "Zoé"), ("Jose", "José"), ("Ana", "Anna"), ("alice", "alicia")]
)
def test_names_that_differ_to_the_eye_do_not(first, second):
    assert not look_alike.skeletons(first) & look_alike.skeletons(second)


@pytest.mark.parametrize(
    ("name", "mixes"),
    [
        ("аlice", True),  # Cyrillic and Latin
        ("Alicе", True),
        ("Ζeus", True),  # Greek and Latin
        ("alice", False),
        ("Δημήτρης", False),
        ("Дмитрий", False),
        ("山田たろう", False),  # Han and Hiragana: Japanese
        ("김민준", False),
        ("Ana-Marie 2", False),  # digits, spaces and hyphens belong to every script
        ("Zoé", False),
    ],
)
def test_names_that_mix_scripts(name, mixes):
    assert look_alike.mixes_scripts(name) is mixes


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("аlice", MIXED),
        ("alıce", LOOKS_LIKE),
        ("aIice", LOOKS_LIKE),
        ("a1ice", LOOKS_LIKE),
        ("ALICE", "is taken"),
    ],
)
def test_joining_with_a_look_alike_of_an_account_is_refused_beside_the_field(
    app, table, client, name, message
):
    make(app, "alice")
    before = accounts(app)
    token = make_link(table.client)
    page = join(client, token, username=name)
    assert page.status_code == 422
    text = page.get_data(as_text=True)
    username_field = text[text.index('name="username"') - 600 : text.index('name="password"')]
    assert message in username_field
    assert accounts(app) == before


def test_a_whole_name_in_another_script_that_looks_the_same_is_refused(app, table, client):
    make(app, "coco")
    page = join(client, make_link(table.client), username="сосо")  # Cyrillic с and о
    assert page.status_code == 422
    assert LOOKS_LIKE in page.get_data(as_text=True)


def test_a_league_admin_adding_a_look_alike_member_is_told_so(app, table):
    make(app, "alice")
    before = accounts(app)
    page = table.client.post(
        "/leagues/our-table/members",
        data={"username": "a1ice", "role": "1", "password": "a long passphrase"},
    )
    assert LOOKS_LIKE in page.get_data(as_text=True)
    assert accounts(app) == before


def test_the_command_line_refuses_a_look_alike(app):
    make(app, "alice")
    result = app.test_cli_runner().invoke(
        args=["user", "create", "аlice", "--password", "a long passphrase"]
    )
    assert result.exit_code == 1
    assert MIXED in result.output


def test_names_of_one_script_and_look_alikes_of_nobody_are_welcome(app, table, client):
    for name in ["Zoé", "Δημήτρης", "山田たろう", "Jose"]:
        make(app, name)
    make(app, "José")  # beside Jose: the accent shows
    assert accounts(app) == 6


def test_existing_look_alike_accounts_are_left_as_they_are(app, table):
    """Made before this rule: they keep their names and sign in; only new names are checked."""
    with app.app_context():
        for name in ("alice", "аlice"):
            user = User(username=name, username_key=User.key(name))
            user.set_password("a long passphrase", "pbkdf2:sha256:1000")
            db.session.add(user)
        db.session.commit()
    for name in ("alice", "аlice"):
        data = {"username": name, "password": "a long passphrase"}
        assert app.test_client().post("/login", data=data).status_code == 302
    with app.app_context(), pytest.raises(ServiceError, match=LOOKS_LIKE):
        user_service.create_user("alıce", "a long passphrase")


@pytest.mark.slow
def test_two_look_alikes_made_at_the_same_moment_make_one_account(app):
    """The check reads every name, which no unique index holds: the second waits for the
    first (PostgreSQL's advisory lock; SQLite's writes take turns)."""
    before = accounts(app)

    def create(index):
        with app.app_context():
            try:
                user_service.create_user(("coco", "сосо")[index], "a long passphrase")
                return "made"
            except ServiceError as refused:
                return refused.message
            finally:
                db.session.remove()

    results = run_together(create, 2)
    assert results.count("made") == 1
    (refused,) = [result for result in results if result != "made"]
    assert LOOKS_LIKE in refused
    assert accounts(app) == before + 1
