"""The API asks the same named permissions as the pages (the apps' rules.py).

A view says which permission each of its actions needs in ``rules``: a viewset by action
(``list``, ``retrieve``, ``create``, an ``@action``'s name), an APIView by HTTP method in lower
case. ``Rule("tournaments.manage_tournament", on_object=True)`` is tested on the object the
view looks up (``get_object()``), as the pages test it on theirs; a rule without an object is
tested before the view runs. An action missing from ``rules`` is refused (403)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser
from rest_framework.permissions import BasePermission
from rest_framework.request import Request


@dataclass(frozen=True)
class Rule:
    name: str
    on_object: bool = False


#: The method has no handler: the view answers 405, for everyone alike.
NO_HANDLER = Rule("")


def _rule(request: Request, view: Any) -> Rule | None:
    return rule_of(view, request.method or "")


def rule_of(view: Any, method: str) -> Rule | None:
    """The rule a view asks for one HTTP method (a viewset: for its current action); the
    schema asks it too (core.api.schema: which operations are public)."""
    method = method.lower()
    if method == "options":
        return NO_HANDLER  # no metadata is served (DEFAULT_METADATA_CLASS is None): 405
    # A viewset (its action for this method, if any); the schema's copy of an APIView may
    # carry an action_map too, but no action.
    if hasattr(view, "action_map") and hasattr(view, "action"):
        action = view.action
        if action is None or action == "metadata":
            return NO_HANDLER
    else:
        action = "get" if method == "head" else method
        if not hasattr(view, action):
            return NO_HANDLER
    rules: dict[str, Rule] = getattr(view, "rules", {})
    return rules.get(action)


class RulePermission(BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        rule = _rule(request, view)
        if rule is None:
            return False
        if rule is NO_HANDLER:
            return True
        # An object rule is asked in has_object_permission, once the object is found (a
        # missing object is 404 for everyone, as on the pages). Anonymous visitors are refused
        # here when the rule needs a user at all, so they get 401 and not 404.
        if rule.on_object:
            return bool(request.user and request.user.is_authenticated) or _public(rule)
        return bool(request.user.has_perm(rule.name))

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        rule = _rule(request, view)
        if rule is None:
            return False
        if rule is NO_HANDLER:
            return True
        return bool(request.user.has_perm(rule.name, obj if rule.on_object else None))


def _public(rule: Rule) -> bool:
    """An object rule that lets an anonymous visitor in (e.g. browsing)."""
    return bool(AnonymousUser().has_perm(rule.name))


def rule_is_public(rule: Rule | None) -> bool:
    """Whether an anonymous client passes the rule: the operation needs no credentials."""
    return rule is not None and rule is not NO_HANDLER and _public(rule)
