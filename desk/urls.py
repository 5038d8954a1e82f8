"""The desk's pages, joined to the "ratings" namespace in config/urls.py (the desk's name and
path, ratings:desk at /ratings/desk/, are what they were when it was a ratings page)."""

from django.urls import path

from desk import views

urlpatterns = [
    path("desk/", views.desk, name="desk"),
    path("desk/duplicates/", views.player_duplicates, name="player_duplicates"),
    path(
        "desk/duplicates/merge/<int:kept>/<int:merged>/",
        views.player_merge,
        name="player_merge",
    ),
]
