"""Spanish, Catalan and Portuguese translations: catalogues complete, compiled and used by the
pages.

The .po files are parsed here (no gettext tools needed), the committed .mo files are read with
the standard library, and pages are rendered with Accept-Language or after set_language.
"""

from __future__ import annotations

import ast
import gettext as pygettext
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, ngettext

from formats import problems
from rating_engine.bulk import K_RULE_UNDER_30_GAMES
from rating_engine.regulations import fide_2024

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGS = ("es", "ca", "pt")
PLACEHOLDER = re.compile(r"%\([^)]+\)[-+ #0]*\d*(?:\.\d+)?[sdrif]|%%|\{\{.*?\}\}")


@pytest.fixture(autouse=True)
def _back_to_english():
    """A request activates its language in this thread; leave English to the tests that follow."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


@dataclass
class Entry:
    flags: set[str] = field(default_factory=set)
    msgctxt: str | None = None
    msgid: str | None = None
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    obsolete: bool = False


def parse_po(path: Path) -> list[Entry]:
    """A small .po reader: enough for the files makemessages writes."""
    entries: list[Entry] = []
    entry = Entry()
    current: tuple[str, int] | None = None

    def flush() -> None:
        nonlocal entry
        if entry.msgid is not None or entry.obsolete:
            entries.append(entry)
        entry = Entry()

    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            flush()
            current = None
        elif line.startswith("#~"):
            entry.obsolete = True
        elif line.startswith("#,"):
            entry.flags |= {f.strip() for f in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            assert current is not None, line
            value = ast.literal_eval(line)
            key, n = current
            if key == "msgstr":
                entry.msgstr[n] += value
            else:
                setattr(entry, key, getattr(entry, key) + value)
        else:
            m = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])? (".*")$', line)
            assert m, f"{path}: unreadable line {line!r}"
            key, n, value = m.group(1), int(m.group(2) or 0), ast.literal_eval(m.group(3))
            if key == "msgstr":
                entry.msgstr[n] = value
            else:
                setattr(entry, key, value)
            current = (key, n)
    flush()
    return entries


def _messages(lang: str) -> list[Entry]:
    return [
        e
        for e in parse_po(LOCALE / lang / "LC_MESSAGES" / "django.po")
        if e.msgid and not e.obsolete
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_po_file_is_complete(lang: str) -> None:
    entries = parse_po(LOCALE / lang / "LC_MESSAGES" / "django.po")
    header = next(e for e in entries if e.msgid == "")
    assert "fuzzy" not in header.flags
    assert f"Language: {lang}\n" in header.msgstr[0]
    nplurals = int(re.search(r"nplurals=(\d+)", header.msgstr[0]).group(1))
    messages = _messages(lang)
    assert len(messages) > 500
    fuzzy = [e.msgid for e in messages if "fuzzy" in e.flags]
    untranslated = [e.msgid for e in messages if not all(e.msgstr.values())]
    assert not fuzzy, f"fuzzy entries in {lang}: {fuzzy}"
    assert not untranslated, f"untranslated entries in {lang}: {untranslated}"
    for e in messages:
        assert e.msgid is not None  # _messages() keeps entries with a msgid
        if e.msgid_plural is not None:
            assert sorted(e.msgstr) == list(range(nplurals)), e.msgid
            assert sorted(PLACEHOLDER.findall(e.msgstr[0])) == sorted(
                PLACEHOLDER.findall(e.msgid)
            ), e.msgid
            for n in range(1, nplurals):
                assert sorted(PLACEHOLDER.findall(e.msgstr[n])) == sorted(
                    PLACEHOLDER.findall(e.msgid_plural)
                ), e.msgid
        else:
            assert sorted(PLACEHOLDER.findall(e.msgstr[0])) == sorted(
                PLACEHOLDER.findall(e.msgid)
            ), e.msgid


@pytest.mark.parametrize("lang", LANGS)
def test_committed_mo_matches_the_po(lang: str) -> None:
    """The .mo is committed for machines without gettext: it must not lag behind the .po."""
    with open(LOCALE / lang / "LC_MESSAGES" / "django.mo", "rb") as fp:
        catalog = pygettext.GNUTranslations(fp)
    stale = []
    for e in _messages(lang):
        if e.msgctxt is not None:
            continue
        assert e.msgid is not None
        if e.msgid_plural is not None:
            got = catalog.ngettext(e.msgid, e.msgid_plural, 1)
            if got != e.msgstr[0]:
                stale.append(e.msgid)
        elif catalog.gettext(e.msgid) != e.msgstr[0]:
            stale.append(e.msgid)
    assert not stale, f"{lang}: run compilemessages; stale .mo for {stale[:5]}"


EXPECTED = {
    "es": {
        "Rating lists": "Listas Elo",
        "Players": "Jugadores",
        "Tournaments": "Torneos",
        "Log in": "Iniciar sesión",
        "Swiss": "Suizo",
        "Bye": "Descanso",
        "Forfeit": "Incomparecencia",
        "protest": "reclamación",
        "chief arbiter": "árbitro principal",
    },
    "ca": {
        "Rating lists": "Llistes Elo",
        "Players": "Jugadors",
        "Tournaments": "Tornejos",
        "Log in": "Inicia la sessió",
        "Swiss": "Suís",
        "Bye": "Descans",
        "Forfeit": "Incompareixença",
        "protest": "reclamació",
        "chief arbiter": "àrbitre principal",
    },
    "pt": {
        "Rating lists": "Listas de rating",
        "Players": "Jogadores",
        "Tournaments": "Torneios",
        "Log in": "Iniciar sessão",
        "Swiss": "Suíço",
        "Bye": "Folga",
        "Forfeit": "Falta de comparência",
        "protest": "reclamação",
        "chief arbiter": "árbitro principal",
    },
}

K_UNDER_30 = {
    "es": "K = 40: menos de 30 partidas valoradas completadas (12)",
    "ca": "K = 40: menys de 30 partides valorades completades (12)",
    "pt": "K = 40: menos de 30 partidas avaliadas concluídas (12)",
}


@pytest.mark.parametrize("lang", LANGS)
def test_representative_strings_translate(lang: str) -> None:
    with translation.override(lang):
        for english, translated in EXPECTED[lang].items():
            assert gettext(english) == translated
        # A K message template from the pure engine, translated by the Django layer.
        template = fide_2024._K_WHY[K_RULE_UNDER_30_GAMES]
        assert template == "K = 40: fewer than 30 rated games completed (%(games)s)"
        assert gettext(template) % {"games": 12} == K_UNDER_30[lang]
        # Every report problem template (formats/reports) and every K reason is in the
        # catalogue.
        for text in [*problems.TEMPLATES.values(), *fide_2024._K_WHY.values()]:
            assert gettext(text) != text, text
        assert "%(players)s" not in ngettext(
            "%(players)s player in the registry.", "%(players)s players in the registry.", 2
        ) % {"players": 2}
        assert ngettext("%(n)s player.", "%(n)s players.", 1) != "%(n)s player."
    with translation.override("en"):
        assert gettext("Rating lists") == "Rating lists"


def _engine_templates() -> dict[str, str]:
    """Every literal the engine marks with its no-op ``_()`` (what makemessages extracts),
    with where it is."""
    found: dict[str, str] = {}
    engine = Path(settings.BASE_DIR) / "rating_engine"
    for path in sorted(engine.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "_"
            ):
                (arg,) = node.args
                assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), (
                    f"{path}:{node.lineno}: _() of a non-literal is not extracted"
                )
                found.setdefault(arg.value, f"{path.relative_to(settings.BASE_DIR)}:{node.lineno}")
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_every_engine_template_is_translated(lang: str) -> None:
    """The notes and reasons the calculation stores are shown translated (ratings_notes)."""
    templates = _engine_templates()
    assert len(templates) > 100
    catalogue = {e.msgid: e for e in _messages(lang)}
    missing = [where for text, where in templates.items() if text not in catalogue]
    assert not missing, f"{lang}: engine templates not in the catalogue (makemessages): {missing}"
    for text in templates:
        assert sorted(PLACEHOLDER.findall(catalogue[text].msgstr[0])) == sorted(
            PLACEHOLDER.findall(text)
        ), text


@pytest.mark.django_db
def test_page_in_spanish_from_accept_language(client) -> None:
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<html lang="es">' in html
    for text in ("Listas Elo", "Jugadores", "Torneos", "Iniciar sesión"):
        assert text in html
    assert "Rating lists" not in html


@pytest.mark.django_db
def test_set_language_switches_the_site(client) -> None:
    response = client.post(reverse("set_language"), {"language": "ca", "next": reverse("home")})
    assert response.status_code == 302
    html = client.get(reverse("players:list")).content.decode()
    assert '<html lang="ca">' in html
    assert "Llistes Elo" in html and "Jugadors" in html and "Tornejos" in html
    client.post(reverse("set_language"), {"language": "pt", "next": reverse("home")})
    html = client.get(reverse("home")).content.decode()
    assert "Listas de rating" in html and "Iniciar sessão" in html
