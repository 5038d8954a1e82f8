from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PeriodsConfig(AppConfig):
    name = "periods"
    verbose_name = _("Rating systems and periods")
