"""factory_boy factories for every model; exposed as pytest fixtures in conftest.py."""

from __future__ import annotations

import datetime as dt

import factory

from cards.models import Branch, Card, CardSet, CardType, Game, Rarity, Ruling, Subtype
from decks.models import Format


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


class MatchupJobFactory(factory.django.DjangoModelFactory):
    """A finished two-deck matchup job as stored (one chunk holding its games, no game
    replayable): pass ``game``, ``decks``, ``fixed_seats`` and ``totals`` for what a test reads."""

    class Meta:
        model = "rules.SimulationJob"
        skip_postgeneration_save = True

    class Params:
        fixed_seats = False
        totals = factory.LazyAttribute(
            lambda job: {
                "games": job.games_total,
                "wins": [job.games_total - job.games_total // 2, job.games_total // 2],
                "draws": 0,
                "length_total": 10 * job.games_total,
                "histogram": {"0000-0024": job.games_total},
                "end_reasons": {"turn-limit": job.games_total},
            }
        )

    kind = "matchup"
    game = factory.SubFactory(GameFactory)
    decks = factory.LazyFunction(
        lambda: [
            {"deck": None, "name": name, "label": name, "version": 1, "hash": ""}
            for name in ("Deck A", "Deck B")
        ]
    )
    pairings = factory.LazyAttribute(
        lambda job: [
            {
                "sides": [0, 1],
                "agents": ["random", "random"],
                "setup": {},
                "games": job.games_total,
                "fixed_seats": job.fixed_seats,
            }
        ]
    )
    seed = 1
    games_total = 4
    chunk_size = factory.SelfAttribute("games_total")
    chunk_count = 1
    chunks_done = 1
    games_done = factory.SelfAttribute("games_total")
    status = "done"
    aggregate = factory.LazyAttribute(lambda job: {"pairings": [job.totals], "cards": {}})

    @factory.post_generation
    def chunk(job, create, extracted, **kwargs):
        """The job's one chunk: game ``k`` won by side ``k mod 2``."""
        if not create:
            return
        from rules.models import SimulationChunk

        SimulationChunk.objects.create(
            job=job,
            index=0,
            start=0,
            stop=job.games_total,
            totals={"0": job.aggregate["pairings"][0]},
            outcomes=[
                [0, index % 2, 10, None, "turn-limit", 0] for index in range(job.games_total)
            ],
        )


def default_format(game: str) -> Format:
    """The game's default format (every game of the fixtures has one)."""
    from decks.selectors import format_default

    found = format_default(game)
    assert found is not None, game
    return found
