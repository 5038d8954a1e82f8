from django.urls import path

from players import views

# The player's card shows his ratings: it is a ratings page (ratings.views.public), joined
# to these under the "players" namespace in config/urls.py.
urlpatterns = [
    path("", views.player_list, name="list"),
]
