"""The office's roles, as Django groups with model permissions.

- arbiter: registers tournaments and uploads reports (object-level: only their own
  tournaments, the rules of tournaments/rules.py).
- rating officer: periods, calculations, lists, protests, corrections, late registrations.
- player: their own profile and protests.
- the anonymous public: read-only pages, no group needed.

A user gets a role by joining its group. Whether a user has a role is the predicates' business
(core/rules.py); what a role may do, object by object, is the named permissions' (each app's
rules.py). The model permissions granted below (used by the admin) never give a role less than
its rules do: tests/core/test_rules.py checks it.
"""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission

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
        # Players' erasure requests (docs/privacy.md), decided by the admin's actions.
        ("players", "erasurerequest", ("view", "change")),
        ("periods", "ratingsystem", ("view", "change")),
        ("periods", "ratingperiod", ("add", "change", "view")),
        ("ratings", "playerrating", ("view",)),
        ("ratings", "publishedlist", ("add", "view")),
        ("ratings", "listentry", ("view",)),
        ("protests", "protest", ("change", "view")),
        ("lists", "listimportjob", ("add", "view")),
        # Login lockouts: deleting an access attempt in the admin unlocks that login.
        ("axes", "accessattempt", ("view", "delete")),
        ("axes", "accesslog", ("view",)),
        # The outbox (core/outbox.py): e-mails that keep failing, and "Send again".
        ("core", "outboxmail", ("view", "change")),
        # Claims of player records and correction requests (accounts): decided on the desk.
        ("accounts", "claimrequest", ("view", "change")),
        ("accounts", "correctionrequest", ("view", "change")),
    ],
    PLAYER: [
        ("protests", "protest", ("add", "view")),
        ("accounts", "correctionrequest", ("add", "view")),
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
