"""Errors the engine raises for bad input. Each names the field and the item."""

from __future__ import annotations

from collections.abc import Iterable, Mapping


def _(s: str) -> str:
    return s


class EngineInputError(ValueError):
    """Bad input. ``str(err)`` is one line: ``<item>.<field>: <problem>``.

    ``item`` locates the record (``players[3]``, ``tournaments[0].games[4]``, ``parameters``),
    ``field`` the attribute (``rating``, ``white``); either may be empty.
    ``template``/``params`` carry the problem as a translatable template.
    """

    def __init__(
        self,
        item: str,
        field: str,
        template: str,
        params: Mapping[str, object] | None = None,
    ) -> None:
        self.item = item
        self.field = field
        self.template = template
        self.params: Mapping[str, object] = dict(params or {})
        problem = template % dict(self.params) if self.params else template
        self.problem = problem
        location = ".".join(part for part in (item, field) if part)
        super().__init__(f"{location}: {problem}" if location else problem)

    @property
    def location(self) -> str:
        return ".".join(part for part in (self.item, self.field) if part)


class UnknownRulesetError(EngineInputError):
    """The ruleset id is not registered."""

    def __init__(self, ruleset: str, known: Iterable[str]) -> None:
        self.ruleset = ruleset
        self.known = tuple(sorted(known))
        super().__init__(
            "",
            "ruleset",
            _("unknown ruleset %(ruleset)r (known: %(known)s)"),
            {"ruleset": ruleset, "known": ", ".join(self.known) or "none"},
        )
