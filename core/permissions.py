"""How a view checks a permission: one decorator over `rules.contrib.views.permission_required`.

    @permission_required("tournaments.manage_tournament", fn=objectgetter(Tournament))
    def tournament_manage(request, pk): ...

``fn`` receives the view's arguments and returns the object the rule is tested on (a missing
object answers 404 before any permission is tested). A user who lacks the permission gets
403; an anonymous visitor gets the login page instead (the library's decorator does one or the
other for everyone, so this wrapper picks per request). The permission names and their rules
are in the apps' ``rules.py`` modules (docs/CONTRIBUTING.md, "Permissions").
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponseBase
from rules.contrib.views import objectgetter
from rules.contrib.views import permission_required as rules_permission_required

__all__ = ["objectgetter", "permission_required"]

View = Callable[..., HttpResponseBase]  # streamed downloads too


def permission_required(
    perm: str, *, fn: Callable[..., Any] | None = None
) -> Callable[[View], View]:
    def decorator(view: View) -> View:
        refuse = rules_permission_required(perm, fn=fn, raise_exception=True)(view)
        to_login = rules_permission_required(perm, fn=fn, raise_exception=False)(view)

        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            checked = refuse if request.user.is_authenticated else to_login
            return checked(request, *args, **kwargs)

        wrapped.permission_required = perm  # type: ignore[attr-defined]  # read by the tests
        return wrapped

    return decorator
