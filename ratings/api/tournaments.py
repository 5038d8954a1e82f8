"""A rated tournament's rating changes, per player and game by game, as published: only the
calculation a published list carries is public (drafts are the officers' review pages). The
selectors are the tournament page's and the player's calculation page's
(ratings.cards.selectors)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from ratings.cards.report import tournament_rating_report
from ratings.cards.selectors import player_list_calculation, tournament_rating_changes
from tournaments import api as tournaments_api


class TournamentChangeSerializer(serializers.Serializer[Any]):
    start_rank = serializers.IntegerField(allow_null=True)
    fed_id = serializers.CharField(source="player.fed_id")
    name = serializers.CharField(source="player.__str__")
    rating_before = serializers.IntegerField(allow_null=True)
    games = serializers.IntegerField(help_text="Games counted.")
    score = serializers.FloatField()
    expected = serializers.FloatField()
    change = serializers.FloatField(help_text="Before rounding (the list rounds the total).")
    k = serializers.IntegerField()


class TournamentChangesSerializer(serializers.Serializer[Any]):
    list = serializers.IntegerField(
        allow_null=True, help_text="The published list that carries them; null: none yet."
    )
    players = TournamentChangeSerializer(many=True, help_text="Largest gain first.")


class GameCalculationSerializer(serializers.Serializer[Any]):
    opponent = serializers.CharField(
        allow_null=True, help_text="The opponent's federation ID; null outside the registry."
    )
    opponent_rating = serializers.IntegerField(allow_null=True)
    score = serializers.FloatField()
    expected = serializers.FloatField()
    k = serializers.IntegerField()
    change = serializers.FloatField()


class PlayerCalculationSerializer(serializers.Serializer[Any]):
    list = serializers.IntegerField()
    start_rank = serializers.IntegerField()
    fed_id = serializers.CharField()
    games = GameCalculationSerializer(many=True)


class RatingReportRowSerializer(serializers.Serializer[Any]):
    start_rank = serializers.IntegerField(allow_null=True)
    fed_id = serializers.CharField()
    name = serializers.CharField()
    rated = serializers.BooleanField(help_text="True: rated (Rc, n, W, W - We); false: unrated.")
    rc = serializers.FloatField(
        help_text="Rar (Rc): the opponents' average rating as the calculation used it; 0 for an "
        "unrated player with too few rated opponents (fide-2000 11.31)."
    )
    n = serializers.IntegerField(
        help_text="Games rated; for an unrated player with too few, his rated opponents."
    )
    w = serializers.FloatField(allow_null=True, help_text="The score; null: not calculated.")
    w_we = serializers.FloatField(
        allow_null=True, help_text="W - We, the change before K (rated players)."
    )
    ru = serializers.FloatField(allow_null=True, help_text="The performance (unrated players).")
    published = serializers.BooleanField(
        allow_null=True, help_text="False: Ru below the floor, given all the same (11.31)."
    )
    no_ru = serializers.CharField(
        help_text="Why an unrated player has no Ru: too_few (rated opponents), undefined "
        "(0 or 100%), or empty."
    )


class RatingReportSerializer(serializers.Serializer[Any]):
    asked = serializers.BooleanField(
        help_text="False: the tournament's regulation asks for no rating report (the other "
        "fields are empty)."
    )
    article = serializers.CharField(help_text='"fide-2000 11.31"; empty when not asked.')
    min_rated_opponents = serializers.IntegerField(allow_null=True)
    floor = serializers.IntegerField(allow_null=True)
    list = serializers.IntegerField(
        allow_null=True, help_text="The published list whose calculation it reads; null: not yet."
    )
    calculated = serializers.BooleanField(help_text="False: no published list rates it yet.")
    players = RatingReportRowSerializer(many=True, help_text="By starting rank.")


class TournamentViewSet(tournaments_api.TournamentViewSet):
    rules = {
        **tournaments_api.TournamentViewSet.rules,
        "changes": tournaments_api.BROWSE,
        "calculation": tournaments_api.BROWSE,
        "rating_report": tournaments_api.BROWSE,
    }

    @extend_schema(responses=TournamentChangesSerializer)
    @action(detail=True, filter_backends=[], pagination_class=None)
    def changes(self, request: Request, pk: str | None = None) -> Response:
        """Each rated player's change in this tournament, in the current list of its period;
        none (`list` null) until a published list rates it: the tournament exists, its changes
        are not there yet (a 404 would say the tournament is not)."""
        tournament = self.get_object()
        found = tournament_rating_changes(tournament=tournament)
        if found.published is None or not found.rows:
            return Response(TournamentChangesSerializer({"list": None, "players": []}).data)
        ranks = dict(
            tournament.players.filter(player__isnull=False).values_list("player_id", "start_rank")
        )
        players = [
            {
                "start_rank": ranks.get(row.player.pk),
                "player": row.player,
                "rating_before": row.rating_before,
                "games": row.games,
                "score": row.score,
                "expected": row.expected,
                "change": row.change,
                "k": row.k,
            }
            for row in found.rows
        ]
        return Response(
            TournamentChangesSerializer({"list": found.published.pk, "players": players}).data
        )

    @extend_schema(responses=PlayerCalculationSerializer)
    @action(
        detail=True,
        url_path=r"players/(?P<start_rank>[0-9]+)/calculation",
        filter_backends=[],
        pagination_class=None,
    )
    def calculation(
        self, request: Request, pk: str | None = None, start_rank: str = ""
    ) -> Response:
        """One player's games in this tournament as the current list of its period rated
        them: opponent, his rating, score, expected score, K and change."""
        tournament = self.get_object()
        entrant = (
            tournament.players.filter(start_rank=int(start_rank[:5]), player__isnull=False)
            .select_related("player")
            .first()
        )
        found = tournament_rating_changes(tournament=tournament)
        if entrant is None or entrant.player is None or found.published is None:
            raise Http404
        calculation = player_list_calculation(
            published=found.published, player_id=entrant.player.pk
        )
        games = [
            {
                "opponent": line.opponent.fed_id if line.opponent is not None else None,
                "opponent_rating": line.opponent_rating,
                "score": line.score,
                "expected": line.expected,
                "k": line.k,
                "change": line.change,
            }
            for line in calculation.lines
            if line.tournament_id == tournament.pk
        ]
        return Response(
            PlayerCalculationSerializer(
                {
                    "list": found.published.pk,
                    "start_rank": entrant.start_rank,
                    "fed_id": entrant.player.fed_id,
                    "games": games,
                }
            ).data
        )

    @extend_schema(responses=RatingReportSerializer)
    @action(detail=True, url_path="rating-report", filter_backends=[], pagination_class=None)
    def rating_report(self, request: Request, pk: str | None = None) -> Response:
        """The tournament's rating report (fide-2000 11.31): Rc, n, W and W - We of each rated
        player; Ru of each unrated player with enough rated opponents, `published` false when
        below the floor. From the calculation the current list of its period carries
        (`calculated` false until one rates it); `asked` false when its regulation asks for no
        such report."""
        tournament = self.get_object()
        report = tournament_rating_report(tournament=tournament)
        if report is None:
            empty = {
                "asked": False,
                "article": "",
                "min_rated_opponents": None,
                "floor": None,
                "list": None,
                "calculated": False,
                "players": [],
            }
            return Response(RatingReportSerializer(empty).data)
        return Response(
            RatingReportSerializer(
                {
                    "asked": True,
                    "article": report.article,
                    "min_rated_opponents": report.min_rated_opponents,
                    "floor": report.floor,
                    "list": report.published_list.pk if report.published_list else None,
                    "calculated": report.published_list is not None,
                    "players": report.rows,
                }
            ).data
        )
