"""A toy sixth game that lives in the test suite only: the contract test plugs it in.

Toy Duel: two players each play a 10-card deck of numbered cards, one card a turn from a hand of
three; the first to reach 15 points wins, and when both decks and hands run out the higher score
wins. Every piece a real game ships is here (DESIGN, "A game plugs in by its slug"): card data
(``fixtures/toy-duel/``), a validation module (``validation.py``), an engine with its plugin
(``engine.py``, ``plugin.py``), a test-hands model (``hands.py``) and a card-face style
(``style.py``). ``tests/test_game_plugin_contract.py`` registers it and checks that every shared
surface serves it without naming it.
"""
