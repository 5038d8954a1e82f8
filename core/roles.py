"""The office's roles, as Django groups with model permissions.

- arbiter: registers tournaments and uploads reports (object-level: only their own
  tournaments, checked in tournaments/selectors.py).
- rating officer: periods, calculations, lists, protests, corrections, late registrations.
- player: their own profile and protests.
- the anonymous public: read-only pages, no group needed.
"""
from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group, Permission

ARBITER = "arbiter"
RATING_OFFICER = "rating officer"
PLAYER = "player"

# (app_label, model, actions) per group.
_GRANTS: dict[str, list[tuple[str, str, tuple[str, ...]]]] = {
    ARBITER: [
        ("tournaments", "tournament", ("add", "change", "view")),
        ("tournaments", "report", ("add", "view")),
        ("tournaments", "tournamentplayer", ("add", "change", "view")),
        ("tournaments", "game", ("add", "change", "delete", "view")),
        ("players", "player", ("add", "view")),
    ],
    RATING_OFFICER: [
        ("tournaments", "tournament", ("add", "change", "view")),
        ("tournaments", "report", ("add", "view")),
        ("tournaments", "tournamentplayer", ("add", "change", "view")),
        ("tournaments", "game", ("add", "change", "delete", "view")),
        ("players", "player", ("add", "change", "view")),
        ("periods", "ratingsystem", ("view", "change")),
        ("periods", "ratingperiod", ("add", "change", "view")),
        ("ratings", "playerrating", ("view",)),
        ("ratings", "publishedlist", ("add", "view")),
        ("ratings", "listentry", ("view",)),
        ("ratings", "protest", ("change", "view")),
    ],
    PLAYER: [
        ("ratings", "protest", ("add", "view")),
    ],
}


def roles_ensure(**_: object) -> None:
    """Create the groups and grant their permissions (idempotent; runs after migrate)."""
    for group_name, grants in _GRANTS.items():
        group, _created = Group.objects.get_or_create(name=group_name)
        wanted: list[Permission] = []
        for app_label, model, actions in grants:
            codenames = [f"{action}_{model}" for action in actions]
            wanted.extend(
                Permission.objects.filter(content_type__app_label=app_label, codename__in=codenames)
            )
        group.permissions.set(wanted)


def user_has_role(user: AbstractBaseUser | AnonymousUser, role: str) -> bool:
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False) and role == RATING_OFFICER:
        return True
    return user.groups.filter(name=role).exists()  # type: ignore[attr-defined]  # auth.User has groups


def user_is_officer(*, user: AbstractBaseUser | AnonymousUser) -> bool:
    return user_has_role(user, RATING_OFFICER)
