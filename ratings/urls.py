from django.urls import path, re_path

from ratings.views import lists as views_lists
from ratings.views import periods as views

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
    path("lists/<int:pk>/protest/", views.protest_create, name="protest_create"),
    # Rating periods (officers): close, calculate, review, publish, re-rate.
    path("periods/<int:pk>/", views.period_detail, name="period"),
    path("periods/<int:pk>/progress/", views.period_progress, name="period_progress"),
    path("periods/<int:pk>/close/", views.period_close, name="period_close"),
    path("periods/<int:pk>/calculate/", views.period_calculate, name="period_calculate"),
    path("periods/<int:pk>/publish/", views.period_publish, name="period_publish"),
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
    path("protests/", views.protest_list, name="protests"),
    path("protests/<int:pk>/", views.protest_detail, name="protest"),
    path("protests/<int:pk>/decide/", views.protest_decide, name="protest_decide"),
    path("<slug:code>/open-next/", views.system_open_next, name="open_next"),
    path("<slug:code>/", views.system_detail, name="system"),
]
