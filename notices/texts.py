"""The words of each notice and of its e-mail, in the active language (callers wrap them in
translation.override with the recipient's): the subject, the text (the notice's page shows it;
the e-mail's plain-text part starts with it), and the e-mail's footer with its unsubscribe
link. The HTML part says the same, escaped."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.urls import reverse
from django.utils.html import urlize
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from notices.models import NoticeKind
from tournaments import signals as tournament_signals


@dataclass(frozen=True)
class Message:
    subject: str
    text: str
    link: str = ""  # a path of the site


#: What a service is given to word a notice in the recipient's language.
CallableMessage = Callable[[], Message]


@dataclass(frozen=True)
class Email:
    body: str
    html: str


def list_published(
    *, list_name: str, link: str, rating: int | None = None, change: int | None = None
) -> Message:
    text = _("The rating list %(list)s is published.") % {"list": list_name}
    if rating is not None:
        text += "\n\n" + _("Your rating in it: %(rating)s (%(change)s).") % {
            "rating": rating,
            "change": f"{change or 0:+d}",
        }
    return Message(
        subject=_("New rating list: %(list)s") % {"list": list_name}, text=text, link=link
    )


def live_rating(*, system: str, rating_after: int | None, change: int, link: str) -> Message:
    """His live rating changed (docs/live-ratings.md): provisional until the list."""
    figure = f"{rating_after} ({change:+d})" if rating_after is not None else f"{change:+d}"
    return Message(
        subject=_("Your live rating in %(system)s: %(figure)s")
        % {"system": system, "figure": figure},
        text=_(
            "A report of this period was validated or corrected: your live rating in %(system)s "
            "is now %(figure)s. It is provisional: it becomes final when the list is published."
        )
        % {"system": system, "figure": figure},
        link=link,
    )


def event_rated(*, tournament: str, list_name: str, link: str) -> Message:
    return Message(
        subject=_("Rated: %(tournament)s") % {"tournament": tournament},
        text=_("The tournament %(tournament)s is rated in the list %(list)s.")
        % {"tournament": tournament, "list": list_name},
        link=link,
    )


def report(*, tournament: str, reason: str, errors: int, unmatched: int, link: str) -> Message:
    """A report that needs its arbiter (tournaments/signals.py's reasons)."""
    counts = []
    if errors:
        counts.append(ngettext("%(n)s error", "%(n)s errors", errors) % {"n": errors})
    if unmatched:
        counts.append(
            ngettext("%(n)s unmatched player", "%(n)s unmatched players", unmatched)
            % {"n": unmatched}
        )
    what = {"tournament": tournament, "counts": ", ".join(counts)}
    if reason == tournament_signals.REJECTED:
        subject = _("Report rejected: %(tournament)s") % what
        text = _("The report uploaded for %(tournament)s was rejected: it could not be read.")
    elif reason == tournament_signals.RETURNED:
        subject = _("Report to correct: %(tournament)s") % what
        text = _(
            'The tournament %(tournament)s is back at "report received": its report must be '
            "corrected (%(counts)s)."
        )
    elif reason == tournament_signals.PROBLEMS:
        subject = _("Report with errors: %(tournament)s") % what
        text = _(
            "The report of %(tournament)s has errors (%(counts)s): the tournament cannot be "
            "validated until a corrected report is uploaded."
        )
    else:
        subject = _("Players to match: %(tournament)s") % what
        text = _(
            "The report of %(tournament)s has players not matched to the registry "
            "(%(counts)s): confirm them so that the tournament is validated."
        )
    return Message(subject=subject, text=text % what, link=link)


#: The digest's lines: the desk's count (desk.selectors.desk_counts) → its sentence.
DIGEST_LINES = {
    "reports_waiting": lambda n: ngettext(
        "%(n)s report waiting to be validated", "%(n)s reports waiting to be validated", n
    ),
    "protests": lambda n: ngettext("%(n)s protest open", "%(n)s protests open", n),
    "late_registrations": lambda n: ngettext(
        "%(n)s late registration to approve", "%(n)s late registrations to approve", n
    ),
    "recalculation": lambda n: ngettext(
        "%(n)s period to recalculate", "%(n)s periods to recalculate", n
    ),
    "mail_failed": lambda n: ngettext(
        "%(n)s e-mail that could not be sent", "%(n)s e-mails that could not be sent", n
    ),
}


def digest(*, counts: dict[str, int], day: str) -> Message:
    """The officer's daily digest: one line per kind of work that waits (desk.selectors'
    counts; a count this module has no sentence for is shown by its name)."""
    lines = []
    for name, n in counts.items():
        if not n:
            continue
        sentence = DIGEST_LINES.get(name)
        lines.append("- " + (sentence(n) % {"n": n} if sentence else f"{name}: {n}"))
    text = _("Work waiting on the officer's desk on %(day)s:") % {"day": day}
    return Message(
        subject=_("The office's work for %(day)s") % {"day": day},
        text=text + "\n" + "\n".join(lines),
        link=reverse("ratings:desk"),
    )


def email(*, message: Message, kind: str, unsubscribe: str) -> Email:
    """The e-mail of a notice: its text, its link, and a footer saying why it came and how to
    stop it (the unsubscribe link) or choose others (the preferences page)."""
    link = settings.SITE_URL + message.link if message.link else ""
    why = _("You get this e-mail because you chose: %(kind)s.") % {"kind": NoticeKind(kind).label}
    stop = _("Stop these e-mails: %(link)s") % {"link": unsubscribe}
    choose = _("Choose your notices: %(link)s") % {
        "link": settings.SITE_URL + reverse("notices:preferences")
    }
    parts = [message.text, link, f"-- \n{why}\n{stop}\n{choose}"]
    body = "\n\n".join(p for p in parts if p) + "\n"
    html = "".join(f"<p>{_html(p)}</p>" for p in parts if p)
    return Email(body=body, html=f"<!doctype html><html><body>{html}</body></html>")


def _html(text: str) -> str:
    """A paragraph of the plain text, escaped, its links made links, its lines kept."""
    return str(urlize(text, autoescape=True)).replace("\n", "<br>")
