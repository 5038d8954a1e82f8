"""Every office page and every admin page at federation scale (issue 29 item 4): p95 and queries.

    # once: the federation with its lists (bench/public_setup.py: 500,000 players, 24 lists)
    # and an open month of 300,000 games in a second system (the desk, close, calculate)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/synth \\
        .venv/bin/python bench/public_setup.py --players 500000 --periods 24
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/synth DEBUG=1 .venv/bin/python manage.py \\
        generate_federation --players 20000 --games 300000 --periods 1 --system-code synthopen
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/synth \\
        .venv/bin/python bench/office_pages.py [--repeat 20] [--only desk] [--system-code synth]

On the database of DATABASE_URL (the federation of bench/public_setup.py), adds once (and
commits) what the office's pages show besides the federation: an officer, the synthetic
arbiter in the arbiters' group, a superuser, and rows of every model the admin shows (the
helpers of tests/project/admin_scale_world.py: reports, uploads, protests, decisions, list
imports, users, login records, …; the periods and list versions of that helper go to an
inactive system of their own). Then renders, through Django's test client in-process with
DEBUG off, as the user each page is for:

- the officer's pages: the home page, the desk, the duplicates, the period of the newest list
  and its close / calculate / publish summaries, the draft list (plain, filtered, a later
  page), the review pages (tournaments, statuses plain and filtered, a player), protests,
  list imports, the registry of officials, licences, statistics and the open-next / ruleset
  forms, a tournament's games; the close and calculate pages of the unpublished period with
  the most tournaments (the open month);
- the arbiter's: his desk, his tournaments, a tournament's manage and players pages;
- the admin's: every registered admin's list page, add page and change page (the admin's
  registry, as tests/project/admin_scale.py walks it), as a superuser.

Each page is requested once (the "first" figure: caches cold for it), then --repeat times;
prints ``<page>: p95 <ms> ms, <n> queries (median, first)`` per page, the pages over the
300 ms target last (figures: docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
for key, value in {
    "DEBUG": "0",
    "SECRET_KEY": "bench-only-insecure-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "testserver",
    "SECURE_SSL_REDIRECT": "0",
    "SECURE_COOKIES": "0",
    "SECURE_HSTS_SECONDS": "0",
    "STATIC_MANIFEST": "0",
}.items():
    os.environ.setdefault(key, value)

#: The issue's target for every page (issue 29 item 4).
TARGET_MS = 300.0
OFFICER = "office-bench-officer"
SUPERUSER = "office-bench-admin"


@dataclass(frozen=True)
class Page:
    name: str
    user: str  # "officer", "arbiter" or "admin"
    url: str


@dataclass
class Figures:
    page: Page
    status: int
    first_ms: float
    times_ms: list[float]
    queries: int

    @property
    def p95(self) -> float:
        ordered = sorted(self.times_ms)
        return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--system-code", default="synth")
    parser.add_argument("--only", default="", help="pages whose name contains this")
    parser.add_argument("--office-only", action="store_true", help="no admin page")
    parser.add_argument(
        "--slow-repeat",
        type=int,
        default=3,
        help="requests of a page whose first one took over 3 s",
    )
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL to the database of bench/public_setup.py")
    import django

    django.setup()
    import logging

    from django.db import transaction

    logging.getLogger("axes").setLevel(logging.WARNING)  # a line per force_login

    with transaction.atomic():
        world = office_world(system_code=args.system_code)
    pages = office_pages(world) + ([] if args.office_only else admin_page_list(world))
    if args.only:
        pages = [p for p in pages if args.only in p.name]
    clients = _clients(world)
    print(
        f"{len(pages)} pages, {args.repeat} requests each after a first one; target "
        f"{TARGET_MS:.0f} ms",
        flush=True,
    )
    results = []
    for page in pages:
        r = measure(clients[page.user], page, args.repeat, args.slow_repeat)
        results.append(r)
        flag = "" if r.status == 200 else f" (status {r.status})"
        print(
            f"{r.page.name}: p95 {r.p95:.0f} ms, {r.queries} queries "
            f"(median {statistics.median(r.times_ms):.0f} ms, first {r.first_ms:.0f} ms){flag}",
            flush=True,
        )
    over = sorted((r for r in results if r.p95 > TARGET_MS), key=lambda r: -r.p95)
    print(f"pages over {TARGET_MS:.0f} ms: {len(over)}")
    for r in over:
        print(f"  {r.page.name}: p95 {r.p95:.0f} ms, {r.queries} queries")
    worst_q = max(results, key=lambda r: r.queries)
    print(f"most queries: {worst_q.page.name} ({worst_q.queries})")


# ------------------------------------------------------------------------------ the world


@dataclass(frozen=True)
class World:
    system: Any
    period: Any  # the newest published period
    published: Any  # its list
    draft_period: Any  # the unpublished period with the most tournaments (or the published one)
    officer: Any
    arbiter: Any
    superuser: Any
    tournament: Any  # a tournament of the newest period (the arbiter's)
    protest: Any
    job: Any
    pks: dict[Any, Any]


def office_world(*, system_code: str) -> World:
    """The office's rows on the federation, added once (committed by the caller)."""
    from django.contrib import admin
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.db import connection, transaction
    from django.db.models import Count

    from core.roles import ARBITER, RATING_OFFICER, roles_ensure
    from demo.synthetic import ARBITER_USERNAME
    from lists.models import ListImportJob
    from notices.models import ListNotices
    from periods.models import PeriodStatus, RatingPeriod, RatingSystem
    from protests.models import Protest
    from ratings.models import ListStatistics, PublishedList
    from tests.project import admin_scale_world as w
    from tournaments.models import Tournament

    user_model = get_user_model()
    system = RatingSystem.objects.get(code=system_code)
    published = (
        PublishedList.objects.filter(system=system).order_by("-list_date", "-version").first()
    )
    if published is None:
        sys.exit(f"{system_code}: no published list (run bench/public_setup.py first)")
    period = published.period
    roles_ensure()
    superuser = user_model.objects.filter(username=SUPERUSER).first()
    if superuser is None:
        started = time.perf_counter()
        superuser = user_model.objects.create_superuser(SUPERUSER, "admin@example.org", None)
        officer = user_model.objects.create_user(OFFICER, "officer@example.org", None)
        officer.groups.add(Group.objects.get(name=RATING_OFFICER))
        user_model.objects.get(username=ARBITER_USERNAME).groups.add(
            Group.objects.get(name=ARBITER)
        )
        ctx = w._Ctx(system, period, superuser, published)
        # Rows of every model the admin shows, as the admin-scale world makes them. The
        # helper that adds periods and list versions of its system adds them to a system of
        # its own (inactive, in 1990), not to the federation's 24 months.
        aux = RatingSystem.objects.create(
            code="office-aux",
            name="Office bench (auxiliary)",
            ruleset="fide-2024",
            rate_of_play="standard",
            cycle="monthly",
            is_active=False,
        )
        aux_period = RatingPeriod.objects.create(
            system=aux,
            start=dt.date(1990, 1, 1),
            end=dt.date(1990, 1, 31),
            closing_date=dt.date(1990, 1, 31),
            list_date=dt.date(1990, 2, 1),
            status=PeriodStatus.PUBLISHED,
        )
        aux_ctx = w._Ctx(aux, aux_period, superuser, published)
        # The rows every publication already wrote (a list's notices and statistics) are
        # not written again.
        written = {ListNotices, ListStatistics}
        insert_select = w.insert_select
        w.insert_select = lambda model, *a, **k: (
            0 if model in written else insert_select(model, *a, **k)
        )
        try:
            for step, on in (
                (w._office_rows, ctx),
                (w._external_rows, ctx),
                (w._licence_rows, ctx),
                (w._more_rows, aux_ctx),
                (w._statistics_rows, aux_ctx),
                (w._official_rows, ctx),
            ):
                with transaction.atomic():
                    step(on)
        finally:
            w.insert_select = insert_select
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        print(f"office rows added in {time.perf_counter() - started:.1f} s", flush=True)
    officer = user_model.objects.get(username=OFFICER)
    arbiter = user_model.objects.get(username=ARBITER_USERNAME)
    tournament = Tournament.objects.filter(period=period, arbiter=arbiter).order_by("pk").first()
    protest = Protest.objects.filter(game__isnull=False).order_by("pk").first() or (
        Protest.objects.order_by("pk").first()
    )
    job = ListImportJob.objects.order_by("pk").first()
    pks: dict[Any, Any] = {Tournament: tournament.pk if tournament else None}
    if protest is not None:
        pks[Protest] = protest.pk
    for model in admin.site._registry:
        if model not in pks:
            pks[model] = model._default_manager.order_by("pk").values_list("pk", flat=True).first()
    # The open period with the most tournaments, of any system (the month in progress).
    draft_period = (
        RatingPeriod.objects.exclude(status=PeriodStatus.PUBLISHED)
        .annotate(n=Count("tournaments"))
        .order_by("-n", "pk")
        .first()
    ) or period
    return World(
        system=system,
        period=period,
        published=published,
        draft_period=draft_period,
        officer=officer,
        arbiter=arbiter,
        superuser=superuser,
        tournament=tournament,
        protest=protest,
        job=job,
        pks=pks,
    )


def _clients(world: World) -> dict[str, Any]:
    from django.test import Client

    clients = {}
    for role, user in (
        ("officer", world.officer),
        ("arbiter", world.arbiter),
        ("admin", world.superuser),
    ):
        client = Client()
        client.force_login(user)
        clients[role] = client
    return clients


# ------------------------------------------------------------------------------ the pages


def office_pages(world: World) -> list[Page]:
    from ratings.models import DraftResult

    period, code = world.period, world.system.code
    p = f"/ratings/periods/{period.pk}"
    player_id = (
        DraftResult.objects.filter(run__period=period)
        .order_by("-rating_after")
        .values_list("player_id", flat=True)
        .first()
    )
    t = world.tournament
    pages = [
        Page("home (officer)", "officer", "/"),
        Page("desk", "officer", "/ratings/desk/"),
        Page("desk: duplicates", "officer", "/ratings/desk/duplicates/"),
        Page("period", "officer", f"{p}/"),
        Page("period: close", "officer", f"{p}/close/"),
        Page("period: calculate", "officer", f"{p}/calculate/"),
        Page("period: publish", "officer", f"{p}/publish/"),
        Page("period: draft list", "officer", f"{p}/review/list/"),
        Page("period: draft list, page 200", "officer", f"{p}/review/list/?page=200"),
        Page("period: draft list, status", "officer", f"{p}/review/list/?status=inactive"),
        Page("period: draft list, name", "officer", f"{p}/review/list/?q=garcia"),
        Page("period: draft list, changed", "officer", f"{p}/review/list/?changed=on"),
        Page("period: review tournaments", "officer", f"{p}/review/tournaments/"),
        Page("period: review statuses", "officer", f"{p}/review/statuses/"),
        Page("period: review statuses, page 20", "officer", f"{p}/review/statuses/?page=20"),
        Page("period: review statuses, new", "officer", f"{p}/review/statuses/?status=new"),
        Page("period: review player", "officer", f"{p}/review/players/{player_id}/"),
        Page("protests desk", "officer", "/ratings/protests/office/"),
        Page("protest", "officer", f"/ratings/protests/{world.protest.pk}/"),
        Page("list import", "officer", "/ratings/lists/import/"),
        Page("list import job", "officer", f"/ratings/lists/import/{world.job.pk}/"),
        Page("officials registry", "officer", "/tournaments/registry/"),
        Page("licences", "officer", "/players/licences/"),
        Page("statistics", "officer", f"/ratings/{code}/statistics/"),
        Page(
            "statistics: year",
            "officer",
            f"/ratings/{code}/statistics/{world.published.list_date.year}/",
        ),
        Page("statistics: monitoring", "officer", f"/ratings/{code}/statistics/monitoring/"),
        Page("system: open next", "officer", f"/ratings/{code}/open-next/"),
        Page("system: new ruleset", "officer", f"/ratings/{code}/rulesets/new/"),
        Page("tournament games (officer)", "officer", f"/ratings/tournaments/{t.pk}/games/"),
        Page("tournaments desk (arbiter)", "arbiter", "/tournaments/desk/"),
        Page("home (arbiter)", "arbiter", "/"),
        Page("tournaments, mine (arbiter)", "arbiter", "/tournaments/?mine=1"),
        Page("tournament manage (arbiter)", "arbiter", f"/tournaments/{t.pk}/manage/"),
        Page("tournament players (arbiter)", "arbiter", f"/tournaments/{t.pk}/players/"),
    ]
    if world.draft_period.pk != period.pk:
        d = f"/ratings/periods/{world.draft_period.pk}"
        pages += [
            Page("open period", "officer", f"{d}/"),
            Page("open period: close", "officer", f"{d}/close/"),
            Page("open period: calculate", "officer", f"{d}/calculate/"),
        ]
    return pages


def admin_page_list(world: World) -> list[Page]:
    from django.test import RequestFactory

    from tests.project.admin_scale import admin_pages

    request = RequestFactory().get("/admin/")
    request.user = world.superuser
    pages = [Page("admin: index", "admin", "/admin/")]
    for page in admin_pages(request):
        pk = world.pks.get(page.model)
        if page.kind == "change" and pk is None:
            print(f"{page.name}: no row, change page not measured")
            continue
        pages.append(Page(f"admin: {page.name}", "admin", page.url(pk)))
    return pages


def measure(client: Any, page: Page, repeat: int, slow_repeat: int) -> Figures:
    from django.db import connection

    executed: list[str] = []

    def count(execute: Callable[..., Any], sql: str, params: Any, many: bool, ctx: Any) -> Any:
        executed.append(sql)
        return execute(sql, params, many, ctx)

    def once() -> tuple[int, float, int]:
        executed.clear()
        with connection.execute_wrapper(count):
            started = time.perf_counter()
            response = client.get(page.url)
            took = (time.perf_counter() - started) * 1000
        return response.status_code, took, len(executed)

    status, first, _ = once()
    times: list[float] = []
    queries = 0
    for _i in range(slow_repeat if first > 3000 else repeat):
        status, took, queries = once()
        times.append(took)
    return Figures(page, status, first, times, queries)


if __name__ == "__main__":
    main()
