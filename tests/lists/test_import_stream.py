"""The list import reads its file as a stream (issue 17 item 7): pieces of any size give the
same import as the whole file, a Latin-1 file found out late is read again, and the worker
reads the file from a spooled copy, never the whole file at once; the COPY text of a TXT cut
in batches and the incremental decoding equal what reading the whole file gives."""

from __future__ import annotations

import pytest

from formats import lists as lf
from lists.imports import source as import_source
from lists.imports.importer import list_import
from lists.imports.source import file_source
from players.models import Player
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
    result = list_import(system=make_system(), data=counting, format="txt", players="all")
    assert result.rows == 500 and Player.objects.get(fide_id=4158814).fide_standard == 2686
    assert max(sizes) == 4096 and sum(sizes) == len(excerpt)


@pytest.mark.parametrize("fmt", ["txt", "csv"])
def test_a_line_too_long_is_refused_with_its_row(fmt: str, excerpt: bytes) -> None:
    """A batch of lines stays small whatever the file holds: a line of more than
    lf.MAX_LINE_CHARS characters is refused (rating lists have a few hundred)."""
    from lists.imports.importer import ListImportError

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
    from lists.imports.importer import ListImportError

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


def test_streamed_txt_gives_what_read_txt_gives() -> None:
    """The COPY text of a TXT file cut in batches (import_rows) holds, row by row, what
    read_txt reads: whatever the batch size and however the text is cut into pieces."""
    from lists.imports import rows as import_rows
    from players.names import fold

    header = lf.txt_header("NOV26")
    rows = [
        lf.ListRow(
            fide_id=1,
            name="Núñez-García, José Mª",
            fed="ESP",
            sex="M",
            title="GM",
            rating=2500,
            games=3,
            k=10,
            birth_year=1990,
            flag="i",
        ),
        lf.ListRow(fide_id=22, name="  Solo  ", fed="and", rating=None, flag="wi"),
        lf.ListRow(fide_id=333, name="Back\\slash, A\u00a0", fed="POR", rating=1500),
    ]
    body = list(lf.render_txt(rows, rating_label="NOV26"))[1:]
    text = "\n" + header + "\n" + body[0] + "   \n\n" + "".join(body[1:]) + "12"
    fields = import_rows.read_fields(("rating",))
    expected = []
    for raw in lf.read_txt(text)[1]:
        surname, given = lf.split_name(raw.values["name"])
        values = [raw.values.get(f, "") for f in fields if f != "name"]
        expected.append([str(raw.row), surname, given, *values, fold(raw.values["name"])])
    expected = [[v.replace("\\", "\\\\") for v in row] for row in expected]
    for batch in (1, 2, 3, 20_000):
        for piece in (1, 7, len(text)):
            pieces = [text[i : i + piece] for i in range(0, len(text), piece)]
            import_rows.BATCH_ROWS, saved = batch, import_rows.BATCH_ROWS
            try:
                stream = import_rows.list_stream(pieces, "txt", rate="standard", fide=False)
                chunks = list(stream.chunks(True))
                again = import_rows.list_stream(pieces, "txt", rate="standard", fide=False)
                without = "".join(again.chunks(False))
            finally:
                import_rows.BATCH_ROWS = saved
            assert all(c.endswith("\n") for c in chunks if c)
            got = [line.split("\t") for c in chunks for line in c.splitlines()]
            assert got == expected, (batch, piece)
            # Without keys: the same rows, an empty last column (NULL in the stage).
            assert [line.split("\t") for line in without.splitlines()] == [
                [*row[:-1], ""] for row in expected
            ]
    assert [row[0] for row in expected] == ["3", "6", "7", "8"]  # blank lines 4 and 5 skipped
    assert expected[2][1:4] == ["Back\\\\slash", "A", "333"] and expected[2][4] == "POR"
    assert expected[3][3] == "12" and expected[3][1:3] == ["", ""]


def test_stream_decoding_and_lines_equal_the_whole_file_read_at_once() -> None:
    """import_source: pieces of bytes decoded as decode_list decodes the whole file (UTF-8,
    else Latin-1: at once when only ASCII came before, else NotUtf8 to start again), and
    lines cut as str.splitlines() / a StringIO cuts them, wherever the pieces end."""
    import io
    import random

    from lists.imports.result import decode_list
    from lists.imports.source import NotUtf8, decode_pieces, newline_lines, text_lines

    rng = random.Random(14)
    alphabet = ["a", "b", "\n", "\r", "\r\n", "\x0c", "é", "\u2028", " ", "\t"]

    def cut(value, n):
        ends = sorted(rng.sample(range(len(value) + 1), min(len(value) + 1, n)))
        return [value[a:b] for a, b in zip([0, *ends], [*ends, len(value)])]

    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        pieces = cut(text, rng.randint(0, 5))
        assert list(text_lines(pieces)) == text.splitlines(), pieces
        assert list(newline_lines(pieces)) == list(io.StringIO(text)), pieces
    restarted = 0
    for _ in range(2000):
        chars = "".join(rng.choice(["a", "é", "ß", "\n", "€"]) for _ in range(rng.randint(0, 30)))
        data = rng.choice(
            [
                chars.encode(),
                b"\xef\xbb\xbf" + chars.encode(),
                chars.encode("latin-1", "replace"),
                b"ascii only \n" + chars.encode("latin-1", "replace"),
            ]
        )
        pieces = cut(data, rng.randint(0, 5))
        try:
            got = "".join(decode_pieces(pieces))
        except NotUtf8:
            restarted += 1
            got = "".join(decode_pieces(pieces, latin1=True))
        assert got == decode_list(data), data
    assert restarted  # some files needed the second reading
