"""The office's roles as predicates of the `rules` package: the only code that reads group names.

A role is a Django group (core.roles); these predicates say whether a user has it. The named
permissions built on them live in each app's ``rules.py`` (players, periods, tournaments,
ratings), next to the models they look at, and are registered when Django starts
(``rules.apps.AutodiscoverRulesConfig`` imports every app's ``rules`` module). Views check them
with ``core.permissions.permission_required``, services and selectors with ``user.has_perm``,
templates with ``{% load rules %}{% has_perm %}``. docs/CONTRIBUTING.md ("Permissions") lists
them all.
"""

from __future__ import annotations

from typing import Any

import rules
from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet

from core.roles import ARBITER, PLAYER, RATING_OFFICER

#: A rating officer; a superuser counts as one.
is_officer = rules.Predicate(
    rules.is_group_member(RATING_OFFICER) | rules.is_superuser, name="is_officer"
)
#: An arbiter: registers tournaments and sends their reports.
is_arbiter = rules.Predicate(rules.is_group_member(ARBITER), name="is_arbiter")
#: A player: may protest a published list (with an account linked to the registry).
is_player = rules.Predicate(rules.is_group_member(PLAYER), name="is_player")


def officer_users() -> QuerySet[Any]:
    """The active users `is_officer` says yes to, as one query (the officers' daily digest,
    notices/digest.py); tests/notices/test_digest.py compares the two."""
    return (
        get_user_model()
        .objects.filter(Q(groups__name=RATING_OFFICER) | Q(is_superuser=True), is_active=True)
        .distinct()
    )


# The API tokens page (core/views.py): any signed-in user manages his own tokens.
rules.add_perm("core.manage_api_tokens", rules.is_authenticated)
# The outbox's "Send again" (core.mail.outbox_send_again, the admin's action): officers.
rules.add_perm("core.resend_mail", is_officer)
