"""What publication tells the apps above it, which connect to it in their AppConfig.ready().

``list_published``: sent inside the publication's transaction (ratings.publication.services.
list_publish) once the new list version and its period are written, with the keyword arguments
``published`` (the new PublishedList) and ``period`` (its RatingPeriod). The protests app links
the upheld protests against an earlier version of the list to this correction
(protests/receivers.py)."""

from django.dispatch import Signal

list_published = Signal()
