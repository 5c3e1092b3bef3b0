"""The server-rendered pages (htmx for the live parts, no single-page framework).

- accounts: ``/accounts/signup/``, log in/out, password reset (mail by ``EMAIL_BACKEND``);
- the catalogue (``web.views.catalogue``): ``/`` lists the games with their card counts,
  ``/games/<game>/`` a game's cards, ``/games/<game>/cards/<card>/`` a card with its image,
  rulings, formats and public decks;
- card browser ``/cards/`` (query language, filters, sort, image grid or list);
- decks: ``/decks/`` (public), ``/decks/mine/``, ``/decks/new/``, ``/decks/<id>/`` (the builder:
  autocomplete, paste/import, quantities, live validation and statistics), export, clone,
  settings, ``versions/`` (history and diffs), ``test-hands/`` (Revolt N Reign);
- ``/matchups/``: two decks, two agents, games run chunk by chunk with progress, results and a
  replay from the event log;
- tournaments: ``/tournament/`` (batch legality check with a CSV report) and ``/events/``
  (registration, deadline, lock, deck hash).
"""
