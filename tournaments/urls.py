from django.urls import path

from tournaments import views

app_name = "tournaments"
urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("register/", views.tournament_register, name="register"),
    path("<int:pk>/", views.tournament_detail, name="detail"),
    path("<int:pk>/manage/", views.tournament_manage, name="manage"),
    path("<int:pk>/upload/", views.report_upload, name="upload"),
    path("<int:pk>/crosstable/", views.crosstable_form, name="crosstable"),
    path("<int:pk>/players/", views.tournament_matching, name="matching"),
    path("<int:pk>/approve/", views.tournament_approve, name="approve"),
]
