"""What goes over the wire: static files cached for good under fingerprinted URLs, and
answers compressed when (and only when) the client asks (issue 17)."""

import gzip
import re
from pathlib import Path

import brotli
import pytest

from scorekeeper.web import assets

STATIC_URL = re.compile(r'(?:href|src)="(/static/[^"]+)"')


def static_urls(page: str) -> list[str]:
    return STATIC_URL.findall(page)


def test_the_layout_links_every_static_file_by_its_content_hash(table):
    page = table.client.get("/").get_data(as_text=True)
    urls = static_urls(page)
    assert {url.partition("?")[0] for url in urls} >= {"/static/style.css", "/static/app.js"}
    for url in urls:
        path, _, query = url.partition("?")
        body = table.client.get(path).data
        assert query == f"v={assets._asset(body, path).version}", url


def test_a_fingerprinted_file_is_cached_for_a_year_and_never_revalidated(table):
    page = table.client.get("/").get_data(as_text=True)
    for url in static_urls(page):
        response = table.client.get(url)
        assert response.status_code == 200, url
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        # No Vary: Cookie: a flashed message changes the cookie, and the browser would
        # then fetch the file again.
        assert "cookie" not in response.headers.get("Vary", "").lower(), url
        assert "Set-Cookie" not in response.headers, url


def test_a_file_asked_without_its_hash_or_with_an_old_one_is_revalidated(client):
    for url in ("/static/style.css", "/static/style.css?v=0123456789ab"):
        response = client.get(url)
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "no-cache"
        again = client.get(url, headers={"If-None-Match": response.headers["ETag"]})
        assert again.status_code == 304


def test_an_unknown_static_file_is_a_404(client):
    assert client.get("/static/nothing.css").status_code == 404
    assert client.get("/static/../pyproject.toml").status_code == 404


def test_the_manifest_names_its_icons_by_their_hash(client):
    page = client.get("/static/manifest.json").get_json()
    for icon in page["icons"]:
        path, _, query = icon["src"].partition("?")
        response = client.get(icon["src"])
        assert response.status_code == 200
        assert query == f"v={assets._asset(response.data, path).version}"
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"


@pytest.mark.parametrize(
    ("accept", "coding"),
    [
        ("gzip, deflate, br, zstd", "br"),
        ("gzip", "gzip"),
        ("br;q=0, gzip", "gzip"),
        ("", None),
        ("identity", None),
    ],
)
def test_pages_json_css_and_js_are_compressed_only_when_the_client_asks(table, accept, coding):
    game_id = table.start_game()
    headers = {"Accept-Encoding": accept} if accept else {}
    page = table.client.get(f"/games/{game_id}").get_data(as_text=True)
    urls = [f"/games/{game_id}", "/leagues/our-table/export.json", *static_urls(page)]
    for url in (url for url in urls if ".png" not in url):  # PNG is compressed already
        plain = table.client.get(url).data
        response = table.client.get(url, headers=headers)
        assert response.status_code == 200, url
        assert response.headers.get("Content-Encoding") == coding, url
        assert "accept-encoding" in response.headers.get("Vary", "").lower(), url
        body = response.data
        if coding == "br":
            body = brotli.decompress(body)
        elif coding == "gzip":
            body = gzip.decompress(body)
        if url.startswith("/static/"):
            assert body == plain, url
        else:
            # Pages carry a fresh CSRF token each time; the rest is the same.
            assert len(body) == pytest.approx(len(plain), abs=200), url
        if coding:
            assert len(response.data) < len(body), url


def test_a_static_file_is_compressed_when_first_asked_for_and_kept(app, monkeypatch):
    """Not at start: every ``flask`` command and worker paid for brotli at its best."""
    compressed = []
    compress = brotli.compress
    monkeypatch.setattr(brotli, "compress", lambda body: compressed.append(1) or compress(body))
    loaded = assets.load(Path(app.static_folder))
    assert compressed == []
    style = loaded["style.css"]
    assert set(style.encoded) == {"br", "gzip"}
    assert brotli.decompress(style.encoded["br"]) == style.body
    assert gzip.decompress(style.encoded["gzip"]) == style.body
    assert style.encoded["br"] is style.encoded["br"]
    assert compressed == [1]
    assert loaded["icon-192.png"].encoded == {}  # an image is compressed already


def test_a_deal_saved_from_the_script_is_answered_with_the_game_page_itself(table):
    game_id = table.start_game()
    form = {"out": "0", "score0": "300", "score1": "200", "token": "t-script"}
    answer = table.client.post(
        f"/games/{game_id}/deals", data=form, headers={"X-Requested-With": "fetch"}
    )
    assert answer.status_code == 200
    page = answer.get_data(as_text=True)
    assert "Deal 1 saved." in page
    assert 'id="deal-1"' in page
    # The message was shown once: the next page doesn't repeat it.
    assert "Deal 1 saved." not in table.client.get(f"/games/{game_id}").get_data(as_text=True)


def test_without_the_script_a_save_is_still_post_redirect_get(table):
    game_id = table.start_game()
    form = {"out": "0", "score0": "300", "score1": "200", "token": "t-plain"}
    answer = table.client.post(f"/games/{game_id}/deals", data=form)
    assert answer.status_code == 302
    assert answer.headers["Location"].endswith(f"/games/{game_id}#play")
    assert "Deal 1 saved." in table.client.get(answer.headers["Location"]).get_data(as_text=True)
