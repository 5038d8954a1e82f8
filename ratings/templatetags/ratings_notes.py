"""``{% load ratings_notes %}``: a calculation note (a decision) as a sentence.

The calculation stores each player's notes as ``{"code", "article", "template", "params"}``
(ratings.services ``_notes_json``): the template is the engine's English msgid with
``%(name)s`` placeholders. ``{{ note|note_text }}`` gives "article — message" in the
reader's language. Stored rows outlive engine versions and catalogue edits, so a note that
does not fit (a missing or extra param, a translation whose placeholders differ, no template)
still renders: it never raises on a page.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.translation import gettext

register = template.Library()

MISSING = "?"  # shown in place of a param the note does not carry
# A template formats only if every "%" is "%%" or a named conversion: with a mapping, a bare
# "% s" would print the whole mapping instead of failing.
_FORMAT = re.compile(r"(?:[^%]|%%|%\([^()]*\)[-+ #0]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa])*", re.DOTALL)


class _Params(dict[str, Any]):
    """The note's params; a placeholder without a value reads as MISSING."""

    def __missing__(self, key: str) -> str:
        return MISSING


def _message(text: str, params: Mapping[str, Any]) -> str:
    values = _Params(params)
    # The translation first; if it does not fit the params (a translator's typo, a param of
    # the wrong type), the English template; if neither formats, the template as it is.
    for candidate in dict.fromkeys((gettext(text), text)):
        if not _FORMAT.fullmatch(candidate):
            continue
        try:
            return candidate % values
        except (TypeError, ValueError, OverflowError):
            continue
    return text


@register.filter
def note_text(note: Any) -> str:
    """The note's article, then its message: ``gettext(template) % params``, or its code
    when it has no usable template."""
    if not isinstance(note, Mapping):
        return "" if note is None else str(note)
    code = str(note.get("code") or "")
    article = str(note.get("article") or "")
    text = note.get("template")
    params = note.get("params")
    message = _message(text, params if isinstance(params, Mapping) else {}) if isinstance(text, str) and text else ""
    message = message or code
    return f"{article} — {message}" if article and message else article or message
