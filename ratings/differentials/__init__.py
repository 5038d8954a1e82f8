"""The FIDE -> system differential (fce 9.5; the proposal's point 8): computed from the lists in
force, reviewed and published by an officer, read by the calculation (docs/periods.md)."""
