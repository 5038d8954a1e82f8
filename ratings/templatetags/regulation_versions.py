"""What made a stored result, as a reader sees it: ``{{ run|regulation_label }}`` reads
"fide-2024 version 2" for any row that keeps ``ruleset``, ``regulation_version`` and
``engine_version`` (runs, draft results, published lists, list entries; docs/engine.md
"Versions: when to bump")."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext

from rating_engine.version import version_number

register = template.Library()


@register.filter
def regulation_label(row: Any) -> str:
    """Reads "fide-2024 version 2"; a row made before regulations had versions names its engine."""
    ruleset = getattr(row, "ruleset", "") or ""
    number = version_number(getattr(row, "regulation_version", "") or "")
    if number is not None:
        return gettext("%(ruleset)s version %(number)s") % {"ruleset": ruleset, "number": number}
    return gettext("%(ruleset)s, before regulation versions (engine %(engine)s)") % {
        "ruleset": ruleset,
        "engine": getattr(row, "engine_version", "") or "?",
    }
