"""The scale's health: each published list's figures, the drift check, the yearly report
(feda-1996 11.1-11.2, fide-2000 12.1-12.3; docs/periods.md "The scale's health")."""
