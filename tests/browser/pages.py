"""What several browser tests do on the same page, done once."""

from __future__ import annotations

import datetime as dt
from typing import Any

from tournaments.models import Tournament


def tournament_register(
    page: Any,
    *,
    name: str,
    city: str,
    start: dt.date,
    end: dt.date,
    system: str,
    rounds: int,
    chief_arbiter: str,
    rating_system: Any,
) -> Tournament:
    """From the arbiter's desk, fill the registration page (90 minutes + 30 seconds) and send
    it; the tournament it stored."""
    page.click("text=Register a tournament")
    page.fill("#id_name", name)
    page.fill("#id_city", city)
    page.fill("#id_start_date", start.isoformat())
    page.fill("#id_end_date", end.isoformat())
    page.select_option("#id_system", system)
    page.fill("#id_rounds", str(rounds))
    page.fill("#id_base_minutes", "90")
    page.fill("#id_increment_seconds", "30")
    page.fill("#id_chief_arbiter", chief_arbiter)
    page.select_option("#id_rating_system", str(rating_system.pk))
    page.click("#register-form button[type=submit]")
    page.wait_for_selector("text=Tournament registered.")
    return Tournament.objects.get(name=name)
