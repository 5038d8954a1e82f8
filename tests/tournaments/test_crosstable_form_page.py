"""The crosstable form's page (issue 14 item 11): errors name the form's row and cell and mark
the cell, every input has a label."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import CROSSTABLE_FORM

from .test_flow import setup  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db

GOOD = CROSSTABLE_FORM


def test_a_bad_cell_is_named_by_row_and_opponent_and_marked(client, setup) -> None:  # noqa: F811
    t = setup["tournament"]
    client.force_login(setup["arbiter"])
    url = reverse("tournaments:crosstable", args=[t.pk])
    response = client.post(url, {**GOOD, "cell_2_3": "7"})
    assert response.status_code == 422
    html = response.content.decode()
    problem = re.search(r'<tr class="problem problem-error"[^>]*data-field="cell_2_3"', html)
    assert problem is not None
    assert "Row 2, result against player 3" in html
    assert "Line 3" not in html and "Column" not in html and "Round -" not in html
    assert "Player 2 against player 3: 7 is not a result" in html
    # The cell is marked; the values typed are kept.
    cell = re.search(r'<td class="cell cell-error"><label[^>]*for="id_cell_2_3"', html)
    assert cell is not None and 'name="cell_2_3" value="7"' in html


def test_every_input_has_a_label(client, setup) -> None:  # noqa: F811
    t = setup["tournament"]
    client.force_login(setup["arbiter"])
    html = client.get(reverse("tournaments:crosstable", args=[t.pk]) + "?size=4").content.decode()
    form = html[html.index('id="crosstable-form"') :]
    ids = re.findall(r'<input type="(?:text|number)"[^>]*id="([^"]+)"', form)
    labels = set(re.findall(r'<label[^>]*for="([^"]+)"', form))
    assert len(ids) == 4 * 4 + 4 * 3  # name, two IDs and rating per player; 12 result cells
    assert set(ids) <= labels
