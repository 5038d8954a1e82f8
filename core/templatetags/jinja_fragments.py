"""``{% jinja "path" %}``: renders a template of the "jinja2" engine (templates/jinja2/,
config/jinja2.py) with the page's context, where it stands. The busiest pages' rows are such
fragments; the page around them, its fragment caching included, stays a Django template."""

from __future__ import annotations

from typing import Any

from django import template
from django.template import engines
from django.template.context import Context
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def jinja(context: Context, name: str) -> SafeString:
    fragment = engines["jinja2"].get_template(name)
    # Jinja2 escaped every value it wrote (autoescape): the fragment is HTML.
    values: dict[str, Any] = {str(k): v for k, v in context.flatten().items()}
    return mark_safe(fragment.render(values, context.get("request")))
