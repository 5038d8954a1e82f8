"""Signal of the live ratings: whose figure changed (docs/live-ratings.md). The notices app,
above ratings, listens (notices/receivers.py) and tells the players who want to know."""

from __future__ import annotations

from django.dispatch import Signal

#: Sent inside the transaction that stored the figures, with `period` (the open RatingPeriod)
#: and `changed`: {player id: (rating after, change)} for every player whose rating after or
#: change is new or different from what his live figure said before.
live_ratings_changed = Signal()
