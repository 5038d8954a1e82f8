"""Stored messages in the reader's format (issue 14): an engine note's "Ra 1589.40" reads
"1589,40" in Spanish beside the tables' "5,5"; an ISO date reads as the locale writes dates."""

from __future__ import annotations

import datetime as dt

from django.utils import translation

from core.messages import param_localized, stored_message


def test_decimals_and_dates_follow_the_language() -> None:
    with translation.override("es"):
        assert param_localized("1589.40") == "1589,40"
        assert param_localized(5.5) == "5,5"
        assert param_localized("2026-09-10") == "10 de septiembre de 2026"
        assert param_localized(dt.date(2026, 9, 10)) == "10 de septiembre de 2026"
        assert param_localized("2200001") == "2200001"  # an ID stays as it is
        assert stored_message("Ra %(ra)s", {"ra": "1589.40"}) == "Ra 1589,40"
        # A parameter the template formats itself stays a number.
        assert stored_message("%(x).1f points", {"x": 5.5}) == "5.5 points"
    with translation.override("pt"):
        assert param_localized("2026-09-10") == "10 de setembro de 2026"
    with translation.override("en"):
        assert param_localized("1589.40") == "1589.40"
        assert param_localized("2026-09-10") == "10 September 2026"
