"""Accounts and what guards them, shared by both surfaces (``web`` and ``api``), which import it and
never each other: the per-account guess limit (``guard``), the per-address lockout (``lockout``),
the API's expiring tokens (``tokens``), the rate limits (``throttling``) and, through its
migration, the table of shared limit counters (``common.counters``)."""
