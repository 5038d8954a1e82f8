"""The accounts' pages, under /accounts/ beside Django's login and password pages
(config/urls.py), in the "accounts" namespace."""

from django.urls import path

from accounts import views

urlpatterns = [
    path("signup/", views.signup_page, name="signup"),
    path("signup/sent/", views.signup_sent, name="signup_sent"),
    path("signup/confirm/<str:token>/", views.signup_confirm, name="signup_confirm"),
    path("claim/", views.claim_page, name="claim"),
    path("corrections/", views.corrections_page, name="corrections"),
    path("claims/<int:pk>/decide/", views.claim_decide, name="claim_decide"),
    path("corrections/<int:pk>/decide/", views.correction_decide, name="correction_decide"),
]
