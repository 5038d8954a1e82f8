"""The names of an imported list: the name keys computed in the import (name_key, fold_all)
equal the registry's (players.names), and how a name field is split."""

from __future__ import annotations

import pytest

from formats import lists as lf


@pytest.mark.parametrize(
    "surname, given",
    [
        ("O'Neill-Smith", "J. R."),
        ("  Van  der Berg", "Jan;Piet"),
        ("A,B", "c`d"),
        ("Núñez-García", "José Mª"),
        ("Müller", "Zoë"),
        ("Straße", "Ǆemal"),
        ("", "Vardharajan"),
        ("Tab\tName", "x"),
        ("Ŀlull", "Ramon Llull’s"),
    ],
)
def test_name_key_shortcut_equals_players_names(surname: str, given: str) -> None:
    from lists.imports.importer import name_key
    from players.names import full_name_key

    assert name_key(surname, given) == full_name_key(surname, given)


TRICKY_NAMES = [
    "",
    " ",
    ",",
    " , ",
    "A,B",
    "Straße, ẞ",
    "Ǆemal",
    "Mª Pilar, Nº",
    "Ŀlull, Ramon Llull’s",
    "x\u00a0y",
    "\u3000lead",
    "´acute",
    "e\u0301",
    "\u0301x",
    "ﬁne",
    "İstanbul",
    "ΣΟΦΊΑ ς",
    "a\tb",
    "a\x1fb",
    "--x--",
    "O'Neill-Smith, J. R.",
    "  Van  der Berg, Jan;Piet",
    "Ω Å",
    "Núñez-García, José Mª",
    "back\\slash",
    "Çağlar, Zoë",
]


def test_fold_all_equals_fold_one_by_one() -> None:
    from players.names import fold, fold_all

    assert fold_all(TRICKY_NAMES) == [fold(t) for t in TRICKY_NAMES]
    assert fold_all(["a\nb", "c"]) == [fold("a\nb"), "c"]  # a newline inside: one by one
    assert fold_all([]) == []


def test_fold_of_the_raw_name_field_is_the_key_of_the_split_name() -> None:
    from players.names import fold, full_name_key

    for name in TRICKY_NAMES:
        surname, given = lf.split_name(name)
        assert fold(f"  {name}   ") == full_name_key(surname, given), name


@pytest.mark.parametrize(
    "name, expected",
    [
        ("Andreikin, Dmitry", ("Andreikin", "Dmitry")),
        (", Vardharajan", ("Vardharajan", "-")),
        ("Vardharajan", ("Vardharajan", "-")),
        ("  Solo ,  ", ("Solo", "-")),
        ("", ("", "")),
    ],
)
def test_a_one_word_name_is_the_surname_never_an_empty_one(name, expected) -> None:
    assert lf.split_name(name) == expected
