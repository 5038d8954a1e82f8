"""The list import reads its file as a stream (issue 17 item 7): pieces of any size give the
same import as the whole file, a Latin-1 file found out late is read again, and the worker
reads the file from a spooled copy, never the whole file at once."""

from __future__ import annotations

import pytest

from players.models import Player
from ratings.lists import formats as lf
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
