"""Random and hostile values posted to every form: never a 500, and a refusal changes nothing."""

import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.models import Game, LoginThrottle, db

pytestmark = pytest.mark.slow  # Hypothesis posts hundreds of forms

HOSTILE = [
    "",
    " ",
    "0",
    "-0",
    "−5",
    "1e9",
    "NaN",
    "inf",
    "-1",
    "99999999999999999999999",
    "3.5",
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "' OR 1=1 --",
    "\x00",
    "\u202e",
    "𝟙𝟚𝟛",
    "null",
    "[]",
    "{}",
    "a" * 500,
    "%s%s%n",
    "../../etc/passwd",
]
value = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(max_size=60),
    st.integers(min_value=-(10**12), max_value=10**12).map(str),
)

#: Every form, with the fields it has ({game} is a game in progress, {done} a finished one).
FORMS = {
    "/leagues/our-table/games/new": [
        "player0",
        "player1",
        "preset",
        "apply_preset",
        "target",
        "progressive",
        "natural_needed",
        "skunk",
        "difference",
        "small",
        "big",
        "first_dealer",
        "submit",
    ],
    "/games/{game}/deals": [
        "cards",
        "out",
        "score0",
        "score1",
        "stars0",
        "stars1",
        "version",
        "token",
        "confirm",
    ],
    "/games/{game}/deals/1": ["out", "score0", "score1", "stars0", "stars1", "version", "confirm"],
    "/games/{game}/deals/1/delete": ["version"],
    "/games/{game}/undo": ["version"],
    "/games/{done}/paid": ["version"],
    "/games/{done}/unlock": ["version"],
    "/leagues/our-table/players": ["name"],
    "/leagues/our-table/settings": ["name", "public"],
    "/leagues/our-table/members": ["username", "role", "password"],
    "/leagues/our-table/members/1": ["m1-role"],
    "/leagues/new": ["name", "public"],
    "/account": [
        "pw-current",
        "pw-password",
        "pw-confirm",
        "pw-submit",
        "token-name",
        "token-submit",
    ],
    "/login": ["username", "password", "remember"],
    "/setup": ["username", "password", "confirm"],
}


def snapshot(app):
    """Every row of every table but the sign-in counters (which count refusals)."""
    with app.app_context():
        rows = {}
        for table in db.metadata.sorted_tables:
            if table.name == LoginThrottle.__tablename__:
                continue
            rows[table.name] = sorted(map(repr, db.session.execute(db.select(table)).all()))
        db.session.remove()
        return rows


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_hostile_form_posts_never_fail_and_refusals_change_nothing(table, app, data):
    game_id = table.start_game(f"A{uuid.uuid4().hex[:6]}", f"B{uuid.uuid4().hex[:6]}")
    table.record(game_id, 0, (100, 50))
    done = table.start_game(f"C{uuid.uuid4().hex[:6]}", f"D{uuid.uuid4().hex[:6]}")
    table.record(done, 0, (1250, 50), confirm=True)
    path = data.draw(st.sampled_from(sorted(FORMS)))
    fields = data.draw(st.lists(st.sampled_from(FORMS[path]), unique=True))
    form = {field: data.draw(value) for field in fields}
    before = snapshot(app)
    response = table.client.post(path.format(game=game_id, done=done), data=form)
    assert response.status_code < 500
    # Done: a redirect, or a page made for what was created (a new API token, shown once).
    if response.status_code not in (201, 302):  # refused (or re-shown for a confirmation)
        assert snapshot(app) == before, (path, form, response.status_code)
    with app.app_context():
        assert db.session.get(Game, game_id) is not None
