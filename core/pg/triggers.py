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

A refusal cannot be switched off by a connection: pgtrigger's own functions first ask
``_pgtrigger_should_ignore``, which reads the setting ``pgtrigger.ignore`` that any role may
``SET``; ``Refuse`` installs its function without that step (``UnignorableTriggerSql``). Only
what needs ownership or superuser rights stops it: ``ALTER TABLE … DISABLE TRIGGER`` (the
owner), ``session_replication_role = replica`` (a superuser; `manage.py flush` uses it). The
site connects as a role that has neither (core/pg/roles.py, docs/security.md).
"""

from __future__ import annotations

from typing import Any

import pgtrigger
import pgtrigger.compiler
from django.db import models

#: pgtrigger's upsert template less the ``_pgtrigger_should_ignore`` block (pgtrigger 4.x; the
#: test tests/core/test_db_roles.py compares the two, so a change of pgtrigger's shows).
_IGNORE_BLOCK = """
                    IF ({ignore_func_name}(TG_NAME) IS TRUE) THEN
                        IF (TG_OP = 'DELETE') THEN
                            RETURN OLD;
                        ELSE
                            RETURN NEW;
                        END IF;
                    END IF;"""


class UnignorableTriggerSql(pgtrigger.compiler.UpsertTriggerSql):
    """A trigger's SQL whose function does not read ``pgtrigger.ignore``. Still creates
    pgtrigger's ``_pgtrigger_should_ignore`` function (other triggers use it)."""

    def get_template(self) -> str:
        template = super().get_template()
        if _IGNORE_BLOCK not in template:
            raise RuntimeError("pgtrigger's trigger template changed: review core/pg/triggers.py")
        return template.replace(_IGNORE_BLOCK, "")


class Refuse(pgtrigger.Protect):
    def __init__(self, *, message: str, errcode: str = "restrict_violation", **kwargs: Any) -> None:
        if "'" in message or "{" in message or "}" in message:
            raise ValueError("Refuse: the message is SQL text; no quotes or braces")
        self.message = message
        self.errcode = errcode
        super().__init__(**kwargs)

    def compile(self, model: models.Model) -> pgtrigger.compiler.Trigger:
        compiled = super().compile(model)
        sql = compiled.sql
        return pgtrigger.compiler.Trigger(
            name=compiled.name,
            sql=UnignorableTriggerSql(
                **sql.kwargs
            ),  # the constructor's arguments, as pgtrigger keeps them
        )

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
