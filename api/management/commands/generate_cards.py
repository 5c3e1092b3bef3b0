"""Generate a synthetic game with many cards, for benchmarks and load tests.

    python manage.py generate_cards --count 100000            # game "bench", seed 1
    python manage.py generate_cards --count 5000 --game tiny --seed 7 --replace

The game looks like Revolt N Reign to the search code (types, branches, rarities, a subtype, sets
and the same number names), so every query-language feature has something to find. Names are
unique and deterministic for a seed.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, models, transaction

from cards.models import Branch, Card, CardSet, CardType, Game, Rarity, Subtype
from cards.naming import name_key, slugify_name
from cards.schema import PRINTED_NUMBERS
from cards.signals import game_data_changed

ADJECTIVES = [
    "Amber",
    "Ancient",
    "Ashen",
    "Bold",
    "Brave",
    "Bright",
    "Broken",
    "Burning",
    "Calm",
    "Crimson",
    "Cunning",
    "Dark",
    "Distant",
    "Dusty",
    "Eager",
    "Early",
    "Emerald",
    "Endless",
    "Faded",
    "Fallen",
    "Fierce",
    "Final",
    "Free",
    "Frozen",
    "Gentle",
    "Gilded",
    "Golden",
    "Grand",
    "Grim",
    "Hidden",
    "Hollow",
    "Humble",
    "Iron",
    "Ivory",
    "Jade",
    "Last",
    "Lone",
    "Lost",
    "Loyal",
    "Lucky",
    "Mighty",
    "Misty",
    "Noble",
    "Old",
    "Pale",
    "Proud",
    "Quiet",
    "Radiant",
    "Rapid",
    "Restless",
    "Rising",
    "Royal",
    "Rusty",
    "Sacred",
    "Scarlet",
    "Secret",
    "Silent",
    "Silver",
    "Sly",
    "Solemn",
    "Stark",
    "Steady",
    "Stone",
    "Storm",
    "Swift",
    "Tall",
    "Tidal",
    "Twin",
    "Velvet",
    "Vivid",
    "Wild",
]
NOUNS = [
    "Anvil",
    "Archive",
    "Banner",
    "Barricade",
    "Beacon",
    "Bell",
    "Bison",
    "Blade",
    "Bridge",
    "Candle",
    "Charter",
    "Citadel",
    "Clerk",
    "Council",
    "Crown",
    "Decree",
    "Drum",
    "Eagle",
    "Ember",
    "Ferry",
    "Flag",
    "Forge",
    "Fort",
    "Gate",
    "Harbor",
    "Hearth",
    "Herald",
    "Hill",
    "Lantern",
    "Ledger",
    "Liberty",
    "Market",
    "Meadow",
    "Militia",
    "Mill",
    "Musket",
    "Oath",
    "Orchard",
    "Pamphlet",
    "Pasture",
    "Petition",
    "Pillar",
    "Press",
    "Quarry",
    "Rampart",
    "Ranger",
    "Ridge",
    "River",
    "Scroll",
    "Seal",
    "Sentinel",
    "Shield",
    "Signal",
    "Spire",
    "Stampede",
    "Standard",
    "Statute",
    "Storm",
    "Summit",
    "Tavern",
    "Tide",
    "Tower",
    "Treaty",
    "Vault",
    "Village",
    "Warden",
]
ENDINGS = ("", " of the Commons", " of the Frontier", " at Dawn", " Unbound", " Reborn")
TEMPLATES = (
    "Deal {n} attack damage to an opponent's Defense.",
    "On play: gain {n} LP.",
    "On play: draw {k} card(s).",
    "Each turn: mill {k} card(s) from the opponent's draw pile.",
    "Protects your UAs with {n} Defense points.",
    "Pay {k} IP: prevent up to {n} LP loss.",
    "While in play: the opponent's UA LP drain is reduced by 1.",
    "When attacked: exile an opponent's Petition.",
)
TYPES = ("attack", "defense", "rights", "freedom", "bill", "pillar", "unconstitutional-act")
BRANCHES = ("bison", "eagle", "liberty-bell", "scroll")
RARITIES = ("common", "uncommon", "rare")


def _names(count: int, rng: random.Random) -> list[str]:
    """``count`` distinct card names (distinct by matching key too)."""
    combos = [(a, n, e) for a in ADJECTIVES for n in NOUNS for e in ENDINGS]
    rng.shuffle(combos)
    names = [f"{a} {n}{e}" for a, n, e in combos[:count]]
    serial = 2
    while len(names) < count:  # more cards than combinations: number the repeats
        names += [f"{a} {n}{e} {serial}" for a, n, e in combos[: count - len(names)]]
        serial += 1
    return names


class Command(BaseCommand):
    help = "Generate a synthetic game with COUNT cards (for benchmarks)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--count", type=int, default=100_000)
        parser.add_argument("--game", default="bench", help="Slug of the game to create.")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--replace", action="store_true", help="Delete the game's cards first.")
        parser.add_argument("--batch", type=int, default=2000)

    def handle(self, *args: Any, **options: Any) -> None:
        count, slug = options["count"], options["game"]
        if count < 1:
            raise CommandError("--count must be at least 1")
        rng = random.Random(options["seed"])
        with transaction.atomic():
            game = self._game(slug)
            existing = Card.objects.filter(game=game).count()
            if existing and not options["replace"]:
                raise CommandError(
                    f"{slug} already has {existing} cards; pass --replace to generate afresh"
                )
            Card.subtypes.through.objects.filter(card__game=game).delete()
            Card.objects.filter(game=game).delete()
            vocab = self._vocabulary(game)
            names = _names(count, rng)
            created = 0
            for start in range(0, count, options["batch"]):
                batch = [
                    self._card(game, vocab, name, rng)
                    for name in names[start : start + options["batch"]]
                ]
                Card.objects.bulk_create(batch, batch_size=options["batch"])
                created += len(batch)
            petition = vocab["subtype"]
            ids = list(
                Card.objects.filter(game=game, card_type__slug="rights").values_list(
                    "pk", flat=True
                )
            )
            through = Card.subtypes.through
            through.objects.bulk_create(
                [through(card_id=pk, subtype_id=petition.pk) for pk in ids[::3]],
                batch_size=options["batch"],
            )
        game_data_changed()  # bulk_create sends no signal: drop what processes remember
        with connection.cursor() as cursor:  # fresh planner statistics after a bulk load
            cursor.execute("ANALYZE")
        self.stdout.write(f"{slug}: generated {created} cards (seed {options['seed']})")

    def _game(self, slug: str) -> Game:
        game, _ = Game.objects.update_or_create(
            slug=slug,
            defaults={
                "name": f"Generated {slug}",
                "short_name": slug.upper()[:8],
                "description": "Synthetic cards for benchmarks.",
                "sort_order": 99,
                "number_labels": {
                    "cost": {"name": "ip_cost", "label": "IP cost"},
                    "attack": {"name": "attack_damage", "label": "Attack damage"},
                    "defense": {"name": "defense_points", "label": "Defense points"},
                    "drain": {"name": "lp_drain", "label": "LP drain"},
                    "generation": {"name": "ip_generation", "label": "IP generation"},
                },
            },
        )
        return game

    def _vocabulary(self, game: Game) -> dict[str, Any]:
        def rows(model: type[models.Model], slugs: tuple[str, ...]) -> list[Any]:
            return [
                model._default_manager.update_or_create(
                    game=game,
                    slug=slug,
                    defaults={"name": slug.replace("-", " ").title(), "sort_order": order},
                )[0]
                for order, slug in enumerate(slugs, start=1)
            ]

        sets = [
            CardSet.objects.update_or_create(
                game=game,
                code=f"GEN{n}",
                defaults={"name": f"Generated {n}", "release_date": dt.date(2026, n, 1)},
            )[0]
            for n in range(1, 5)
        ]
        subtype, _ = Subtype.objects.update_or_create(
            game=game, slug="petition", defaults={"name": "Petition"}
        )
        return {
            "type": rows(CardType, TYPES),
            "branch": rows(Branch, BRANCHES),
            "rarity": rows(Rarity, RARITIES),
            "set": sets,
            "subtype": subtype,
        }

    def _card(self, game: Game, vocab: dict[str, Any], name: str, rng: random.Random) -> Card:
        card_type = rng.choice(vocab["type"])
        numbers: dict[str, int | None] = dict.fromkeys(PRINTED_NUMBERS)
        if card_type.slug == "unconstitutional-act":
            numbers.update(defense=rng.choice((20, 25, 30)), drain=rng.choice((1, 1, 2)))
        elif card_type.slug == "pillar":
            numbers.update(generation=rng.choice((1, 1, 1, 2)))
        else:
            numbers["cost"] = rng.randint(0, 6)
            if card_type.slug == "attack":
                numbers["attack"] = 5 * rng.randint(1, 6)
            elif card_type.slug == "defense":
                numbers["defense"] = 5 * rng.randint(1, 6)
        text = rng.choice(TEMPLATES).format(n=5 * rng.randint(1, 6), k=rng.randint(1, 3))
        return Card(
            game=game,
            card_set=rng.choice(vocab["set"]),
            name=name,
            slug=slugify_name(name),
            name_key=name_key(name),
            card_type=card_type,
            branch=None
            if card_type.slug == "unconstitutional-act"
            else rng.choice(vocab["branch"]),
            rarity=rng.choice(vocab["rarity"]),
            rules_text=text,
            **numbers,
        )
