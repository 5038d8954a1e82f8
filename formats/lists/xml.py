"""FIDE's XML list read with a streaming expat parser (no DTD, no entities).

Pure module (no Django import). Layouts: ../shared/FORMATS.md and docs/lists.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from xml.parsers import expat

from formats.lists.read import ALL_RATES
from formats.lists.render import XML_TAGS
from formats.lists.rows import MAX_LINE_CHARS, RawRow, problem
from formats.problems import Problem

XML_ROOT = "playerslist"
XML_PLAYER = "player"
_XML_CHUNK = 1 << 16  # characters fed to expat at a time
_KNOWN_TAGS = frozenset(
    [tag for tag, _f in XML_TAGS]
    + [f"{rate}_{name}" for rate in ("rapid", "blitz") for name in ("rating", "games", "k")]
)


class ListReadError(Exception):
    """The file could not be read to its end (malformed XML, a DOCTYPE): nothing is imported."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("; ".join(p.message for p in problems))


class _XmlStop(Exception):
    def __init__(self, found: Problem | None = None) -> None:
        self.problem = found
        super().__init__(found.message if found else "")


def _xml_parser() -> expat.XMLParserType:
    parser = expat.ParserCreate()
    parser.buffer_text = True
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def refuse(*_args: object) -> None:
        raise _XmlStop(problem("xml_doctype", row=parser.CurrentLineNumber))

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    return parser


def _text_chunks(text: str | Iterable[str]) -> Iterable[str]:
    if not isinstance(text, str):
        return text
    return (text[start : start + _XML_CHUNK] for start in range(0, len(text), _XML_CHUNK))


def _xml_feed(parser: expat.XMLParserType, text: str | Iterable[str]) -> Iterator[None]:
    """Feed ``text`` (the whole text, or its pieces in order) to ``parser`` a chunk at a time,
    pausing after each chunk. A text of white space only is an empty file."""
    seen = False
    try:
        for chunk in _text_chunks(text):
            seen = seen or not chunk.isspace()
            parser.Parse(chunk, False)
            yield
        parser.Parse("", True)
        yield
    except expat.ExpatError as exc:
        if not seen:
            raise ListReadError([problem("empty_file")]) from None
        reason = expat.ErrorString(exc.code) if exc.code else str(exc)
        raise ListReadError(
            [problem("xml_malformed", row=exc.lineno, position=exc.offset + 1, reason=reason)]
        ) from None
    except _XmlStop as exc:
        raise ListReadError([exc.problem] if exc.problem else []) from None


def _xml_columns(
    first: Mapping[str, str], rate: str
) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """(tag, field) pairs and the field -> tag labels. The combined list's rapid or blitz
    columns are read for such a system when the first player has them; otherwise (a
    single-type list) ``rating``, ``games`` and ``k`` are the system's."""
    tags = dict(XML_TAGS)
    if rate == ALL_RATES and ("rapid_rating" in first or "blitz_rating" in first):
        # The combined list read for every rate (the players' FIDE ratings).
        tags["rating"] = "rating_standard"
        for name in ("rapid", "blitz"):
            tags[f"{name}_rating"] = f"rating_{name}"
        for name in ("games", "k"):
            del tags[name]
    elif rate in ("rapid", "blitz") and f"{rate}_rating" in first:
        for name in ("rating", "games", "k"):
            del tags[name]
            tags[f"{rate}_{name}"] = name
    pairs = list(tags.items())
    return pairs, {fld: tag for tag, fld in pairs}


def read_xml(
    text: str | Iterable[str], *, rate: str = "standard"
) -> tuple[list[Problem], Iterator[RawRow]]:
    """Yield one RawRow per <player>, numbered 1, 2, … in file order (unique and dense, as the
    bulk import needs); a missing child is "". ``text`` is the whole text or its pieces in
    order (the streaming import's decoded chunks). Raises ListReadError, while iterating, at a
    malformed spot, a DOCTYPE or a root other than <playerslist> (and, for pieces, a text of
    white space only: "empty file")."""
    if isinstance(text, str) and not text.strip():
        return [problem("empty_file")], iter(())
    return [], _xml_rows(text, rate)


def _xml_rows(text: str | Iterable[str], rate: str) -> Iterator[RawRow]:
    parser = _xml_parser()
    done: list[dict[str, str]] = []
    parts: list[str] = []
    player: dict[str, str] | None = None
    depth = 0
    size = 0  # characters of the current value

    def start(name: str, _attrs: object) -> None:
        nonlocal depth, player, size
        depth += 1
        if depth == 3:
            parts.clear()
            size = 0
        elif depth == 2:
            player = {} if name == XML_PLAYER else None
        elif depth == 1 and name != XML_ROOT:
            raise _XmlStop(problem("xml_root", row=parser.CurrentLineNumber, value=name))

    def end(name: str) -> None:
        nonlocal depth, player
        if depth == 3 and player is not None and name in known:
            player[name] = "".join(parts).strip()
        elif depth == 2 and player is not None:
            done.append(player)
            player = None
        depth -= 1

    def data(chunk: str) -> None:
        nonlocal size
        if depth == 3:
            parts.append(chunk)
            size += len(chunk)
            if size > MAX_LINE_CHARS:
                raise _XmlStop(
                    problem("xml_value_too_long", row=parser.CurrentLineNumber, max=MAX_LINE_CHARS)
                )

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = data
    known = _KNOWN_TAGS  # only the children read are kept (a player cannot grow unbounded)
    pairs: list[tuple[str, str]] | None = None
    labels: dict[str, str] = {}
    ordinal = 0
    for _ in _xml_feed(parser, text):
        for found in done:
            if pairs is None:
                pairs, labels = _xml_columns(found, rate)
            ordinal += 1
            yield RawRow(ordinal, {fld: found.get(tag, "") for tag, fld in pairs}, labels)
        done.clear()


class _Enough(Exception):
    pass


def xml_player_lines(text: str | Iterable[str], ordinals: Iterable[int]) -> dict[int, int]:
    """The line of the start tag of each wanted <player> (1 = the first), read again: only a
    failed import needs them."""
    wanted = set(ordinals)
    last = max(wanted, default=0)
    lines: dict[int, int] = {}
    if not last:
        return lines
    parser = _xml_parser()
    depth = 0
    seen = 0

    def start(name: str, _attrs: object) -> None:
        nonlocal depth, seen
        depth += 1
        if depth == 2 and name == XML_PLAYER:
            seen += 1
            if seen in wanted:
                lines[seen] = parser.CurrentLineNumber
            if seen >= last:
                raise _Enough

    def end(_name: str) -> None:
        nonlocal depth
        depth -= 1

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    try:
        for _ in _xml_feed(parser, text):
            pass
    except (_Enough, ListReadError):
        pass
    return lines


def xml_problems_at_lines(text: str | Iterable[str], problems: list[Problem]) -> list[Problem]:
    """Problems found on rows of read_xml (player ordinals) renumbered with the line of each
    player's start tag, and the earlier row of a duplicate ID too."""
    ordinals: set[int] = set()
    for p in problems:
        if p.line:
            ordinals.add(p.line)
        first = p.params.get("first")
        if isinstance(first, int):
            ordinals.add(first)
    lines = xml_player_lines(text, ordinals)
    out = []
    for p in problems:
        if not p.line:
            out.append(p)
            continue
        line = lines.get(p.line, p.line)
        params = {**p.params, "row": line}
        first = params.get("first")
        if isinstance(first, int):
            params["first"] = lines.get(first, first)
        out.append(replace(p, line=line, params=params))
    return out
