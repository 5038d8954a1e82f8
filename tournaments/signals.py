"""What the tournaments app tells the apps above it, which connect to it in their
AppConfig.ready() (as ratings.publication.signals).

``report_needs_arbiter``: sent inside the transaction that found it, when a tournament's report
needs its arbiter, with the keyword arguments ``tournament``, ``report`` (the Report), ``reason``
(one of REASONS) and the counts ``errors`` and ``unmatched``. The notices app tells the arbiter
(notices/receivers.py). It may be sent again for the same report and reason (every revalidation
asks again): receivers keep one message per report and reason."""

from django.dispatch import Signal

#: The upload was rejected on reading (it cannot be parsed, or is too large).
REJECTED = "rejected"
#: The report was read but the checks found errors: the tournament cannot be validated.
PROBLEMS = "problems"
#: The report has lines not matched to a registry player: the arbiter confirms them.
UNMATCHED = "unmatched"
#: A validated or rated tournament went back to "report received" (a replacement, an officer's
#: approval that found errors…): its report must be corrected again.
RETURNED = "returned"
REASONS = (REJECTED, PROBLEMS, UNMATCHED, RETURNED)

report_needs_arbiter = Signal()
