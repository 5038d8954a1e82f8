from django.urls import path

from notices import views

app_name = "notices"
urlpatterns = [
    path("", views.notices_mine, name="mine"),
    path("preferences/", views.preferences, name="preferences"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
