"""core's one table: the API tokens (core/api/tokens.py). Its post_migrate hook (the roles'
permissions, core.apps) runs after every other app's (core is last in INSTALLED_APPS). The
abstract job model lives in core.jobs."""

from core.api.tokens import ApiToken

__all__ = ["ApiToken"]
