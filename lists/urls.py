"""The list download and list import pages, joined to the "ratings" namespace under /ratings/
in config/urls.py: their names (ratings:list_import…) and paths are what they were when they
were ratings pages."""

from django.urls import path, re_path

from lists import views

urlpatterns = [
    path("lists/<int:pk>/downloads/", views.list_downloads, name="list_downloads"),
    re_path(
        r"^lists/(?P<pk>[0-9]+)/download\.(?P<fmt>csv|json|txt|xml|fide\.txt|fide\.xml)$",
        views.list_download,
        name="list_download",
    ),
    path("lists/import/", views.list_import, name="list_import"),
    path("lists/import/external/", views.external_list_import, name="external_list_import"),
    path("lists/import/<int:pk>/", views.list_import_job, name="list_import_job"),
    path(
        "lists/import/<int:pk>/progress/",
        views.list_import_job_progress,
        name="list_import_job_progress",
    ),
    path(
        "lists/import/<int:pk>/requeue/",
        views.list_import_job_requeue,
        name="list_import_job_requeue",
    ),
]
