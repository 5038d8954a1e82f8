"""The admin's user and group pages write their permission boxes in one pass
(accounts.admin.QuickFilteredSelectMultiple): every permission offered, the user's own
selected, inside Django's two-box selector."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _box(html: str, name: str) -> str:
    match = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert match, f"no {name} box"
    return match.group(0)


def test_a_users_permissions_box_offers_every_permission_and_selects_his(client) -> None:
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "x")
    user = get_user_model().objects.create_user("someone")
    mine = Permission.objects.get(codename="view_player")
    user.user_permissions.add(mine)
    client.force_login(admin)
    html = client.get(reverse("admin:auth_user_change", args=[user.pk])).content.decode()
    box = _box(html, "user_permissions")
    assert 'class="selectfilter"' in box and 'data-field-name="user permissions"' in box
    assert box.count("<option ") == Permission.objects.count()
    assert f'<option value="{mine.pk}" selected>{mine}</option>' in box
    other = Permission.objects.exclude(pk=mine.pk).select_related("content_type").first()
    assert f'<option value="{other.pk}">{other}</option>' in box


def test_a_groups_permissions_box_and_saving_it(client) -> None:
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "x")
    group = Group.objects.create(name="Helpers")
    wanted = Permission.objects.get(codename="view_player")
    client.force_login(admin)
    url = reverse("admin:auth_group_change", args=[group.pk])
    box = _box(client.get(url).content.decode(), "permissions")
    assert box.count("<option ") == Permission.objects.count() and " selected" not in box
    response = client.post(url, {"name": "Helpers", "permissions": [wanted.pk]})
    assert response.status_code == 302
    assert list(group.permissions.all()) == [wanted]
