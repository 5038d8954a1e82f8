from django.urls import path, re_path

from ratings import views, views_lists

app_name = "ratings"
urlpatterns = [
    path("", views.system_list, name="systems"),
    path("lists/<int:pk>/", views.list_detail, name="list"),
    path("lists/<int:pk>/downloads/", views_lists.list_downloads, name="list_downloads"),
    re_path(r"^lists/(?P<pk>[0-9]+)/download\.(?P<fmt>csv|json|txt|xml)$", views_lists.list_download,
            name="list_download"),
    path("lists/import/", views_lists.list_import, name="list_import"),
    path("<slug:code>/", views.system_detail, name="system"),
]
