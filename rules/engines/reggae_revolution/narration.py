"""Reggae Revolution events in words, by the rulebook's "Turn Phases" (Villain Phase, Main Phase:
Play, Pay, Sway, Yay, Obtain)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engines.core.narration import CardRef, Narrator, Part, plural

Event = Mapping[str, Any]
Said = tuple[Part, ...] | None

#: blows whose result the other lines do not already show, in words
BLOWS = {
    "destroy_lineup": "Villain Phase: cards of the lineup are destroyed and replaced.",
    "seed_villain_deck": "Villain Phase: Oppression cards are shuffled into the villain deck.",
    "strip_gifts": "Villain Phase: every card given to a villain is destroyed.",
    "unscore": "Villain Phase: the most recently scored card is destroyed.",
    "reveal_again": "Villain Phase: another villain card is revealed.",
}
#: team sizes in words, so a line starts with a word
NUMBERS = {2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six"}
#: where an Oppression card goes
PLACES = {"discard": "discard pile", "hand": "hand", "deck": "draw pile"}
#: the card types a reveal names
TYPES = {"villain": "a Villain", "scheme": "a Scheme", "oppression": "an Oppression card"}


class ReggaeRevolutionNarrator(Narrator):
    """Co-operative play: every line says which player acts; villains and schemes by name."""

    needs_subject = frozenset(
        ("reveal", "play", "buy", "gain", "discard", "destroy", "recover", "give", "yay")
    )

    def describe_setup(self, event: Event, player: Any, card: CardRef | None) -> Said:
        players = int(event.get("players", 1))
        if players == 1:
            return (f"One player plays alone (Single Player Rules): {self.whom(player)}.",)
        count = NUMBERS.get(players, str(players))
        return (
            f"{count} players play together; {self.whom(player)} {self.verb(player, 'begins')}.",
        )

    def describe_redraw(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return (
            f"{self.does(player, 'shuffles')} the opening hand back and "
            f"{self.verb(player, 'draws')} a new one (Setup).",
        )

    def describe_reveal(self, event: Event, player: Any, card: CardRef) -> Said:
        what = TYPES.get(str(event.get("type")), "a card")
        return self.say("Villain Phase: the villain deck reveals ", card, f", {what}.")

    def describe_suppressed_discard(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return self.say(
            f"Suppressed: {self.does(player, 'discards')} ",
            self.cards(event.get("cards") or []),
            ".",
        )

    def describe_oppress(self, event: Event, player: Any, card: CardRef | None) -> Said:
        place = PLACES.get(str(event.get("to")), "deck")
        return (f"An Oppression card goes to {self.whose(player)} {place}.",)

    def describe_blow(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return (BLOWS[str(event.get("op"))],) if event.get("op") in BLOWS else None

    def describe_play(self, event: Event, player: Any, card: CardRef) -> Said:
        uses = self.verb(player, "uses")
        effect = f" and {uses} its effect" if event.get("effect") else ""
        return self.say(f"Play: {self.does(player, 'plays')} ", card, f"{effect}.")

    def describe_buy(self, event: Event, player: Any, card: CardRef) -> Said:
        return self.say(f"Pay: {self.does(player, 'pays')} for ", card, ".")

    def describe_gain(self, event: Event, player: Any, card: CardRef) -> Said:
        return self.say(f"{self.does(player, 'gains')} ", card, " for free.")

    def describe_discard(self, event: Event, player: Any, card: CardRef) -> Said:
        return self.say(f"{self.does(player, 'discards')} ", card, ".")

    def describe_destroy(self, event: Event, player: Any, card: CardRef) -> Said:
        return self.say(f"{self.does(player, 'destroys')} ", card, ".")

    def describe_recover(self, event: Event, player: Any, card: CardRef) -> Said:
        return self.say(f"{self.does(player, 'recovers')} ", card, ".")

    def describe_give(self, event: Event, player: Any, card: CardRef) -> Said:
        return self.say(
            f"Sway: {self.does(player, 'gives')} ", card, " to ", self.card(event["villain"]), "."
        )

    def describe_persuade(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return self.say("Sway: ", self.card(event["villain"]), " is persuaded and leaves play.")

    def describe_yay(self, event: Event, player: Any, card: CardRef) -> Said:
        return self.say(f"Yay! {self.does(player, 'scores')} ", card, ".")

    def describe_obtain(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return (f"Obtain: {self.does(player, 'draws')} a new hand of six.",)

    def describe_villain_deck_rebuilt(
        self, event: Event, player: Any, card: CardRef | None
    ) -> Said:
        destroyed = plural(int(event.get("cards", 0)), "destroyed card")
        return (f"The villain deck is rebuilt from {destroyed}.",)

    def describe_villain_deck_empty(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return ("The villain deck is empty.",)

    def describe_game_over(self, event: Event, player: Any, card: CardRef | None) -> Said:
        result = "The players win" if event.get("result") == "win" else "The players lose"
        if event.get("reason") == "turn-limit":
            result = "The game stops"
        return (f"{result}: {self.end_reason(event.get('reason'))}.",)
