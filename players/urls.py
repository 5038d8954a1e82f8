from django.urls import path

from players import views

# The player's card shows his ratings: it is a ratings page (ratings.views.public), joined
# to these under the "players" namespace in config/urls.py.
urlpatterns = [
    path("", views.player_list, name="list"),
    # The licence roll and the deceased flag (players.licences, docs/lists.md): officers.
    path("licences/", views.licences, name="licences"),
    path("<str:fed_id>/licence/", views.player_licence, name="licence"),
    path(
        "<str:fed_id>/licence/<int:pk>/delete/", views.player_licence_delete, name="licence_delete"
    ),
    path("<str:fed_id>/deceased/", views.player_deceased, name="deceased"),
]

# His own data (docs/privacy.md): under /account/data/, the "mydata" namespace (config/urls.py).
account_urlpatterns = [
    path("", views.my_data, name="page"),
    path("birth-year/", views.my_birth_year, name="birth_year"),
    path("erasure/", views.my_erasure, name="erasure"),
    path("json/", views.my_data_json, name="json"),
    path("csv/", views.my_data_csv, name="csv"),
]
