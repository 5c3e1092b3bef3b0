"""factory_boy factories for every model; exposed as pytest fixtures in conftest.py."""

from __future__ import annotations

import datetime as dt

import factory

from cards.models import Branch, Card, CardSet, CardType, Game, Rarity, Ruling, Subtype


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Game
        django_get_or_create = ("slug",)

    slug = factory.Sequence(lambda n: f"test-game-{n}")
    name = factory.Sequence(lambda n: f"Test Game {n}")
    min_players = 2
    max_players = 2
    number_labels = factory.LazyFunction(
        lambda: {
            "cost": {"name": "cost", "label": "Cost"},
            "attack": {"name": "power", "label": "Power"},
        }
    )
    card_schema = factory.LazyFunction(dict)


class CardSetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CardSet

    game = factory.SubFactory(GameFactory)
    code = factory.Sequence(lambda n: f"S{n}")
    name = factory.Sequence(lambda n: f"Set {n}")
    release_date = dt.date(2026, 1, 1)


class CardTypeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CardType

    game = factory.SubFactory(GameFactory)
    slug = factory.Sequence(lambda n: f"type-{n}")
    name = factory.Sequence(lambda n: f"Type {n}")


class BranchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Branch

    game = factory.SubFactory(GameFactory)
    slug = factory.Sequence(lambda n: f"branch-{n}")
    name = factory.Sequence(lambda n: f"Branch {n}")
    color = "#336699"


class RarityFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Rarity

    game = factory.SubFactory(GameFactory)
    slug = factory.Sequence(lambda n: f"rarity-{n}")
    name = factory.Sequence(lambda n: f"Rarity {n}")


class SubtypeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Subtype

    game = factory.SubFactory(GameFactory)
    slug = factory.Sequence(lambda n: f"subtype-{n}")
    name = factory.Sequence(lambda n: f"Subtype {n}")


class CardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Card
        skip_postgeneration_save = True

    game = factory.SubFactory(GameFactory)
    card_set = factory.SubFactory(CardSetFactory, game=factory.SelfAttribute("..game"))
    card_type = factory.SubFactory(CardTypeFactory, game=factory.SelfAttribute("..game"))
    name = factory.Sequence(lambda n: f"Card Number {n}")
    cost = 1
    rules_text = "Does a thing."

    @factory.post_generation
    def subtypes(self, create: bool, extracted: list[Subtype] | None, **kwargs: object) -> None:
        if create and extracted:
            self.subtypes.set(extracted)


class RulingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Ruling

    card = factory.SubFactory(CardFactory)
    published_on = dt.date(2026, 2, 1)
    text = "Resolve this card's effect before its cost doubles."


class MatchupRunFactory(factory.django.DjangoModelFactory):
    """A finished two-deck matchup run as stored (its totals written out, no game replayable):
    pass ``game``, ``sides`` and ``totals`` for what a test reads."""

    class Meta:
        model = "rules.MatchupRun"

    game = factory.SubFactory(GameFactory)
    sides = factory.LazyFunction(
        lambda: [{"label": "Deck A", "deck": None}, {"label": "Deck B", "deck": None}]
    )
    agents = factory.LazyFunction(lambda: ["random", "random"])
    setup = factory.LazyFunction(dict)
    games = 4
    seed = 1
    status = "done"
    results = factory.LazyAttribute(
        lambda run: [
            {"winner": index % 2, "length": 10, "end_reason": "turn-limit", "first_player": 0}
            for index in range(run.games)
        ]
    )
    totals = factory.LazyAttribute(
        lambda run: {
            "games": run.games,
            "wins": [run.games - run.games // 2, run.games // 2],
            "draws": 0,
            "length_total": 10 * run.games,
            "histogram": {"0000-0024": run.games},
            "end_reasons": {"turn-limit": run.games},
        }
    )
