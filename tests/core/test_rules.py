"""The named permissions (core/rules.py and each app's rules.py) against the roles' groups, the
queries that list the same objects, the services that enforce them and the names the code uses."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
import rules
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied

from accounts.services.claims import claim_submit
from accounts.services.corrections import correction_submit
from core.roles import ARBITER, PLAYER, RATING_OFFICER
from periods.models import PeriodStatus
from protests import services as protests
from tests.factories import (
    make_import_job,
    make_period,
    make_player,
    make_player_user,
    make_protest,
    make_published_list,
    make_system,
    make_tournament,
    make_user,
)
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import Tournament, TournamentPart

pytestmark = pytest.mark.django_db

#: The model permission (core/roles.py grants them to the groups) that each rule presupposes.
MODEL_PERMISSION = {
    "tournaments.register_tournament": "tournaments.add_tournament",
    "tournaments.manage_tournament": "tournaments.change_tournament",
    "tournaments.submit_report": "tournaments.add_report",
    "tournaments.approve_registration": "tournaments.change_tournament",
    # The officer's decisions (tournaments.services.decisions); the appeal against a refusal to
    # rate is lodged by the tournament's arbiter (fide-2024 0.4).
    "tournaments.decide_tournament": "tournaments.change_tournament",
    "tournaments.appeal_decision": "tournaments.change_tournament",
    "periods.manage_period": "periods.change_ratingperiod",
    "periods.open_period": "periods.add_ratingperiod",
    "ratings.publish_list": "ratings.add_publishedlist",
    "lists.import_list": "lists.add_listimportjob",
    "protests.submit_protest": "protests.add_protest",
    "protests.view_protest": "protests.view_protest",
    "protests.decide_protest": "protests.change_protest",
    "protests.follow_protests": "protests.view_protest",
    "protests.answer_protest": "protests.add_protest",
    "core.resend_mail": "core.change_outboxmail",
    "players.decide_erasure": "players.change_erasurerequest",
    "players.merge_players": "players.change_player",
    "accounts.decide_claim": "accounts.change_claimrequest",
    "accounts.request_correction": "accounts.add_correctionrequest",
    "accounts.view_correction": "accounts.view_correctionrequest",
    "accounts.decide_correction": "accounts.change_correctionrequest",
    # A rating system's drift settings and its differential (feda-1996 11.1, fce 9.5).
    "ratings.monitor_scale": "periods.change_ratingsystem",
    "ratings.manage_differential": "periods.change_ratingsystem",
    "tournaments.record_substitutions": "tournaments.change_tournament",
    # The arbiters' registry, the export to FIDE, the rulesets' timeline, licences, deaths.
    "tournaments.register_official": "tournaments.add_tournament",
    "tournaments.decide_official": "tournaments.change_tournament",
    "tournaments.export_fide": "tournaments.change_tournament",
    "tournaments.record_fide_sent": "tournaments.change_tournament",
    "periods.manage_rulesets": "periods.change_ratingsystem",
    "players.manage_licences": "players.change_player",
    "players.withdraw_licence": "players.change_player",
    "players.record_death": "players.change_player",
}
PUBLIC = {
    "players.browse_players",
    "tournaments.browse_tournaments",
    "ratings.browse_lists",
    "ratings.view_differentials",
    "tournaments.browse_officials",
}
#: Any signed-in user, about what is his own (his API tokens): no model permission needed.
SIGNED_IN = {"core.manage_api_tokens"}
#: A player with an account linked to his record, about his own data: no model permission.
HIS_RECORD = {"players.manage_own_data"}
#: About a user's own account, before he has any role (accounts/rules.py): open one, confirm
#: it, claim a record and see his claims. No model permission: they are his.
OWN_ACCOUNT = {
    "accounts.sign_up",
    "accounts.confirm_email",
    "accounts.claim_player",
    "accounts.view_claim",
}


@pytest.fixture
def office():
    system = make_system()
    period = make_period(system)
    players = [make_player() for _ in range(2)]
    published = make_published_list(period, players)
    users = {
        "player": make_player_user(players[0], role=PLAYER),
        "other player": make_player_user(players[1], role=PLAYER),
        "arbiter": make_user(role=ARBITER),
        "other arbiter": make_user(role=ARBITER),
        "officer": make_user(role=RATING_OFFICER),
        "nobody": make_user(),
    }
    mine = make_tournament(system, users["arbiter"])
    rated = make_tournament(system, users["arbiter"], status="rated")
    theirs = make_tournament(system, users["other arbiter"])
    protest = make_protest(published, players[0], users["player"])
    correction = correction_submit(user=users["player"], changes={"club": "Sants"})
    claim = claim_submit(
        user=users["nobody"], method="fide_id", fide_id=make_player(fide_id=7).fide_id
    )
    objects = {
        "tournaments.register_tournament": [None],
        "tournaments.manage_tournament": [mine, rated, theirs],
        "tournaments.submit_report": [mine, rated, theirs],
        "tournaments.approve_registration": [mine, theirs],
        "tournaments.decide_tournament": [mine, theirs],
        "tournaments.appeal_decision": [mine, theirs],
        "periods.manage_period": [period],
        "periods.open_period": [system],
        "ratings.publish_list": [period],
        "lists.import_list": [None, make_import_job(system)],
        "protests.submit_protest": [published],
        "protests.view_protest": [protest],
        "protests.decide_protest": [None, protest],
        "protests.follow_protests": [None],
        "protests.answer_protest": [protest],
        "core.resend_mail": [None],
        "players.decide_erasure": [None],
        "players.merge_players": [None],
        "accounts.decide_claim": [None, claim],
        "accounts.request_correction": [None],
        "accounts.view_correction": [correction],
        "accounts.decide_correction": [None, correction],
        "ratings.monitor_scale": [None, system],
        "ratings.manage_differential": [None, system],
        "tournaments.record_substitutions": [mine, rated, theirs],
        "tournaments.register_official": [None],
        "tournaments.decide_official": [None],
        "tournaments.export_fide": [mine, rated, theirs],
        "tournaments.record_fide_sent": [None, rated],
        "periods.manage_rulesets": [None, system],
        "players.manage_licences": [None],
        "players.withdraw_licence": [None],
        "players.record_death": [None],
    }
    return {
        "users": users,
        "objects": objects,
        "mine": mine,
        "rated": rated,
        "theirs": theirs,
        "protest": protest,
        "published": published,
        "players": players,
    }


def test_every_rule_is_listed_here() -> None:
    ours = {
        name
        for name in rules.permissions.permissions
        if name.split(".")[0]
        in {"core", "players", "periods", "tournaments", "ratings", "protests", "lists", "accounts"}
    }
    assert ours == set(MODEL_PERMISSION) | PUBLIC | SIGNED_IN | HIS_RECORD | OWN_ACCOUNT


def test_his_record_rules_need_a_linked_account(office) -> None:
    users = office["users"]
    for name in HIS_RECORD:
        assert users["player"].has_perm(name) and users["other player"].has_perm(name)
        assert not any(users[r].has_perm(name) for r in ("arbiter", "officer", "nobody"))
        assert not AnonymousUser().has_perm(name)


def test_signed_in_rules_need_a_user(office) -> None:
    for name in SIGNED_IN:
        assert all(user.has_perm(name) for user in office["users"].values())
        assert not AnonymousUser().has_perm(name)


def test_no_rule_gives_a_role_more_than_its_groups_model_permissions(office) -> None:
    """What a rule grants a role, the role's group holds as a model permission (the admin's)."""
    granted = 0
    for role, user in office["users"].items():
        model_perms = user.get_group_permissions()
        for name, objects in office["objects"].items():
            for obj in objects:
                if user.has_perm(name, obj):
                    granted += 1
                    assert MODEL_PERMISSION[name] in model_perms, (role, name, obj)
    assert granted >= 20  # not vacuous: each role gets some


def test_the_rules_by_role(office) -> None:
    u, mine, rated, theirs = office["users"], office["mine"], office["rated"], office["theirs"]
    assert [
        u["arbiter"].has_perm("tournaments.manage_tournament", t) for t in (mine, rated, theirs)
    ] == [True, True, False]
    assert [
        u["arbiter"].has_perm("tournaments.submit_report", t) for t in (mine, rated, theirs)
    ] == [True, False, False]
    assert [
        u["officer"].has_perm("tournaments.submit_report", t) for t in (mine, rated, theirs)
    ] == [True, True, True]
    assert not u["arbiter"].has_perm("tournaments.approve_registration", mine)
    protest, published = office["protest"], office["published"]
    assert u["player"].has_perm("protests.view_protest", protest)
    assert not u["other player"].has_perm("protests.view_protest", protest)
    assert u["other player"].has_perm("protests.submit_protest", published)
    # In the player group without a player of the registry, or linked without the role: no.
    assert not make_user(role=PLAYER).has_perm("protests.submit_protest", published)
    assert not make_player_user(make_player()).has_perm("protests.submit_protest", published)
    # The protest is about his player even if someone else typed it in: he sees it.
    typed_by_other = make_protest(
        published, office["players"][0], u["officer"], status="rejected"
    )  # (one open protest per entry: his own is open)
    assert u["player"].has_perm("protests.view_protest", typed_by_other)
    assert not u["nobody"].has_perm("tournaments.register_tournament")


def test_the_manageable_tournaments_query_lists_what_the_rule_allows(office) -> None:
    everything = list(Tournament.objects.all())
    for role, user in office["users"].items():
        listed = set(tournament_selectors.tournament_list_for_user(user=user))
        allowed = {t for t in everything if user.has_perm("tournaments.manage_tournament", t)}
        assert listed == allowed, role


def test_services_refuse_through_the_rules(office) -> None:
    u = office["users"]
    with pytest.raises(PermissionDenied):
        tournament_services.tournament_approve_late(tournament=office["mine"], officer=u["arbiter"])
    with pytest.raises(tournament_services.ReportLocked):
        tournament_services.report_upload(
            tournament=office["rated"], user=u["arbiter"], data=b"x", filename="r.csv"
        )
    with pytest.raises(PermissionDenied):
        tournament_services.report_upload(
            tournament=office["theirs"], user=u["arbiter"], data=b"x", filename="r.csv"
        )
    with pytest.raises(PermissionDenied):
        protests.protest_decide(
            protest=office["protest"], user=u["player"], upheld=True, decision="x"
        )
    with pytest.raises(PermissionDenied):
        protests.protest_submit(
            published=office["published"], player=None, user=u["arbiter"], text="x"
        )
    office["protest"].refresh_from_db()
    assert office["protest"].status == "submitted"


#: permission_required("…"), has_perm("…") and {% has_perm "…" %}, in code and templates.
PERMISSION_NAME = re.compile(
    r"""(?:permission_required|has_perm)\(?\s*["']([a-z_]+\.[a-z_]+)["']"""
)


def test_every_permission_the_code_names_is_registered() -> None:
    base = Path(settings.BASE_DIR)
    files = [
        p
        for folder in (
            "core",
            "players",
            "periods",
            "tournaments",
            "ratings",
            "protests",
            "lists",
            "desk",
            "accounts",
            "templates",
            "config",
        )
        for p in (base / folder).rglob("*")
        if p.suffix in (".py", ".html")
    ]
    named = {m for p in files for m in PERMISSION_NAME.findall(p.read_text(encoding="utf-8"))}
    assert len(named) > 10
    assert {n for n in named if not rules.perm_exists(n)} == set()


def test_the_arbiter_sends_the_next_part_of_a_tournament_rated_in_parts() -> None:
    """tournaments.submit_report, predicate is_tournament_awaiting_part (fide-2024 4.1): once
    its part is published, a tournament over 30 days still takes its arbiter's next report;
    a published tournament rated whole, or one ending within its published period, does not."""
    system = make_system(ruleset="fide-2024", cycle="monthly")
    october = make_period(system, start=dt.date(2026, 10, 1), status=PeriodStatus.PUBLISHED)
    arbiter, other = make_user(role=ARBITER), make_user(role=ARBITER)
    long = make_tournament(
        system,
        arbiter,
        start_date=dt.date(2026, 10, 20),
        end_date=dt.date(2026, 11, 20),
        status="published",
        period=october,
    )
    whole = make_tournament(
        system,
        arbiter,
        start_date=dt.date(2026, 10, 20),
        end_date=dt.date(2026, 10, 25),
        status="published",
        period=october,
    )
    TournamentPart.objects.create(tournament=long, number=1, period=october)
    assert arbiter.has_perm("tournaments.submit_report", long)
    assert not other.has_perm("tournaments.submit_report", long)
    assert not arbiter.has_perm("tournaments.submit_report", whole)
    long.end_date = dt.date(2026, 10, 31)  # ends within the published period: nothing more
    assert not arbiter.has_perm("tournaments.submit_report", long)
