from django.urls import path

from ratings.views import calculator as views_calculator
from ratings.views import differentials as views_differentials
from ratings.views import office as views_office
from ratings.views import periods as views
from ratings.views import rerating as views_rerating
from ratings.views import rulesets as views_rulesets
from ratings.views import statistics as views_statistics

# The "ratings" namespace (config/urls.py) also holds the pages of the apps above that were ratings
# pages once, with the same names and paths: list downloads and imports (lists/urls.py),
# protests (protests/urls.py), the officer's desk (desk/urls.py).
urlpatterns = [
    path("", views.system_list, name="systems"),
    # The calculator page (public) and its registry autocomplete.
    path("calculator/", views_calculator.calculator, name="calculator"),
    path("calculator/players/", views_calculator.calculator_players, name="calculator_players"),
    path("lists/<int:pk>/", views.list_detail, name="list"),
    path("lists/<int:pk>/diff/", views.list_diff, name="list_diff"),
    # Rating periods (officers): close, calculate, review, publish, re-rate.
    path("periods/<int:pk>/", views.period_detail, name="period"),
    path("periods/<int:pk>/progress/", views.period_progress, name="period_progress"),
    path("periods/<int:pk>/close/", views_office.period_close, name="period_close"),
    path("periods/<int:pk>/calculate/", views_office.period_calculate, name="period_calculate"),
    path("periods/<int:pk>/publish/", views_office.period_publish, name="period_publish"),
    path("periods/<int:pk>/review/list/", views_office.draft_list, name="draft_list"),
    path("periods/<int:pk>/rerate/", views.period_rerate, name="period_rerate"),
    path("rerating/<int:pk>/", views_rerating.rerate_chain, name="rerate_chain"),
    path(
        "rerating/<int:pk>/progress/",
        views_rerating.rerate_chain_progress,
        name="rerate_chain_progress",
    ),
    path(
        "periods/<int:pk>/review/tournaments/", views.review_tournaments, name="review_tournaments"
    ),
    path("periods/<int:pk>/review/statuses/", views.review_statuses, name="review_statuses"),
    path(
        "periods/<int:pk>/review/calibration/",
        views.review_calibration,
        name="review_calibration",
    ),
    path(
        "periods/<int:pk>/review/players/<int:player_id>/",
        views.review_player,
        name="review_player",
    ),
    # Game corrections (the officer's desk: desk/urls.py).
    path("tournaments/<int:pk>/games/", views_office.tournament_games, name="tournament_games"),
    path("games/<int:pk>/correct/", views_office.game_correct, name="game_correct"),
    # The FIDE -> system differential (fce 9.5): public history; officers compute, review,
    # publish.
    path(
        "differentials/<int:pk>/",
        views_differentials.differential_review,
        name="differential_review",
    ),
    path(
        "differentials/<int:pk>/publish/",
        views_differentials.differential_publish,
        name="differential_publish",
    ),
    path(
        "<slug:code>/differential/",
        views_differentials.differential_history,
        name="differentials",
    ),
    path(
        "<slug:code>/differential/compute/",
        views_differentials.differential_compute,
        name="differential_compute",
    ),
    # The scale's health (feda-1996 11.1, fide-2000 12.3): statistics, CSV, yearly report,
    # the officer's drift settings.
    path("<slug:code>/statistics/", views_statistics.statistics, name="statistics"),
    path("<slug:code>/statistics.csv", views_statistics.statistics_csv, name="statistics_csv"),
    path(
        "<slug:code>/statistics/monitoring/",
        views_statistics.scale_monitoring,
        name="scale_monitoring",
    ),
    path(
        "<slug:code>/statistics/<int:year>/",
        views_statistics.statistics_report,
        name="statistics_report",
    ),
    path(
        "<slug:code>/statistics/<int:year>.pdf",
        views_statistics.statistics_report_pdf,
        name="statistics_report_pdf",
    ),
    path("<slug:code>/open-next/", views.system_open_next, name="open_next"),
    path("<slug:code>/rulesets/new/", views_rulesets.system_ruleset_new, name="system_ruleset_new"),
    path("<slug:code>/", views.system_detail, name="system"),
]
