from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DemoConfig(AppConfig):
    """The demo federation and the synthetic one for benchmarks (management commands)."""

    name = "demo"
    verbose_name = _("Demo data")
