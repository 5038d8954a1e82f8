"""The read-only public API (players and published lists)."""

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from players.api import PlayerViewSet
from ratings.api import PublishedListViewSet

router = DefaultRouter()
router.register("players", PlayerViewSet, basename="player")
router.register("lists", PublishedListViewSet, basename="list")

urlpatterns = [path("", include(router.urls))]
