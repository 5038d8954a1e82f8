from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts import urls as account_urls
from config.health import healthz, healthz_web
from core import views as core_views
from core.forms import QueuedPasswordResetForm
from desk import urls as desk_urls
from lists import urls as list_urls
from notices import urls as notice_urls
from players import urls as player_urls
from players import views as player_views
from protests import urls as protest_urls
from ratings import urls as ratings_urls
from ratings.views import public
from tournaments import urls as tournament_urls

urlpatterns = [
    path("", public.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("healthz/web", healthz_web, name="healthz-web"),
    path("accounts/login/", core_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/landing/", core_views.landing, name="landing"),
    # Sign-up, claims of player records, correction requests (docs/accounts.md).
    path("accounts/", include((account_urls.urlpatterns, "accounts"))),
    # Every signed-in user changes his password; a forgotten one is reset by an e-mailed link
    # (sent by a worker: core.forms). Templates in templates/registration/.
    path(
        "accounts/password/change/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path(
        "accounts/password/reset/",
        auth_views.PasswordResetView.as_view(
            form_class=QueuedPasswordResetForm,
            email_template_name="registration/password_reset_email.txt",
        ),
        name="password_reset",
    ),
    path(
        "accounts/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("i18n/", include("django.conf.urls.i18n")),
    # The language links (a GET: pages carry no CSRF token, so a proxy may share them).
    path("language/<str:code>/", core_views.language_switch, name="language"),
    path(
        "players/",
        include(
            (
                [
                    *player_urls.urlpatterns,
                    path("<str:fed_id>/", public.player_detail, name="detail"),
                    path(
                        "<str:fed_id>/lists/<int:list_id>/",
                        public.player_calculation,
                        name="calculation",
                    ),
                    path(
                        "<str:fed_id>/live/<int:period_id>/",
                        public.player_live,
                        name="live",
                    ),
                ],
                "players",
            )
        ),
    ),
    # A tournament's public page shows its rating changes: a ratings page (ratings.views.public),
    # joined to tournaments.urls under the "tournaments" namespace.
    path(
        "tournaments/",
        include(
            (
                [
                    *tournament_urls.urlpatterns,
                    path("<int:pk>/", public.tournament_detail, name="detail"),
                ],
                "tournaments",
            )
        ),
    ),
    # The ratings pages and those of the apps that were ratings pages once (list downloads and
    # imports, protests, the officer's desk) share the "ratings" namespace: names and paths kept.
    # Theirs first: the last ratings patterns (<slug:code>/) take any path left.
    path(
        "ratings/",
        include(
            (
                [
                    *list_urls.urlpatterns,
                    *protest_urls.urlpatterns,
                    *desk_urls.urlpatterns,
                    *ratings_urls.urlpatterns,
                ],
                "ratings",
            )
        ),
    ),
    path("notices/", include(notice_urls)),
    path("api/", include("config.api_urls")),
    # Privacy (docs/privacy.md): the page everyone reads, and a player's own data.
    path("privacy/", player_views.privacy, name="privacy"),
    path("account/data/", include((player_urls.account_urlpatterns, "mydata"))),
    path("account/tokens/", core_views.api_tokens, name="api_tokens"),
    path("account/tokens/<int:pk>/revoke/", core_views.api_token_revoke, name="api_token_revoke"),
    path("admin/", admin.site.urls),
]

handler400 = "core.error_views.bad_request"
handler403 = "core.error_views.permission_denied"
# Under /api/ a missing URL or a server error answers in the API's JSON shape (docs/api.md);
# elsewhere the site's pages (core.error_views).
handler404 = "config.api_urls.not_found"
handler500 = "config.api_urls.server_error"
