"""The protest pages, joined to the "ratings" namespace under /ratings/ in config/urls.py: their
names (ratings:protest…) and paths are what they were when protests were ratings pages."""

from django.urls import path

from protests import views

urlpatterns = [
    path("lists/<int:pk>/protest/", views.protest_create, name="protest_create"),
    # The player's own ("my protests"), the officers' list, one protest's steps.
    path("protests/", views.protest_mine, name="protests_mine"),
    path("protests/office/", views.protest_list, name="protests"),
    path("protests/<int:pk>/", views.protest_detail, name="protest"),
    path(
        "protests/<int:pk>/attachment/",
        views.protest_attachment,
        name="protest_attachment",
    ),
    path(
        "protests/<int:pk>/request-information/",
        views.protest_request_information,
        name="protest_request_information",
    ),
    path("protests/<int:pk>/answer/", views.protest_answer, name="protest_answer"),
    path("protests/<int:pk>/decide/", views.protest_decide, name="protest_decide"),
    path("protests/<int:pk>/appeal/", views.protest_appeal, name="protest_appeal"),
    path(
        "protests/<int:pk>/appeal/decide/",
        views.protest_decide_appeal,
        name="protest_decide_appeal",
    ),
]
