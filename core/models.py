"""core's tables: the API tokens (core/api/tokens.py) and the outbox of e-mails
(core/outbox.py). Its post_migrate hook (the roles' permissions, core.apps) runs after every
other app's (core is last in INSTALLED_APPS). The abstract job model lives in core.jobs."""

from core.api.tokens import ApiToken
from core.outbox import OutboxMail

__all__ = ["ApiToken", "OutboxMail"]
