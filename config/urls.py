from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from config.health import healthz, healthz_web
from players import urls as player_urls
from ratings.views import public

urlpatterns = [
    path("", public.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("healthz/web", healthz_web, name="healthz-web"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path(
        "players/",
        include(
            (
                [
                    *player_urls.urlpatterns,
                    path("<str:fed_id>/", public.player_detail, name="detail"),
                ],
                "players",
            )
        ),
    ),
    path("tournaments/", include("tournaments.urls")),
    path("ratings/", include("ratings.urls")),
    path("api/", include("config.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("admin/", admin.site.urls),
]
