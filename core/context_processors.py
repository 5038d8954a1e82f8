from django.http import HttpRequest

from core.rules import is_arbiter, is_officer, is_player


def roles(request: HttpRequest) -> dict[str, bool]:
    """Which navigation the page shows: public, player, arbiter, rating officer (the role
    predicates of core/rules.py; the pages' actions ask the named permissions, {% has_perm %})."""
    user = request.user
    if not user.is_authenticated:
        # None of the roles (each is a group an account belongs to), without asking the three
        # predicates: every anonymous page (the public ones, cached or not) renders this.
        return {"is_arbiter": False, "is_officer": False, "is_player": False}
    return {
        "is_arbiter": is_arbiter(user),
        "is_officer": is_officer(user),
        "is_player": is_player(user),
    }
