from django.urls import path, re_path

from ratings.views import lists as views_lists
from ratings.views import office as views_office
from ratings.views import periods as views
from ratings.views import protests as views_protests

app_name = "ratings"
urlpatterns = [
    path("", views.system_list, name="systems"),
    path("lists/<int:pk>/", views.list_detail, name="list"),
    path("lists/<int:pk>/downloads/", views_lists.list_downloads, name="list_downloads"),
    re_path(
        r"^lists/(?P<pk>[0-9]+)/download\.(?P<fmt>csv|json|txt|xml)$",
        views_lists.list_download,
        name="list_download",
    ),
    path("lists/import/", views_lists.list_import, name="list_import"),
    path("lists/import/<int:pk>/", views_lists.list_import_job, name="list_import_job"),
    path(
        "lists/import/<int:pk>/progress/",
        views_lists.list_import_job_progress,
        name="list_import_job_progress",
    ),
    path(
        "lists/import/<int:pk>/requeue/",
        views_lists.list_import_job_requeue,
        name="list_import_job_requeue",
    ),
    path("lists/<int:pk>/diff/", views.list_diff, name="list_diff"),
    path("lists/<int:pk>/protest/", views_protests.protest_create, name="protest_create"),
    # Rating periods (officers): close, calculate, review, publish, re-rate.
    path("periods/<int:pk>/", views.period_detail, name="period"),
    path("periods/<int:pk>/progress/", views.period_progress, name="period_progress"),
    path("periods/<int:pk>/close/", views_office.period_close, name="period_close"),
    path("periods/<int:pk>/calculate/", views_office.period_calculate, name="period_calculate"),
    path("periods/<int:pk>/publish/", views_office.period_publish, name="period_publish"),
    path("periods/<int:pk>/review/list/", views_office.draft_list, name="draft_list"),
    path("periods/<int:pk>/rerate/", views.period_rerate, name="period_rerate"),
    path(
        "periods/<int:pk>/review/tournaments/", views.review_tournaments, name="review_tournaments"
    ),
    path("periods/<int:pk>/review/statuses/", views.review_statuses, name="review_statuses"),
    path(
        "periods/<int:pk>/review/players/<int:player_id>/",
        views.review_player,
        name="review_player",
    ),
    # Protests: the player's own ("my protests"), the officers' list, one protest's steps.
    path("protests/", views_protests.protest_mine, name="protests_mine"),
    path("protests/office/", views_protests.protest_list, name="protests"),
    path("protests/<int:pk>/", views_protests.protest_detail, name="protest"),
    path(
        "protests/<int:pk>/attachment/",
        views_protests.protest_attachment,
        name="protest_attachment",
    ),
    path(
        "protests/<int:pk>/request-information/",
        views_protests.protest_request_information,
        name="protest_request_information",
    ),
    path("protests/<int:pk>/answer/", views_protests.protest_answer, name="protest_answer"),
    path("protests/<int:pk>/decide/", views_protests.protest_decide, name="protest_decide"),
    path("protests/<int:pk>/appeal/", views_protests.protest_appeal, name="protest_appeal"),
    path(
        "protests/<int:pk>/appeal/decide/",
        views_protests.protest_decide_appeal,
        name="protest_decide_appeal",
    ),
    # The officer's desk and game corrections.
    path("desk/", views_office.desk, name="desk"),
    path("tournaments/<int:pk>/games/", views_office.tournament_games, name="tournament_games"),
    path("games/<int:pk>/correct/", views_office.game_correct, name="game_correct"),
    path("<slug:code>/open-next/", views.system_open_next, name="open_next"),
    path("<slug:code>/", views.system_detail, name="system"),
]
