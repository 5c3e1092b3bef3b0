"""The server-rendered pages (htmx for the live parts, no single-page framework).

- accounts: ``/accounts/signup/``, log in/out, password reset (mail by ``EMAIL_BACKEND``);
- the catalogue (``web.views.catalogue``): ``/`` lists the games with their card counts,
  ``/games/<game>/`` a game's cards, ``/games/<game>/cards/<card>/`` a card with its image,
  rulings, formats and public decks;
- card browser ``/cards/`` (query language, filters, sort, image grid or list);
- decks: ``/decks/`` (public), ``/decks/mine/``, ``/decks/new/``, ``/decks/<id>/`` (the builder:
  autocomplete, paste/import, quantities, live validation and statistics), export, clone,
  settings, ``versions/`` (history and diffs), ``test-hands/`` (every game with a test-hands model);
- ``/matchups/``: matchups of every game with an engine, stored as runs (a Celery worker or the
  page's polls play them), results, the list of games and a step-by-step replay of any one;
- tournaments: ``/tournament/`` (batch legality check with a CSV report) and ``/events/``
  (registration, deadline, lock, deck hash).
"""
