"""Tournament events: every rule about them in one place, shared by the web pages, the API, the
admin and the commands.

- ``decks.events.selectors``: reads and the rules they answer (is an event locked, who sees its
  submitted decklists, what its organiser may still change or delete);
- ``decks.events.services``: writes (create, update, delete an event; submit and withdraw a
  registration), each checking first (permission, lock, dates) and then acting;
- ``decks.events.errors``: what those refusals raise, so views turn each into one status.

The organiser *role* (who may create events at all) stays with ``decks.selectors.user_is_organiser``
and ``decks.services.organiser_grant``/``organiser_revoke``.
"""
