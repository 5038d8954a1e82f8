"""The calculator page (/ratings/calculator/): the same figures as POST /api/v1/calculator/ for
the same inputs, errors naming the line, the registry's ratings when players are picked, and
the autocomplete's JSON."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.urls import reverse

from ratings.models import PlayerRating
from tests.factories import make_player, make_system

pytestmark = pytest.mark.django_db

URL = "/ratings/calculator/"


def _cell(html: str, cell_id: str) -> str:
    found = re.search(rf'<td id="{cell_id}">([^<]*)', html)
    assert found, f"no #{cell_id} in the page"
    return found[1].strip()


def _game_rows(html: str) -> list[list[str]]:
    """The games table's cells (opponent label, rating, result, expected, change, K)."""
    table = re.search(r'<table class="calculation">(.*?)</table>', html, re.S)
    assert table, "no games table"
    rows = re.findall(r"<tr><td>(.*?)</tr>", table[1], re.S)
    return [
        [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", "<td>" + r)]
        for r in rows
    ]


def _api(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/v1/calculator/", json.dumps(body), content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()


def _body(ruleset: str, me: dict[str, Any], opponents: list[tuple[int, str]], **extra: Any):
    """The API's input written by hand (not by the page's code): the player against each
    opponent, in October 2026."""
    return {
        "ruleset": ruleset,
        "period": {"start": "2026-10-01", "end": "2026-10-31"},
        "parameters": extra.get("parameters", {}),
        "players": [
            {"id": "A", **me},
            *({"id": f"O{i}", "rating": r} for i, (r, _res) in enumerate(opponents)),
        ],
        "tournaments": [
            {
                "id": "T",
                "system": "swiss",
                "end_date": "2026-10-20",
                "rate_of_play": extra.get("rate_of_play", "standard"),
                "games": [
                    {"white": "A", "black": f"O{i}", "result": res}
                    for i, (_r, res) in enumerate(opponents)
                ],
            }
        ],
    }


@pytest.mark.parametrize(
    ("ruleset", "me_rating", "games"),
    [("fide-2024", 1850, 40), ("fide-2000", 2105, 60), ("feda-1996", 2010, 80)],
)
def test_page_figures_equal_the_api(client, ruleset, me_rating, games):
    system = make_system(ruleset=ruleset)
    opponents = [(1900, "1-0"), (2050, "1/2-1/2"), (1880, "0-1"), (1990, "1-0")]
    scores = {"1-0": "1", "1/2-1/2": "0.5", "0-1": "0"}
    query: dict[str, Any] = {
        "system": system.code,
        "rating": me_rating,
        "games": games,
        "date": "2026-10-20",
    }
    for n, (rating, res) in enumerate(opponents, 1):
        query[f"opp{n}"] = rating
        query[f"res{n}"] = scores[res]
    page = client.get(URL, query)
    assert page.status_code == 200
    html = page.content.decode()
    api = _api(client, _body(ruleset, {"rating": me_rating, "games": games}, opponents))
    mine = next(p for p in api["players"] if p["id"] == "A")
    assert int(_cell(html, "rating-before")) == mine["rating_before"] == me_rating
    assert int(_cell(html, "games")) == mine["games"] == 4
    assert float(_cell(html, "score")) == mine["score"] == 2.5
    assert _cell(html, "expected") == f"{mine['expected']:.2f}"
    assert int(_cell(html, "change")) == mine["change"]
    assert int(_cell(html, "rating-after")) == mine["rating_after"]
    assert _cell(html, "k").split()[0] == str(mine["k"])
    assert mine["k_article"] and mine["k_article"] in html
    lines = [g for g in api["games"] if g["player"] == "A"]
    rows = _game_rows(html)
    assert len(rows) == len(lines) == 4
    for row, line in zip(rows, lines, strict=True):
        assert int(row[1]) == line["opponent_rating"]
        assert float(row[2]) == line["score"]
        assert row[3] == f"{line['expected']:.2f}"
        assert row[4] == f"{line['change']:.2f}"
        assert int(row[5]) == line["k"]
    # The address is the calculation: the same URL gives the same page.
    assert client.get(URL, query).content.decode().count(f"{mine['expected']:.2f}") >= 1


def test_errors_name_the_line(client):
    system = make_system()
    html = client.get(
        URL,
        {
            "system": system.code,
            "rating": 1800,
            "opp1": "1900",
            "res1": "1",
            "opp3": "abc",
            "res3": "1",
            "opp4": "2000",
            "res4": "2",
            "res5": "0",
        },
    ).content.decode()
    assert "Line 3: the opponent&#x27;s rating must be a whole number" in html
    assert "Line 4: the result must be 1, ½ or 0" in html
    assert "Line 5: type the opponent&#x27;s rating or pick him." in html
    assert 'id="summary"' not in html
    # What was typed stays in its line.
    assert 'name="opp3" id="opp3" min="0" max="3500" value="abc"' in html


def test_at_most_50_lines(client):
    system = make_system()
    html = client.get(URL, {"system": system.code, "opp51": "1900", "res51": "1"}).content.decode()
    assert "Line 51: at most 50 games" in html


def test_field_errors_name_the_field(client):
    system = make_system()
    html = client.get(
        URL, {"system": system.code, "rating": "-5", "opp1": "1900", "res1": "1"}
    ).content.decode()
    assert 'data-field="rating"' in html
    html = client.get(URL, {"system": "nope"}).content.decode()
    assert 'data-field="system"' in html


def test_picked_players_use_their_ratings_in_the_system(client):
    system = make_system(ruleset="fide-2024")
    me = make_player()
    opponent = make_player()
    PlayerRating.objects.create(player=me, system=system, rating=2000, games=80, kind="rated")
    PlayerRating.objects.create(player=opponent, system=system, rating=2200, games=80)
    html = client.get(
        URL,
        {
            "system": system.code,
            "player": me.fed_id,
            "id1": opponent.fed_id,
            "res1": "0.5",
            "date": "2026-10-20",
        },
    ).content.decode()
    api = _api(client, _body("fide-2024", {"rating": 2000, "games": 80}, [(2200, "1/2-1/2")]))
    mine = next(p for p in api["players"] if p["id"] == "A")
    assert int(_cell(html, "rating-before")) == 2000
    assert int(_cell(html, "change")) == mine["change"]
    assert reverse("players:detail", args=[opponent.fed_id]) in html
    # An unknown opponent's ID, and one without a rating in the system, name their line.
    stranger = make_player()
    html = client.get(
        URL,
        {
            "system": system.code,
            "rating": 1500,
            "id1": "NOPE1",
            "res1": "1",
            "id2": stranger.fed_id,
            "res2": "1",
        },
    ).content.decode()
    assert "Line 1: no player with federation ID NOPE1." in html
    assert "Line 2: " in html and "has no rating in" in html


def test_unrated_player_gets_the_first_rating_with_its_articles(client):
    """Without a rating of his own, the engine's first-rating path: the page shows the same
    rating and every note's article."""
    system = make_system(ruleset="fide-2024")
    query = {"system": system.code, "date": "2026-10-20"}
    for n in range(1, 6):
        query[f"opp{n}"] = str(1800 + 20 * n)
        query[f"res{n}"] = "0.5"
    html = client.get(URL, query).content.decode()
    body = _body(
        "fide-2024", {"rating": None, "games": 0}, [(1800 + 20 * n, "1/2-1/2") for n in range(1, 6)]
    )
    mine = next(p for p in _api(client, body)["players"] if p["id"] == "A")
    assert mine["status"] == "new" and mine["notes"]
    assert int(_cell(html, "rating-after")) == mine["rating_after"]
    for note in mine["notes"]:
        assert note["article"] in html


def test_game_left_out_shows_its_article(client):
    """fide-2000: an opponent under the list's floor counts as unrated (6.41): the game is
    left out, and the page says so with the article, as the API does."""
    system = make_system(ruleset="fide-2000")
    html = client.get(
        URL,
        {
            "system": system.code,
            "rating": 2105,
            "games": 60,
            "date": "2026-10-20",
            "opp1": "1700",
            "res1": "1",
            "opp2": "2000",
            "res2": "1",
        },
    ).content.decode()
    api = _api(
        client, _body("fide-2000", {"rating": 2105, "games": 60}, [(1700, "1-0"), (2000, "1-0")])
    )
    left_out = [e for e in api["excluded"] if "A" in (e["white"], e["black"])]
    assert left_out
    table = re.search(r'<table id="excluded">(.*?)</table>', html, re.S)
    assert table
    for e in left_out:
        assert e["article"] in table[1]
    assert int(_cell(html, "games")) == next(p for p in api["players"] if p["id"] == "A")["games"]


def test_autocomplete_gives_the_rating_in_the_system(client):
    system = make_system()
    player = make_player(surname="Zubizarreta", given_name="Ana")
    PlayerRating.objects.create(player=player, system=system, rating=1934, games=10)
    data = client.get(
        reverse("ratings:calculator_players"), {"q": "Zubizarreta", "system": system.code}
    ).json()
    assert data["results"] == [
        {"fed_id": player.fed_id, "name": "Zubizarreta, Ana", "rating": 1934}
    ]
    data = client.get(reverse("ratings:calculator_players"), {"q": "Zubizarreta"}).json()
    assert data["results"][0]["rating"] is None


def test_linked_from_home_and_login(client):
    for url in ("/", "/accounts/login/"):
        assert f'href="{URL}"' in client.get(url).content.decode()
