"""The fault probe's e-mail part (bench/probe_faults.py, issue 28): players who protest a
published list through the API all along the probe, each protest e-mailed to its player through
the outbox (core/outbox.py) to the probe's own SMTP server (bench/smtp_sink.py), which refuses
every connection during the `smtp-down` phase. Afterwards every stored protest must have been
received exactly once: none lost, none sent twice.
"""

from __future__ import annotations

import collections
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

import psycopg

from bench.smtp_sink import SmtpSink

#: The protest's page in its e-mail: /ratings/protests/<id>/.
PROTEST_LINK = re.compile(r"/protests/(\d+)/")


def site_env(sink: SmtpSink) -> dict[str, str]:
    """The site's and the workers' settings: e-mail to the sink, the outbox retried within
    seconds (production waits minutes) so that the probe sees the fault end."""
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(sink.port),
        "EMAIL_TIMEOUT": "5",
        "DEFAULT_FROM_EMAIL": "ratings@probe.example",
        "OUTBOX_RETRY_SECONDS": "1",
        "OUTBOX_RETRY_MAX_SECONDS": "4",
        "OUTBOX_FLUSH_SECONDS": "1",
        "OUTBOX_MAX_ATTEMPTS": "10000",  # none given up during the probe
    }


def protesters_seed(published: Any, count: int) -> list[str]:
    """`count` players in `published` (an entry each), each with an account in the player group
    (an address of his own) and an API token; their tokens. Django is set up."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from core.api.tokens import token_create
    from core.roles import PLAYER
    from ratings.models import ListEntry
    from tests.factories import make_player

    group = Group.objects.get(name=PLAYER)
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"mail{n}", email=f"mail{n}@probe.example") for n in range(count)
    )
    tokens = []
    for n, user in enumerate(users):
        player = make_player(surname=f"Mail{n}")
        player.user = user
        player.save(update_fields=["user"])
        user.groups.add(group)
        ListEntry.objects.create(
            published_list=published,
            player=player,
            rating=2000,
            status="rated",
            ruleset=published.ruleset,
            engine_version=published.engine_version,
        )
        tokens.append(token_create(user=user, name="probe")[1])
    return tokens


def protest_request(list_id: int, token: str) -> tuple[str, str, bytes, dict[str, str]]:
    body = {"list": list_id, "subject": "Round 3", "text": "Round 3 was a draw, not a loss."}
    headers = {"Content-Type": "application/json", "Authorization": f"Token {token}"}
    return "POST", "/api/v1/protests/", json.dumps(body).encode(), headers


@dataclass
class MailReport:
    protests: set[int]
    received: collections.Counter[int]
    outbox: dict[str, int]
    refused: int
    strays: list[str] = field(default_factory=list)

    @property
    def lost(self) -> list[int]:
        return sorted(self.protests - set(self.received))

    @property
    def twice(self) -> list[int]:
        return sorted(p for p, n in self.received.items() if n > 1)

    def lines(self, accepted: int) -> list[str]:
        return [
            f"protests answered 201: {accepted}; stored: {len(self.protests)}",
            f"e-mails received: {sum(self.received.values())} for {len(self.received)} "
            f"protests; lost: {len(self.lost)} {self.lost[:10]}; sent twice: "
            f"{len(self.twice)} {self.twice[:10]}; others: {len(self.strays)}",
            f"SMTP connections refused during the fault: {self.refused}; outbox rows: "
            f"{self.outbox}",
        ]


def mail_wait(sink: SmtpSink, db_url: str, list_id: int, timeout: float) -> MailReport:
    """Wait (at most `timeout` seconds) until the outbox has no pending row, then compare the
    stored protests with the e-mails the sink received."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(db_url, autocommit=True) as db:
        while True:
            outbox: dict[str, int] = dict(
                db.execute(
                    "SELECT status, count(*) FROM core_outboxmail GROUP BY status"
                ).fetchall()
            )
            if not outbox.get("pending") or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        time.sleep(1)  # a message the server took just before the row's commit
        protests = {
            row[0]
            for row in db.execute(
                "SELECT id FROM ratings_protest WHERE published_list_id = %s", [list_id]
            ).fetchall()
        }
    received: collections.Counter[int] = collections.Counter()
    strays = []
    for message in list(sink.messages):
        body = message.get_body(("plain",))
        found = PROTEST_LINK.search(body.get_content() if body is not None else "")
        if found:
            received[int(found.group(1))] += 1
        else:
            strays.append(str(message["Subject"]))
    return MailReport(
        protests=protests,
        received=received,
        outbox=outbox,
        refused=sink.counts.get("refused", 0),
        strays=strays,
    )
