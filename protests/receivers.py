"""What the protests app does when the apps below it signal (connected in apps.py)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from periods.models import RatingPeriod
from protests.services import protests_correction_link
from ratings.models import PublishedList
from ratings.publication.signals import list_published


@receiver(list_published, dispatch_uid="protests.correction_link")
def _list_published(
    sender: Any, *, published: PublishedList, period: RatingPeriod, **_: Any
) -> None:
    protests_correction_link(published=published, period=period)
