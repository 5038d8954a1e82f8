from django.http import HttpRequest

from core import roles as role_names


def roles(request: HttpRequest) -> dict[str, bool]:
    """Which navigation the page shows: public, player, arbiter, rating officer."""
    user = request.user
    if not user.is_authenticated:
        return {"is_arbiter": False, "is_officer": False, "is_player": False}
    names = set(user.groups.values_list("name", flat=True))
    return {
        "is_arbiter": role_names.ARBITER in names,
        "is_officer": role_names.RATING_OFFICER in names or user.is_superuser,
        "is_player": role_names.PLAYER in names or hasattr(user, "player"),
    }
