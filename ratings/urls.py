from django.urls import path

from ratings import views

app_name = "ratings"
urlpatterns = [
    path("", views.system_list, name="systems"),
    path("lists/<int:pk>/", views.list_detail, name="list"),
    path("<slug:code>/", views.system_detail, name="system"),
]
