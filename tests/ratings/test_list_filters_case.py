"""The list filters take any case and a part (issue 24 "Tried in the browser" 3:
``?region=catalunya`` and ``?club=Terrassa`` found nothing): region and club by a part of the
text in any case, the name by its words in any order, accents ignored; the page offers the
list's regions and clubs as a choice list. Expected rows are counted from the fixture's
players in Python, not by the code under test."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.lists import ranks
from ratings.lists import selectors as list_selectors
from ratings.models import ListEntry
from tests.ratings.test_list_filter_rows import federation  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db


def _players(published):
    return [
        e.player
        for e in ListEntry.objects.filter(published_list=published).select_related("player")
    ]


def _ids(published, params) -> set[int]:
    page = list_selectors.list_entries_page(published=published, params=params, per_page=500)
    return {e["player_id"] for e in page.entries}


@pytest.mark.parametrize("filled", [False, True])
def test_region_club_and_name_match_any_case_and_a_part(federation, filled) -> None:  # noqa: F811
    if filled:
        ranks.list_rows_fill(list_id=federation.pk)
    players = _players(federation)
    catalans = {p.pk for p in players if p.region == "Catalunya"}
    vigo = {p.pk for p in players if p.club == "CA Vigo"}
    oller_ana = {p.pk for p in players if p.surname == "Öller" and p.given_name == "Ana"}
    assert catalans and vigo and oller_ana
    for value in ("catalunya", "CATALUNYA", "talun", "Catalunya"):
        assert _ids(federation, {"region": value}) == catalans, value
    for value in ("ca vigo", "vigo", "VIG"):
        assert _ids(federation, {"club": value}) == vigo, value
    for value in ("ana oller", "OLLER, Ana", "öll ana"):
        assert _ids(federation, {"name": value}) == oller_ana, value
    assert _ids(federation, {"region": "catalunya", "club": "vigo"}) == catalans & vigo


def test_the_page_filters_by_a_part_and_offers_the_lists_values(client, federation) -> None:  # noqa: F811
    url = reverse("ratings:list", args=[federation.pk])
    html = client.get(url, {"region": "galic"}).content.decode()
    players = _players(federation)
    galicians = [p for p in players if p.region == "Galicia"]
    others = [p for p in players if p.region != "Galicia"]
    assert any(p.fed_id in html for p in galicians)
    assert not any(f">{p.fed_id}<" in html or f"/{p.fed_id}/" in html for p in others)
    assert '<datalist id="region-values"><option value="Catalunya"><option value="Galicia">' in html
    assert '<option value="CA Vigo"><option value="CE Lleida">' in html
