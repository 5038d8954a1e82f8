"""Player search (players.selectors.player_search): names in any order, with or without
accents or commas, initials, parts of names, exact IDs, ranking, pages, the trigram index."""

from __future__ import annotations

import datetime
import hashlib
import random

import pytest
from django.db import connection
from django.db.models import Q
from django.template.loader import render_to_string
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from players.models import NameWord, Player
from players.names import full_name_key
from players.selectors import player_search, player_search_rows, player_search_sql
from tests.factories import make_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def raul() -> Player:
    make_player(surname="García López", given_name="Ana")
    make_player(surname="Gómez Ruiz", given_name="Raúl")
    make_player(surname="Martínez", given_name="Rosa")
    return make_player(
        surname="García Núñez", given_name="Raúl", fed_id="ESP-12345", fide_id=2212345
    )


def found(query: str) -> list[str]:
    return [p.fed_id for p in player_search(query=query, page=1, per_page=50).players]


@pytest.mark.parametrize(
    "query",
    [
        "Raúl García",
        "Raul Garcia",
        "Garcia, Raul",
        "garcia raul",
        "GARCÍA, R.",
        "Garcia, R.",
        "R. García",
        "garc raú",
        "nunez",
        "Núñez García",
        "garcia nunez raul",
        "g n r",
    ],
)
def test_name_in_any_order_with_or_without_accents_commas_or_initials(
    raul: Player, query: str
) -> None:
    assert raul.fed_id in found(query)


@pytest.mark.parametrize(
    ("query", "absent"),
    [
        ("Raúl García", "Gómez Ruiz"),  # every word must match: Gómez Ruiz has no García
        ("Garcia, R.", "García López"),  # the initial R does not start Ana
        ("Garcia, A.", "García Núñez"),
    ],
)
def test_every_word_must_match(raul: Player, query: str, absent: str) -> None:
    assert absent not in [
        p.surname for p in player_search(query=query, page=1, per_page=50).players
    ]


def test_nothing_found_renders_a_hint(client, raul: Player) -> None:
    result = player_search(query="Raúl Fernández", page=1, per_page=50)
    assert result.players == [] and result.total == 0 and result.kind == "name"
    html = client.get(reverse("players:list"), {"q": "Raúl Fernández"}).content.decode()
    assert "No player matches." in html and "Try fewer letters" in html


def test_closest_name_first() -> None:
    far = make_player(surname="García Martínez", given_name="Raúl Antonio")
    near = make_player(surname="García", given_name="Raúl")
    middle = make_player(surname="García Sanz", given_name="Raúl")
    other = make_player(surname="Garcíaferrer", given_name="Raúl")
    ranked = [p.pk for p in player_search(query="raul garcia", page=1, per_page=10).players]
    assert ranked[0] == near.pk
    assert ranked.index(middle.pk) < ranked.index(far.pk)
    assert set(ranked) == {far.pk, near.pk, middle.pk, other.pk}
    # exact and prefix first, whatever the similarity of the others
    prefix = make_player(surname="Sanz Pla", given_name="Jordi Maria Josep")
    make_player(surname="Pla", given_name="Sanz")
    exact = make_player(surname="Sanz", given_name="Pla")
    ranked = [p.pk for p in player_search(query="Sanz, Pla", page=1, per_page=10).players]
    assert ranked[:2] == [exact.pk, prefix.pk]


def test_ids_are_found_exactly(raul: Player) -> None:
    make_player(surname="Ortiz", given_name="Ana", fed_id="ESP-123450", fide_id=22123450)
    make_player(surname="Pla", given_name="Joan", fed_id="22123", fide_id=9)
    for query in ("ESP-12345", "esp-12345", "2212345"):
        result = player_search(query=query, page=1, per_page=50)
        assert [p.pk for p in result.players] == [raul.pk], query
        assert result.kind == "id" and result.total == 1
    assert found("22123") == ["22123"]  # a federation ID made of digits
    assert found("9") == ["22123"]  # FIDE ID 9, not every ID containing a 9
    assert found("221234") == []


def test_pages() -> None:
    for n in range(23):
        make_player(surname=f"Puig{chr(97 + n)}", given_name="Joan")
    make_player(surname="Ferrer", given_name="Joan")
    first = player_search(query="puig joan", page=1, per_page=10)
    assert (first.total, first.num_pages, first.page) == (23, 3, 1)
    assert first.has_next and not first.has_previous and first.next_page == 2
    last = player_search(query="puig joan", page=3, per_page=10)
    assert len(last.players) == 3 and not last.has_next and last.previous_page == 2
    assert (last.start_index, last.end_index) == (21, 23)
    pages = [
        p.pk
        for page in (1, 2, 3)
        for p in player_search(query="puig joan", page=page, per_page=10).players
    ]
    assert len(pages) == len(set(pages)) == 23
    beyond = player_search(query="puig joan", page=99, per_page=10)
    assert beyond.page == 3 and [p.pk for p in beyond.players] == [p.pk for p in last.players]
    assert player_search(query="puig joan", page=10**30, per_page=10).page == 3
    assert player_search(query="", page=10**30, per_page=10).page == 3  # 24 players


def test_page_shows_page_n_of_m_and_links(client) -> None:
    for n in range(60):
        make_player(surname=f"Vila{n:02d}", given_name="Pere")
    html = client.get(reverse("players:list"), {"q": "vila pere", "page": "2"}).content.decode()
    assert "Page 2 of 2" in html and "60 players found." in html
    assert 'rel="prev" href="?q=vila%20pere&amp;page=1"' in html
    assert 'rel="next"' not in html
    assert client.get(reverse("players:list"), {"page": "x"}).status_code == 200


def test_markup_in_a_name_is_text(client) -> None:
    make_player(surname="<script>alert(1)</script>", given_name="Eve")
    html = client.get(reverse("players:list"), {"q": "script eve"}).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script>alert(1)" not in html


def test_api_uses_the_same_search(client, raul: Player) -> None:
    data = client.get("/api/v1/players/", {"q": "Garcia, R.", "limit": 20}).json()
    assert [p["fed_id"] for p in data["results"]] == [raul.fed_id]


def _random_registry(n: int, seed: int) -> list[Player]:
    rng = random.Random(seed)
    syllables = ["gar", "cia", "lo", "pez", "ma", "rin", "puig", "vi", "la", "ro", "sa", "nu"]
    rows = []
    for i in range(n):
        surname = " ".join(
            "".join(rng.sample(syllables, rng.randint(1, 3))).title()
            for _ in range(rng.randint(1, 2))
        )
        given = "".join(rng.sample(syllables, 2)).title()
        rows.append(
            Player(
                fed_id=f"X{i}",
                surname=surname,
                given_name=given,
                sex="M",
                name_key=full_name_key(surname, given),
            )
        )
    return Player.objects.bulk_create(rows)


def test_name_search_uses_the_name_words_index() -> None:
    """On a few thousand players the planner would rather read the table, or walk the primary
    key until the cap's LIMIT; enable_seqscan and enable_indexscan off (for this transaction)
    leave a bitmap scan as the only way to find the names without reading every row: the
    point is that the index *can* answer the name words, i.e. the query's expression is the
    index's (players/migrations/0013)."""
    _random_registry(3000, 13)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE players_player")
        cursor.execute("ANALYZE players_nameword")
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_indexscan = off")
        for query in ("garcia lopez", "Garcia, R.", "puig"):
            sql, params = player_search_sql(query=query)
            cursor.execute("EXPLAIN " + sql, params)
            plan = "\n".join(row[0] for row in cursor.fetchall())
            assert "player_name_words" in plan, plan


def test_the_vocabulary_follows_every_write_of_the_registry() -> None:
    """NameWord is kept by the database's statement-level triggers: a save, a bulk insert, an
    UPDATE of many rows and COPY all add their names' words, so the search finds the players
    they wrote; an update that leaves the names alone adds nothing."""
    saved = make_player(surname="Çağlar Öztürk", given_name="Ayşe")
    Player.objects.bulk_create(
        [
            Player(
                fed_id=fed_id,
                surname=surname,
                given_name="Grzegorz",
                sex="M",
                name_key=full_name_key(surname, "Grzegorz"),
            )
            for fed_id, surname in (("B1", "Brzęczyszczykiewicz"), ("B2", "Wójcik"))
        ]
    )
    Player.objects.filter(pk=saved.pk).update(name_key=full_name_key("Quenneville", "Ayse"))
    with (
        connection.cursor() as cursor,
        cursor.copy(
            "COPY players_player (fed_id, surname, given_name, sex, club, region, federation, "
            "title, affiliated, name_key, created_at, updated_at) FROM STDIN"
        ) as copy,
    ):
        copy.write_row(
            ["C1", "Xuereb", "Ines", "F", "", "", "", "", True, "xuereb ines"]
            + ["2026-01-01 00:00+00"] * 2
        )
    words = set(NameWord.objects.values_list("word", flat=True))
    assert {"caglar", "ozturk", "ayse", "brzeczyszczykiewicz", "wojcik", "grzegorz"} <= words
    assert "quenneville" in words
    assert {"xuereb", "ines"} <= words
    assert found("czyszczy") == ["B1"]
    assert found("quenne") == [saved.fed_id]
    assert found("uere in") == ["C1"]
    count = NameWord.objects.count()
    Player.objects.update(club="Club")
    assert NameWord.objects.count() == count


def test_the_hand_written_statement_finds_what_the_orm_lookups_find() -> None:
    """player_search_sql is SQL written by hand: it finds exactly the players the ORM's
    lookups describe (every word of 3 letters or more inside the folded name, a shorter one at
    the start of one of its words, the first at the start of the name when all are short), for
    parts of words, whole words, initials, LIKE's own characters and combinations, on a
    registry of random names."""
    _random_registry(600, 29)
    rng = random.Random(31)
    keys = list(Player.objects.values_list("name_key", flat=True))
    queries = ["_", "a_b", "100%", "gar", "cia", "garcia lo", "ma ro", "z", "g l"]
    for _ in range(120):
        words = rng.choice(keys).split()
        picked = rng.sample(words, min(len(words), rng.randint(1, 3)))
        queries.append(" ".join(w[rng.randint(0, 2) : rng.randint(3, 8)] for w in picked))
    for query in queries:
        words = " ".join(query.split()).split()
        expected = Player.objects.all()
        if words and all(len(w) < 3 for w in words):
            expected = expected.filter(name_key__startswith=words[0])
        for word in words:
            if len(word) >= 3:
                expected = expected.filter(name_key__contains=word)
            else:
                expected = expected.filter(
                    Q(name_key__startswith=word) | Q(name_key__contains=f" {word}")
                )
        if not words:
            continue
        result = player_search(query=query, page=1, per_page=1000, cap=10_000)
        assert {p.pk for p in result.players} == set(expected.values_list("pk", flat=True)), query
        assert result.total == expected.count(), query


def test_empty_query_lists_everyone_by_name() -> None:
    b = make_player(surname="Bosch", given_name="Pau")
    a = make_player(surname="Álvarez", given_name="Eva")
    result = player_search(query="  ", page=1, per_page=1)
    assert result.kind == "all" and result.total == 2 and result.num_pages == 2
    assert result.players == [a]
    assert player_search(query=",", page=2, per_page=1).players == [b]


def test_a_broad_query_ranks_a_capped_set_with_the_closest_first(client) -> None:
    for n in range(12):
        make_player(surname=f"Comas{chr(97 + n)} Vidal", given_name="Pere")  # inside the name
    make_player(surname="Vidal", given_name="Marc")  # starts with it
    exact = make_player(surname="Vidal", given_name="")  # equal to it
    result = player_search(query="vidal", page=1, per_page=50, cap=5)
    assert result.capped and 6 <= result.total <= 11
    assert [p.surname for p in result.players[:2]] == ["Vidal", "Vidal"]
    assert result.players[0].pk == exact.pk
    assert not player_search(query="vidal", page=1, per_page=50, cap=14).capped
    assert player_search(query="vidal", page=1, per_page=50, cap=14).total == 14
    html = client.get(reverse("players:list"), {"q": "vidal"}).content.decode()
    assert "14 players found." in html and "More than" not in html
    capped = player_search(query="vidal", page=1, per_page=50, cap=5)
    html = render_to_string("players/_results.html", {"result": capped, "q": "vidal"})
    assert "More than 5 players match" in html and "players found" not in html


def test_result_rows_link_each_card_as_the_url_tag_does(client) -> None:
    """The results table builds each row's link from one reversed URL (card_link); an ID the
    registry's rule does not allow (an import may bring one) is reversed and quoted itself."""
    plain = make_player(surname="Linkado", given_name="Ana", fed_id="ESP-77")
    odd = make_player(surname="Linkado", given_name="Bea", fed_id="X 1&2")
    html = client.get("/players/", {"q": "Linkado"}).content.decode()
    for player in (plain, odd):
        link = reverse("players:detail", args=[player.fed_id])
        assert f'<a href="{link.replace("&", "&amp;")}">Linkado, {player.given_name}</a>' in html
    assert 'href="/players/X%201&amp;2/"' in html


@pytest.mark.parametrize(
    "fed_id", ["ESP-77", "X 1&2", "Ñúñez-1", "a%b", "a?b#c", "~:@!$'()*+,;=", "ş\u00a0x", ".."]
)
def test_card_url_is_what_the_url_tag_writes(fed_id: str) -> None:
    from django.test import override_settings
    from django.urls import set_script_prefix
    from django.utils import translation
    from django.utils.safestring import SafeString

    from players.templatetags.player_links import card_url

    assert card_url(fed_id) == reverse("players:detail", args=[fed_id])
    with translation.override("es"):
        assert card_url(fed_id) == reverse("players:detail", args=[fed_id])
    with override_settings(FORCE_SCRIPT_NAME="/office/"):
        set_script_prefix("/office/")
        try:
            assert card_url(fed_id) == reverse("players:detail", args=[fed_id])
            assert card_url(fed_id).startswith("/office/players/")
        finally:
            set_script_prefix("/")
    # A plain ID gives an address the template need not escape; a prefix holding "&" is
    # escaped by the template as {% url %}'s would be.
    assert isinstance(card_url("ESP-77"), SafeString)
    with override_settings(FORCE_SCRIPT_NAME="/a&b/"):
        set_script_prefix("/a&b/")
        try:
            assert card_url("ESP-77") == reverse("players:detail", args=["ESP-77"])
            assert not isinstance(card_url("ESP-77"), SafeString)
            html = render_to_string("players/_results.html", {"result": _one_row("ESP-77")})
            assert 'href="/a&amp;b/players/ESP-77/"' in html
        finally:
            set_script_prefix("/")


def _one_row(fed_id: str) -> object:
    from players.selectors import PlayerSearchResult

    row = {"id": 1, "fed_id": fed_id, "surname": "Roca", "given_name": "Pol"}
    return PlayerSearchResult("roca", "name", [row], 1, 1, 50)


def test_each_field_read_is_the_players_own() -> None:
    """The rows of a search read with some fields only (the page's) or all of them hold each
    player's own values, field by field."""
    player = make_player(
        surname="Campos Ruiz",
        given_name="Ana",
        fed_id="ESP-9",
        title="IM",
        club="CE Lleida",
        region="Catalunya",
        fide_standard=2301,
        fide_id=22001,
        federation="ESP",
        birth_date=datetime.date(1990, 5, 17),
    )
    fields = ("fed_id", "surname", "given_name", "title", "club", "region", "fide_standard")
    for query in ("campos ana", "ESP-9"):
        for read in (fields, ()):
            (found_player,) = player_search(query=query, fields=read).players
            for field in read or [f.attname for f in Player._meta.concrete_fields]:
                assert getattr(found_player, field) == getattr(player, field), (query, field)
        # The results page's rows: the same fields by name, and the key.
        (row,) = player_search_rows(query=query, fields=fields).players
        assert row == {"id": player.pk, **{field: getattr(player, field) for field in fields}}
    # An empty query lists the registry (the ORM's path): the same rows.
    make_player(surname="Abad", given_name="Eva", fed_id="ESP-1")
    rows = player_search_rows(query="", fields=fields).players
    assert [row["fed_id"] for row in rows] == ["ESP-1", "ESP-9"]
    assert rows[1] == {"id": player.pk, **{field: getattr(player, field) for field in fields}}


def test_rows_are_the_players_of_the_search_in_its_order() -> None:
    for n in range(7):
        make_player(surname=f"Ribas{chr(97 + n)}", given_name="Pau", club=f"Club {n}")
    fields = ("fed_id", "club")
    for query, page in (("ribas pau", 1), ("ribas", 2), ("ribasc", 1), ("nobody", 1), ("", 3)):
        players = player_search(query=query, page=page, per_page=3, fields=fields)
        rows = player_search_rows(query=query, page=page, per_page=3, fields=fields)
        assert [(r["fed_id"], r["club"]) for r in rows.players] == [
            (p.fed_id, p.club) for p in players.players
        ], query
        assert (rows.total, rows.page, rows.kind) == (players.total, players.page, players.kind)


def test_an_anonymous_search_page_is_kept_in_the_process_only(client, settings) -> None:
    """A shared (anonymous) search page is kept whole in the process's memory, not in the
    shared cache, and its results are not kept apart; a logged-in user's page keeps them."""
    from django.core.cache import caches
    from django.core.cache.utils import make_template_fragment_key
    from django.test import RequestFactory

    from core.caching import page_key
    from core.release import release
    from tests.factories import make_user

    make_player(surname="Soler", given_name="Ona")
    address = reverse("players:list") + "?q=soler"
    first = client.get(address)
    assert "Soler, Ona" in first.content.decode()
    key = f"{release()}:{page_key(RequestFactory().get(address), kind='search', state='')}"
    assert caches["local"].get(key) is not None
    assert caches["default"].get(key) is None
    fragment = make_template_fragment_key(
        "player_search", ["en", release(), hashlib.sha1(b"soler\x001").hexdigest()]
    )
    assert caches["default"].get(fragment) is None
    with CaptureQueriesContext(connection) as queries:
        again = client.get(address)
    assert again.content == first.content and not queries.captured_queries
    signed_in = Client()
    signed_in.force_login(make_user("searcher"))
    assert "Soler, Ona" in signed_in.get(address).content.decode()
    assert "Soler, Ona" in caches["default"].get(fragment)


def test_results_read_only_the_fields_a_row_shows(client) -> None:
    make_player(surname="Campos", given_name="Ana", club="CE Lleida", region="Catalunya")
    with CaptureQueriesContext(connection) as queries:
        html = client.get("/players/", {"q": "Campos"}).content.decode()
    assert "Campos, Ana" in html
    assert '>CE Lleida</td><td data-label="Region">Catalunya</td>' in html
    search = [q["sql"] for q in queries.captured_queries if "players_player" in q["sql"]]
    assert search and all('"players_player"."birth_date"' not in sql for sql in search)
