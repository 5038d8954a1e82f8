"""``{% load ratings_notes %}``: a calculation note (a decision) as a sentence.

The calculation stores each player's notes as ``{"code", "article", "template", "params"}``
(ratings.calculation.draft ``notes_json``): the template is the engine's English msgid with
``%(name)s`` placeholders. ``{{ note|note_text }}`` gives "article — message" in the
reader's language (``core.messages.stored_message``); a note that does not fit its params
still renders, and one without a template shows its code: it never raises on a page.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from core.messages import stored_message

register = template.Library()


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
    message = (
        stored_message(text, params if isinstance(params, Mapping) else {})
        if isinstance(text, str) and text
        else ""
    )
    message = message or code
    return f"{article} — {message}" if article and message else article or message
