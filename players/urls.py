from django.urls import path

from players import views

# The player's card shows his ratings: it is a ratings page (ratings.views.public), joined
# to these under the "players" namespace in config/urls.py.
urlpatterns = [
    path("", views.player_list, name="list"),
]

# His own data (docs/privacy.md): under /account/data/, the "mydata" namespace (config/urls.py).
account_urlpatterns = [
    path("", views.my_data, name="page"),
    path("birth-year/", views.my_birth_year, name="birth_year"),
    path("erasure/", views.my_erasure, name="erasure"),
    path("json/", views.my_data_json, name="json"),
    path("csv/", views.my_data_csv, name="csv"),
]
