"""A deal recorded with the script on costs one request: the save answers with the game
page, whose main part the script puts in place (issue 17). Without the script, the
save is still POST → redirect → GET (tests/web/test_wire.py)."""

import pytest

pytestmark = pytest.mark.browser


def test_recording_a_deal_is_one_request_and_shows_the_new_card(screen):
    screen.sign_in()
    screen.start_game()
    page = screen.page
    screen.record(0, (300, 200))  # the first deal, before counting
    page.wait_for_load_state("networkidle")  # the icon, which the browser asks for late
    sent: list[str] = []
    page.on("request", lambda request: sent.append(f"{request.method} {request.url}"))
    # The live view's poll (static/live.js, GET …/version) runs on its own clock, and on a
    # busy machine one can fall inside a save: it is not the save's.
    polled = lambda url: url.startswith("GET ") and url.endswith("/version")  # noqa: E731
    screen.record(1, (150, 400), (0, 1))
    sent[:] = [request for request in sent if not polled(request)]
    assert len(sent) == 1, sent
    assert sent[0].startswith("POST ")
    assert sent[0].endswith("/deals")
    assert "Deal 2 saved." in screen.text(".flashes")
    assert page.locator(".scorecard tbody tr").count() == 2
    assert page.url.endswith("#play")
    # The page goes on working: the next deal is saved the same way, still one request.
    sent.clear()
    screen.record(0, (100, 50))
    sent[:] = [request for request in sent if not polled(request)]
    assert len(sent) == 1, sent
    assert page.locator(".scorecard tbody tr").count() == 3
    screen.shot("one-request-save")


def test_a_refused_deal_is_shown_from_the_same_one_request(screen):
    screen.expected_errors.append("422")  # the browser logs the refusal's status
    screen.sign_in()
    screen.start_game()
    page = screen.page
    page.wait_for_load_state("networkidle")
    sent: list[str] = []
    page.on("request", lambda request: sent.append(f"{request.method} {request.url}"))
    screen.record(0, (17, 5000))
    sent[:] = [request for request in sent if not request.endswith("/version")]  # the poll's
    assert len(sent) == 1, sent
    assert page.locator('main [aria-invalid="true"]').count() >= 1
    assert page.locator(".scorecard tbody tr").count() == 0
