from django.urls import path

from tournaments import decision_views, fide_views, substitution_views, views
from tournaments.officials import views as official_views

app_name = "tournaments"
urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("register/", views.tournament_register, name="register"),
    path("<int:pk>/report/", views.report_download, name="report_download"),
    path("desk/", views.tournament_desk, name="desk"),
    # The arbiters' and organisers' registry (tournaments.officials).
    path("arbiters/", official_views.arbiter_list, name="arbiter_list"),
    path("arbiters/new/", official_views.arbiter_register, name="arbiter_register"),
    path("arbiters/<int:pk>/", official_views.arbiter_detail, name="arbiter_detail"),
    path("arbiters/<int:pk>/decide/", official_views.arbiter_decide, name="arbiter_decide"),
    path("organisers/", official_views.organiser_list, name="organiser_list"),
    path("organisers/new/", official_views.organiser_register, name="organiser_register"),
    path("organisers/<int:pk>/", official_views.organiser_detail, name="organiser_detail"),
    path("organisers/<int:pk>/decide/", official_views.organiser_decide, name="organiser_decide"),
    path("registry/", official_views.registry, name="registry"),
    path("<int:pk>/manage/", views.tournament_manage, name="manage"),
    path("<int:pk>/upload/", views.report_upload, name="upload"),
    path("<int:pk>/uploads/<int:job>/", views.upload_job, name="upload_job"),
    path(
        "<int:pk>/uploads/<int:job>/progress/",
        views.upload_job_progress,
        name="upload_job_progress",
    ),
    path("<int:pk>/crosstable/", views.crosstable_form, name="crosstable"),
    path("<int:pk>/players/", views.tournament_matching, name="matching"),
    path("<int:pk>/players/search/", views.player_search, name="player-search"),
    path("<int:pk>/approve/", views.tournament_approve, name="approve"),
    path(
        "<int:pk>/substitutions/",
        substitution_views.substitution_add,
        name="substitution_add",
    ),
    path(
        "<int:pk>/substitutions/<int:substitution>/delete/",
        substitution_views.substitution_remove,
        name="substitution_remove",
    ),
    path("<int:pk>/winner/", substitution_views.winner_set, name="winner_set"),
    path("<int:pk>/fide-export/", fide_views.tournament_fide_export, name="fide_export"),
    path("<int:pk>/fide-sent/", fide_views.tournament_fide_sent, name="fide_sent"),
    path(
        "periods/<int:period>/fide-batch/", fide_views.period_fide_batch, name="period_fide_batch"
    ),
    path("<int:pk>/decisions/", decision_views.decision_take, name="decide"),
    path(
        "<int:pk>/decisions/<int:decision>/appeal/",
        decision_views.decision_appeal,
        name="decision_appeal",
    ),
    path(
        "<int:pk>/decisions/<int:decision>/appeal-decision/",
        decision_views.decision_appeal_decide,
        name="decision_appeal_decide",
    ),
    path(
        "<int:pk>/rate-as-correction/",
        views.tournament_rate_as_correction,
        name="rate_as_correction",
    ),
]
