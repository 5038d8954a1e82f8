"""The desk's page, joined to the "ratings" namespace in config/urls.py (its name and path,
ratings:desk at /ratings/desk/, are what they were when it was a ratings page)."""

from django.urls import path

from desk import views

urlpatterns = [
    path("desk/", views.desk, name="desk"),
]
