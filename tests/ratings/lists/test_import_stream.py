"""The list import reads its file as a stream (issue 17 item 7): pieces of any size give the
same import as the whole file, a Latin-1 file found out late is read again, and the worker
reads the file from a spooled copy, never the whole file at once."""

from __future__ import annotations

import pytest

from formats import lists as lf
from players.models import Player
from ratings.lists import import_source
from ratings.lists.import_source import file_source
from ratings.lists.imports import list_import
from ratings.models import PlayerRating
from tests.factories import make_system

pytestmark = pytest.mark.django_db


def _state(system) -> list[tuple]:
    return sorted(
        PlayerRating.objects.filter(system=system).values_list(
            "player__fide_id",
            "player__surname",
            "player__given_name",
            "player__name_key",
            "rating",
            "games",
            "activity",
        )
    )


def test_small_pieces_give_the_same_import_as_the_whole_file(excerpt: bytes, monkeypatch) -> None:
    whole = make_system()
    list_import(system=whole, data=excerpt, format="txt", target="system")
    expected = _state(whole)
    Player.objects.all().delete()
    # Pieces of 97 bytes: lines, CRLFs and names cut anywhere.
    monkeypatch.setattr(import_source, "READ_BYTES", 97)
    pieces = make_system()
    result = list_import(system=pieces, data=excerpt, format="txt", target="system")
    assert (result.rows, result.players_created) == (500, 500)
    assert _state(pieces) == expected


def test_a_latin1_byte_after_utf8_text_reads_the_whole_file_again_as_latin1(monkeypatch) -> None:
    """decode_list reads a file with any byte that is not UTF-8 as Latin-1, including its
    earlier UTF-8-looking text; the stream finds that out late, rolls back and reads again."""
    monkeypatch.setattr(import_source, "READ_BYTES", 64)
    header = lf.txt_header("NOV26")
    rows = [
        lf.ListRow(fide_id=900001, name="Pérez, Ana", fed="ESP", sex="F", rating=2100),
        *[lf.ListRow(fide_id=900010 + i, name=f"Filler{i}, X", rating=1500) for i in range(5)],
        lf.ListRow(fide_id=900002, name="Muñoz, Pau", fed="AND", sex="M", rating=1900),
    ]
    body = list(lf.render_txt(rows, rating_label="NOV26"))[1:]
    data = (header + "\r\n").encode() + body[0].encode("utf-8")
    data += "".join(body[1:-1]).encode() + body[-1].encode("latin-1")
    system = make_system()
    result = list_import(system=system, data=data, format="txt", target="system")
    assert result.rows == 7
    # As decode_list reads the whole file: Latin-1, so the UTF-8 "é" is two characters.
    assert Player.objects.get(fide_id=900001).surname == "PÃ©rez"
    assert Player.objects.get(fide_id=900002).surname == "Muñoz"
    assert Player.objects.count() == 7  # the first reading left nothing behind


def test_a_file_on_disk_is_read_in_pieces(tmp_path, excerpt: bytes, monkeypatch) -> None:
    path = tmp_path / "list.txt"
    path.write_bytes(excerpt)
    sizes: list[int] = []
    opened = file_source(path)

    def counting():
        for piece in opened():
            sizes.append(len(piece))
            yield piece

    monkeypatch.setattr(import_source, "READ_BYTES", 4096)
    result = list_import(system=make_system(), data=counting, format="txt")
    assert result.rows == 500 and Player.objects.get(fide_id=4158814).fide_standard == 2686
    assert max(sizes) == 4096 and sum(sizes) == len(excerpt)


@pytest.mark.parametrize("fmt", ["txt", "csv"])
def test_a_line_too_long_is_refused_with_its_row(fmt: str, excerpt: bytes) -> None:
    """A batch of lines stays small whatever the file holds: a line of more than
    lf.MAX_LINE_CHARS characters is refused (rating lists have a few hundred)."""
    from ratings.lists.imports import ListImportError

    if fmt == "txt":
        lines = excerpt.split(b"\r\n")
        lines[5] = lines[5] + b" " * lf.MAX_LINE_CHARS
        data = b"\r\n".join(lines)
    else:
        data = b"fide_id,name,rating\n1,A,1500\n2," + b"x" * (3 * lf.MAX_LINE_CHARS) + b",1600\n"
    with pytest.raises(ListImportError) as caught:
        list_import(system=make_system(), data=data, format=fmt)
    (problem,) = caught.value.problems
    assert (problem.code, problem.line) == ("line_too_long", 6 if fmt == "txt" else 3)
    assert problem.message == (
        f"Row {problem.line}: the line is longer than {lf.MAX_LINE_CHARS} characters; "
        "this is not a rating list."
    )
    assert not Player.objects.exists()


def test_an_xml_value_too_long_is_refused_and_unknown_children_are_not_kept() -> None:
    from ratings.lists.imports import ListImportError

    head = '<?xml version="1.0"?>\n<playerslist>\n'
    good = "<player><fideid>1</fideid><name>A, B</name><rating>1500</rating></player>\n"
    long_value = f"<player><fideid>2</fideid><name>{'x' * 5000}</name></player>\n"
    with pytest.raises(ListImportError) as caught:
        list_import(
            system=make_system(),
            data=(head + good + long_value + "</playerslist>").encode(),
            format="xml",
        )
    assert [(p.code, p.line) for p in caught.value.problems] == [("xml_value_too_long", 4)]
    _problems, rows = lf.read_xml(
        head + good.replace("<name>", "<junk>1</junk><name>") + "</playerslist>"
    )
    (row,) = list(rows)
    assert "junk" not in row.values and row.values["name"] == "A, B"
