"""Calculation notes (decisions) shown as sentences: ``{{ note|note_text }}``
(ratings/templatetags/ratings_notes.py) on the officer's review pages, in the reader's language,
and never an error for a stored note that does not fit its template."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from core.roles import RATING_OFFICER
from rating_engine.bulk import K_RULE_UNDER_30_GAMES
from rating_engine.regulations import fide_2024
from ratings.models import DraftResult, PlayerRating
from ratings.templatetags.ratings_notes import note_text
from tests.factories import build, calculate, make_user

UNDER_30 = fide_2024._K_WHY[K_RULE_UNDER_30_GAMES]


@pytest.fixture(autouse=True)
def _back_to_english():
    yield
    translation.activate(settings.LANGUAGE_CODE)


# ----------------------------------------------------------------------------- the filter


def test_a_note_is_its_article_then_its_message_with_the_params_filled_in() -> None:
    note = {
        "code": "k",
        "article": "fide-2024 8.3.3",
        "template": UNDER_30,
        "params": {"games": 12},
    }
    with translation.override("en"):
        assert (
            note_text(note) == "fide-2024 8.3.3 — K = 40: fewer than 30 rated games completed (12)"
        )
    with translation.override("es"):
        assert (
            note_text(note)
            == "fide-2024 8.3.3 — K = 40: menos de 30 partidas valoradas completadas (12)"
        )
    with translation.override("pt"):
        assert (
            note_text(note)
            == "fide-2024 8.3.3 — K = 40: menos de 30 partidas avaliadas concluídas (12)"
        )


def test_a_literal_percent_sign_is_shown_once() -> None:
    # feda-1996's championship note (rating_engine/regulations/feda_1996.py).
    template = (
        "national championship, every round played with at least 50%%: Rn "
        "%(rn)s (unrated opponents at 1800) -> %(rating)s (at least 1805)"
    )
    note = {
        "code": "championship_floor",
        "article": "A",
        "template": template,
        "params": {"rn": "1790.5", "rating": 1805},
    }
    with translation.override("en"):
        assert note_text(note) == (
            "A — national championship, every round played with at least 50%: "
            "Rn 1790.5 (unrated opponents at 1800) -> 1805 (at least 1805)"
        )
    # Spanish: the decimal comma (the reader's locale, issue 14 item 14).
    with translation.override("es"):
        assert note_text(note) == (
            "A — campeonato nacional, todas las rondas jugadas con al menos el 50%: "
            "Rn 1790,5 (rivales sin Elo a 1800) -> 1805 (como mínimo 1805)"
        )


@pytest.mark.parametrize(
    ("note", "expected"),
    [
        # a param missing: the sentence with "?" in its place
        (
            {"code": "k", "article": "art 1", "template": UNDER_30, "params": {}},
            "art 1 — K = 40: fewer than 30 rated games completed (?)",
        ),
        # params absent or not a mapping
        (
            {"code": "k", "article": "art 1", "template": UNDER_30},
            "art 1 — K = 40: fewer than 30 rated games completed (?)",
        ),
        (
            {"code": "k", "article": "art 1", "template": UNDER_30, "params": [12]},
            "art 1 — K = 40: fewer than 30 rated games completed (?)",
        ),
        # an extra param is ignored
        (
            {
                "code": "k",
                "article": "art 1",
                "template": UNDER_30,
                "params": {"games": 3, "other": 1},
            },
            "art 1 — K = 40: fewer than 30 rated games completed (3)",
        ),
        # a param of the wrong type for its conversion, a broken template: the template as it is
        (
            {"code": "x", "article": "art 2", "template": "%(n)d games", "params": {"n": "many"}},
            "art 2 — %(n)d games",
        ),
        (
            {"code": "x", "article": "art 2", "template": "100% sure", "params": {}},
            "art 2 — 100% sure",
        ),
        # no template: the code
        ({"code": "floor", "article": "art 3", "template": ""}, "art 3 — floor"),
        ({"code": "floor", "article": "art 3", "template": None}, "art 3 — floor"),
        ({"code": "floor", "article": "art 3", "template": 7}, "art 3 — floor"),
        ({"code": "floor", "template": "rating floor"}, "rating floor"),
        ({"article": "art 4"}, "art 4"),
        ({}, ""),
        (None, ""),
        ("an old note stored as text", "an old note stored as text"),
    ],
)
def test_a_note_that_does_not_fit_renders_without_error(note: object, expected: str) -> None:
    with translation.override("en"):
        assert note_text(note) == expected


def test_a_translation_whose_placeholders_differ_falls_back_to_the_english_sentence(
    monkeypatch,
) -> None:
    from core import messages

    monkeypatch.setattr(messages, "gettext", lambda s: "K = 40: %(partidas)d partidas")
    note = {"code": "k", "article": "a", "template": UNDER_30, "params": {"games": 12}}
    # "%(partidas)d" reads the missing value "?" with %d: TypeError, so English is used.
    assert note_text(note) == "a — K = 40: fewer than 30 rated games completed (12)"


# ----------------------------------------------------------------------------- the pages


@pytest.fixture
def calculated(client, django_capture_on_commit_callbacks):
    """A fide-2024 period calculated; players[0] had 12 rated games, so its K note has a param."""
    system, period, players, tournament = build()
    PlayerRating.objects.filter(player=players[0], system=system).update(games=12)
    with django_capture_on_commit_callbacks(execute=True):
        run = calculate(period)
    run.refresh_from_db()
    client.force_login(make_user(role=RATING_OFFICER))
    return client, period, players, run


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        ("en", "K = 40: fewer than 30 rated games completed (12)"),
        ("es", "K = 40: menos de 30 partidas valoradas completadas (12)"),
        ("ca", "K = 40: menys de 30 partides valorades completades (12)"),
    ],
)
def test_the_player_review_page_shows_the_decisions_as_sentences(
    calculated, lang: str, sentence: str
) -> None:
    client, period, players, run = calculated
    result = DraftResult.objects.get(run=run, player=players[0])
    assert result.k == 40 and result.notes[0]["params"] == {"games": 12}
    html = client.get(
        reverse("ratings:review_player", args=[period.pk, players[0].pk]), HTTP_ACCEPT_LANGUAGE=lang
    ).content.decode()
    assert f'<li data-code="k">{result.notes[0]["article"]} — {sentence}</li>' in html
    assert "%(" not in html


@pytest.mark.django_db
def test_pages_render_notes_that_do_not_fit(calculated) -> None:
    client, period, players, run = calculated
    bad = [
        {"code": "k", "article": "fide-2024 8.3.3", "template": UNDER_30, "params": {}},
        {
            "code": "inactive",
            "article": "fide-2024 7.2.1",
            "template": "%(n)d months",
            "params": {"n": "x"},
        },
        {"code": "floor", "article": "fide-2024 7.1.1"},
        {"code": "odd", "article": "X 1", "template": "done 100%", "params": "not a mapping"},
    ]
    DraftResult.objects.filter(run=run, player=players[0]).update(
        notes=bad, flags=["floor", "inactive", "odd"]
    )
    with translation.override("es"):
        review = client.get(
            reverse("ratings:review_player", args=[period.pk, players[0].pk]),
            HTTP_ACCEPT_LANGUAGE="es",
        )
        statuses = client.get(
            reverse("ratings:review_statuses", args=[period.pk]), HTTP_ACCEPT_LANGUAGE="es"
        )
    assert review.status_code == statuses.status_code == 200
    html = review.content.decode()
    assert "fide-2024 8.3.3 — K = 40: menos de 30 partidas valoradas completadas (?)" in html
    assert "fide-2024 7.2.1 — %(n)d months" in html
    assert '<li data-code="floor">fide-2024 7.1.1 — floor</li>' in html
    assert "X 1 — done 100%" in html
    listing = statuses.content.decode()
    assert '<li data-code="floor">fide-2024 7.1.1 — floor</li>' in listing
    assert 'data-code="k"' not in listing  # every rated player has a K: not a status change
