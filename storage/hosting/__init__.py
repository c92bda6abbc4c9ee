"""Hosting: the match service's rows (hosted matches from the challenge to the end, the
players' private setup choices), the transactional outbox, and what lets several processes
host together (``claims`` of due clocks, ``sharing``'s leases and interactions)."""
