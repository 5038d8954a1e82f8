"""A team competition's TRF16 report (teams in 013 records) for cnxc-2000 7.2: board 1 of the
Portuguese Team Championship final, four teams, three rounds; Sousa (5) is Porto's reserve,
without games. Used by the substitution tests and the browser test of a cnxc-2000 period."""

from __future__ import annotations

from tests.tournaments.test_flow import trf_line


def team(name: str, members: list[int]) -> str:
    """A TRF16 013 record: the team's name (columns 5-36), its players' start ranks."""
    return f"013 {name:<32}" + "".join(f"{m:4d} " for m in members)


def team_trf() -> bytes:
    """Four teams, board 1, three rounds; Sousa (5) is Porto's reserve, without games."""
    lines = [
        "012 Campeonato de Portugal por Equipas, final",
        "022 Porto",
        "032 POR",
        "102 A. Arbiter",
        "XXR 3",
        team("Porto", [1, 5]),
        team("Lisboa", [2]),
        team("Coimbra", [3]),
        team("Braga", [4]),
        trf_line(1, "Alves, Antonio", ["   2 w 1", "   3 b =", "   4 w 1"], fide_id="2300001"),
        trf_line(2, "Bento, Bruno", ["   1 b 0", "   4 w 1", "   3 w 0"], fide_id="2300002"),
        trf_line(3, "Carvalho, Carlos", ["   4 w =", "   1 w =", "   2 b 1"], fide_id="2300003"),
        trf_line(4, "Novo, Duarte", ["   3 b =", "   2 b 0", "   1 b 0"]),
        trf_line(5, "Sousa, Simao", [], fide_id="2300005"),
    ]
    return ("\n".join(lines) + "\n").encode()
