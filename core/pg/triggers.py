"""A trigger that refuses a write, declared on a model with django-pgtrigger.

``Refuse`` is pgtrigger's ``Protect`` with the office's own message and SQLSTATE: by default
``restrict_violation`` (23001), which Django raises as IntegrityError, as it would for a
constraint. Levels, as in Protect:

- row level (the default), optionally with a ``condition`` (``WHEN`` on OLD/NEW): refuses as
  soon as one row qualifies;
- statement level with an UPDATE or DELETE ``operation``: the statement's rows are read from
  its transition table once, after the statement, and the ``condition`` is applied to them
  there, so a statement over a million rows costs one set-based check, not a million calls;
- statement level with ``operation=pgtrigger.Truncate``: TRUNCATE has no rows to look at and
  is refused outright.

The message may use two ``%``: the operation and the table (``TG_OP``, ``TG_TABLE_NAME``).
"""

from __future__ import annotations

from typing import Any

import pgtrigger
from django.db import models


class Refuse(pgtrigger.Protect):
    def __init__(self, *, message: str, errcode: str = "restrict_violation", **kwargs: Any) -> None:
        if "'" in message or "{" in message or "}" in message:
            raise ValueError("Refuse: the message is SQL text; no quotes or braces")
        self.message = message
        self.errcode = errcode
        super().__init__(**kwargs)

    # pgtrigger annotates the model argument as an instance; it receives the class.
    def get_func(self, model: models.Model) -> str | pgtrigger.Func:
        args = ", TG_OP, TG_TABLE_NAME" if "%" in self.message else ""
        refuse = f"RAISE EXCEPTION '{self.message}'{args} USING ERRCODE = '{self.errcode}';"
        if self.level == pgtrigger.Row or self.referencing is None:
            return refuse
        rows = "cond_old_values" if self.referencing.old else "cond_new_values"
        return pgtrigger.Func(
            f"IF EXISTS (SELECT 1 FROM {{{rows}}}) THEN {refuse} END IF; RETURN NULL;"
        )
