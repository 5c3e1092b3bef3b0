"""Reggae Revolution events in words, by the rulebook's "Turn Phases" (Villain Phase, Main Phase:
Play, Pay, Sway, Yay, Obtain)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engines.core.narration import Narrator, Part, plural

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

    def describe(self, event: Mapping[str, Any]) -> tuple[Part, ...] | None:
        """One Reggae Revolution event in words."""
        kind, player = event.get("kind"), event.get("player")
        card = self.card(event["card"]) if event.get("card") else None
        if kind == "setup":
            players = int(event.get("players", 1))
            if players == 1:
                return (f"One player plays alone (Single Player Rules): {self.whom(player)}.",)
            count = NUMBERS.get(players, str(players))
            return (f"{count} players play together; {self.whom(player)} begins.",)
        if kind == "redraw":
            return (
                f"{self.does(player, 'shuffles')} the opening hand back and {self.verb(player, 'draws')} a new one "
                "(Setup).",
            )
        if kind == "reveal" and card:
            what = TYPES.get(str(event.get("type")), "a card")
            return self.say("Villain Phase: the villain deck reveals ", card, f", {what}.")
        if kind == "suppressed-discard":
            return self.say(
                f"Suppressed: {self.does(player, 'discards')} ",
                self.cards(event.get("cards") or []),
                ".",
            )
        if kind == "oppress":
            place = PLACES.get(str(event.get("to")), "deck")
            return (f"An Oppression card goes to {self.whose(player)} {place}.",)
        if kind == "blow":
            return (BLOWS[str(event.get("op"))],) if event.get("op") in BLOWS else None
        if kind == "play" and card:
            uses = self.verb(player, "uses")
            effect = f" and {uses} its effect" if event.get("effect") else ""
            return self.say(f"Play: {self.does(player, 'plays')} ", card, f"{effect}.")
        if kind == "buy" and card:
            return self.say(f"Pay: {self.does(player, 'pays')} for ", card, ".")
        if kind == "gain" and card:
            return self.say(f"{self.does(player, 'gains')} ", card, " for free.")
        if kind in ("discard", "destroy", "recover") and card:
            verb = {"discard": "discards", "destroy": "destroys", "recover": "recovers"}[str(kind)]
            return self.say(f"{self.does(player, verb)} ", card, ".")
        if kind == "give" and card:
            return self.say(
                f"Sway: {self.does(player, 'gives')} ",
                card,
                " to ",
                self.card(event["villain"]),
                ".",
            )
        if kind == "persuade":
            return self.say("Sway: ", self.card(event["villain"]), " is persuaded and leaves play.")
        if kind == "yay" and card:
            return self.say(f"Yay! {self.does(player, 'scores')} ", card, ".")
        if kind == "obtain":
            return (f"Obtain: {self.does(player, 'draws')} a new hand of six.",)
        if kind == "villain-deck-rebuilt":
            return (
                f"The villain deck is rebuilt from "
                f"{plural(int(event.get('cards', 0)), 'destroyed card')}.",
            )
        if kind == "villain-deck-empty":
            return ("The villain deck is empty.",)
        if kind == "game-over":
            result = "The players win" if event.get("result") == "win" else "The players lose"
            if event.get("reason") == "turn-limit":
                result = "The game stops"
            return (f"{result}: {self.end_reason(event.get('reason'))}.",)
        return super().describe(event)
