"""The officer's start page, and the registry's likely duplicates with the merge of two
records (thin: desk.selectors, desk.duplicates and desk.merges do the work)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_safe

from core.errors import Refused
from core.permissions import permission_required
from desk import duplicates, merges
from desk.selectors import desk_for_officer
from players.models import Player


@permission_required("periods.manage_period")
def desk(request: HttpRequest) -> HttpResponse:
    """The officer's start page: what waits in every period (periods.manage_period)."""
    return render(request, "desk/desk.html", {"desk": desk_for_officer()})


def _page_number(request: HttpRequest) -> int:
    raw = request.GET.get("page", "1")
    return int(raw) if raw.isdigit() and len(raw) < 7 else 1


@require_safe
@permission_required("players.merge_players")
def player_duplicates(request: HttpRequest) -> HttpResponse:
    """The registry's likely duplicates, a page of groups, each with a link to merge."""
    page = duplicates.player_duplicates_page(page=_page_number(request))
    return render(request, "desk/duplicates.html", {"page": page})


class MergeForm(forms.Form):
    reason = forms.CharField(
        label=_("Why are they the same player?"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Kept in the history of both records."),
    )


@require_http_methods(["GET", "POST"])
@permission_required("players.merge_players")
def player_merge(request: HttpRequest, kept: int, merged: int) -> HttpResponse:
    """Confirm the merge of `merged` into `kept` (what moves, what refuses it), then merge."""
    kept_player = get_object_or_404(Player, pk=kept)
    merged_player = get_object_or_404(Player, pk=merged)
    form = MergeForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                counts = merges.player_merge(
                    kept=kept_player,
                    merged=merged_player,
                    by=request.user,
                    reason=form.cleaned_data["reason"],
                )
            except Refused as exc:
                form.add_error(None, str(exc))
            else:
                done = gettext("%(merged)s was merged into %(kept)s.") % {
                    "merged": merged_player.fed_id,
                    "kept": kept_player.fed_id,
                }
                if counts.licence_seasons_kept:
                    done += " " + gettext(
                        "Both records held a licence for %(seasons)s: the kept record's stays."
                    ) % {"seasons": ", ".join(counts.licence_seasons_kept)}
                messages.success(request, done)
                return redirect("players:detail", fed_id=kept_player.fed_id)
        status = 400
    return render(
        request,
        "desk/merge.html",
        {
            "kept": kept_player,
            "merged": merged_player,
            "counts": merges.player_merge_counts(kept=kept_player, merged=merged_player),
            "problems": merges.player_merge_problems(kept=kept_player, merged=merged_player),
            "form": form,
        },
        status=status,
    )
