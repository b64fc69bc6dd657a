"""Where a sign-in or the language switch goes next (issue 21, point 8): a path on this site,
never elsewhere, and never a header broken by a line break (that was a 500)."""

import pytest

#: ``next`` values with a control character in them, as sent in a URL.
BROKEN = ["/%0d%0aSet-Cookie:%20planted=1", "/leagues%0a", "/%0d", "/%09/evil.example"]


@pytest.mark.parametrize("target", BROKEN)
def test_the_language_switch_treats_a_control_character_in_next_as_unsafe(client, target):
    response = client.get(f"/language/fr?next={target}")
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    assert "planted" not in str(response.headers)


@pytest.mark.parametrize("target", BROKEN)
def test_signing_in_treats_a_control_character_in_next_as_unsafe(client, target):
    response = client.post(
        f"/login?next={target}", data={"username": "admin", "password": "admin-password"}
    )
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    assert "planted" not in str(response.headers)


def test_a_plain_path_is_still_followed(client):
    response = client.get("/language/fr?next=/leagues%3Fpage%3D2")
    assert response.headers["Location"] == "/leagues?page=2"
