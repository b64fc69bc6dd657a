"""The scorekeeper's own agreement (issue 38, point 5), on a phone at 360×640 with
JavaScript and without: Ana keeps score of her own game, her account linked to her
player. The card says her recording it is her agreement; marking it paid asks about Ben
only, never about Ana herself, in English and in French."""

import re
from collections.abc import Iterator
from typing import Any

import pytest

from scorekeeper.models import Role

from .conftest import PHONES, Screen, ana_signs_in_as_her_player
from .test_at_the_table_after_an_evening import finish_a_game
from .test_deal_form_in_view import view_shot

pytestmark = pytest.mark.browser


@pytest.fixture(params=[True, False], ids=["js", "nojs"])
def phone(request: pytest.FixtureRequest, browser: Any, live_server: str) -> Iterator[Screen]:
    size, script = PHONES["360x640"], request.param
    context = browser.new_context(
        viewport=size, is_mobile=True, has_touch=True, java_script_enabled=script
    )
    screen = Screen(context.new_page(), live_server, f"360x640-{request.node.callspec.id}")
    screen.context = context  # type: ignore[attr-defined]
    yield screen
    context.close()
    assert screen.unexpected_errors() == []


def ana_keeps_score(phone: Screen) -> None:
    """Ana, a scorekeeper of the league, signs in on her phone, her account linked to her
    player."""
    ana_signs_in_as_her_player(phone, Role.SCOREKEEPER)


def test_marking_paid_never_asks_the_scorekeeper_about_herself(phone):
    ana_keeps_score(phone)
    phone.start_game()
    finish_a_game(phone)
    agreements = phone.page.locator("#agreements")
    said = " ".join(agreements.inner_text().split())
    assert "Ana (you) recorded this card: that is your agreement." in said
    assert "Ana has not agreed" not in said
    assert "Ben has not agreed with this card yet." in said
    assert agreements.locator("button", has_text="Ana agrees").count() == 0
    assert agreements.locator("button", has_text="Ben agrees").count() == 1
    agreements.scroll_into_view_if_needed()
    view_shot(phone, "issue38-own-agreement")

    game = phone.page.url.split("#")[0]
    phone.go("/language/fr")
    phone.page.goto(game)
    dit = re.sub(r"[ \t\r\n]+", " ", phone.page.locator("#agreements").inner_text())
    assert "Ana (vous)\u00a0: vous avez tenu cette feuille, c'est votre approbation." in dit
    assert "Ana n'a pas encore approuvé" not in dit
    phone.page.locator("#agreements").scroll_into_view_if_needed()
    view_shot(phone, "issue38-own-agreement-fr")
    phone.go("/language/en")
    phone.page.goto(game)

    # Mark paid: the question names Ben, who has not agreed, and not Ana.
    phone.tap(".payment button.primary")
    phone.page.wait_for_load_state()
    question = " ".join(phone.page.locator(".payment .confirm").inner_text().split())
    assert "Ben has not agreed with this card yet. Mark it paid anyway?" in question
    assert "Ana has not agreed" not in question
    view_shot(phone, "issue38-own-agreement-asked")

    # Ben agrees (on the scorekeeper's phone): marking it paid asks nothing more.
    phone.tap("#agreements button:has-text('Ben agrees')")
    phone.page.wait_for_load_state()
    phone.tap(".payment button.primary")
    phone.page.wait_for_load_state()
    assert phone.page.locator(".payment .confirm").count() == 0
    assert "Marked paid." in phone.text(".flashes")
