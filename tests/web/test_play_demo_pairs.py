"""Every game can be played from the demo set on /play/ (issue 34, item 3): the AI's deck list
offers only the decks that can face yours, a pair the game's rules refuse is said beside the
field on the form again, and each game has a demo pair that starts and plays to its end."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from decks.demo import demo_load
from decks.models import Deck
from rules.models import PlayedGame
from tests.decks.conftest import SAMPLES_DIR
from tests.web.conftest import make_deck
from tests.web.test_matchup_runs import GAMES

pytestmark = pytest.mark.django_db

RVR = "regality-vs-religion"
RVR_VARIANTS = ("standard", "old-style", "random", "secret-random", "draft", "secret-draft")


class _Selects(HTMLParser):
    """The options of every select of a page: select id -> [(value, attributes, words)]."""

    def __init__(self) -> None:
        super().__init__()
        self.selects: dict[str, list[tuple[str, dict[str, str | None], str]]] = {}
        self._select: str | None = None
        self._option: tuple[str, dict[str, str | None]] | None = None
        self._words = ""

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if tag == "select":
            self._select = str(found.get("id"))
            self.selects[self._select] = []
        elif tag == "option" and self._select is not None:
            self._option, self._words = (str(found.get("value")), found), ""

    def handle_data(self, data):
        if self._option is not None:
            self._words += data

    def handle_endtag(self, tag):
        if tag == "option" and self._option is not None and self._select is not None:
            self.selects[self._select].append((*self._option, self._words.strip()))
            self._option = None
        elif tag == "select":
            self._select = None


def _selects(body: str) -> dict[str, list[tuple[str, dict[str, str | None], str]]]:
    parser = _Selects()
    parser.feed(body)
    return parser.selects


def _selected(options) -> str | None:
    return next((value for value, attrs, _ in options if "selected" in attrs), None)


def _offered(options) -> list[str]:
    return [value for value, attrs, _ in options if "disabled" not in attrs]


@pytest.fixture
def demo(db):
    demo_load(samples_dir=SAMPLES_DIR)


def _demo_deck(game: str, variant: str, alignment: str) -> Deck:
    decks = Deck.objects.filter(owner__username="demo", game__slug=game, variant=variant)
    return next(d for d in decks if d.cards.filter(card__branch__slug=alignment).exists())


def _play_to_the_end(client, played: PlayedGame, seed: int) -> PlayedGame:
    """Take a random one of the player's choices on the game's page until the game is over."""
    rng = random.Random(seed)
    for _ in range(2000):
        page = client.get(reverse("play-game", args=[played.pk]))
        assert page.status_code == 200
        played.refresh_from_db()
        if played.status != PlayedGame.Status.ACTIVE:
            return played
        choices = page.context["choices"]
        assert choices, "the game is in play and the AI has replied: the player is to act"
        answer = client.post(
            reverse("play-move", args=[played.pk]),
            {"action": rng.choice(choices)["index"], "version": played.version},
        )
        assert answer.status_code == 302
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", GAMES)
def test_the_demo_pair_play_offers_first_starts_and_plays_a_whole_game(alice, demo, game, settings):
    # a whole game clicked through at test speed outruns the per-minute limit on moves
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "play_move": "100000/minute"},
    }
    # given the demo set and /play/ opened on a game, as a newcomer finds it
    form = alice.get(reverse("play-home"), {"game": game})
    selects = _selects(form.content.decode())
    deck, opponent = _selected(selects["play-deck"]), _selected(selects["play-opponent"])
    # then a deck and an AI's deck that can face it are picked already
    assert deck is not None
    if opponent is None:  # a co-operative game: the partner plays your deck again
        assert _offered(selects["play-opponent"])[0] == ""
        opponent = ""
    # when the game is started with them against the easy AI
    started = alice.post(reverse("play-new"), {"deck": deck, "opponent": opponent, "agent": "easy"})
    # then it starts, and it plays to its end with the player's moves and the AI's replies
    assert started.status_code == 302, started.content.decode()[:800]
    played = _play_to_the_end(alice, PlayedGame.objects.get(), seed=34)
    assert played.status == PlayedGame.Status.FINISHED
    assert played.result in {"won", "lost", "draw"}
    final = alice.get(reverse("play-game", args=[played.pk])).content.decode()
    assert "Game over" in final


@pytest.mark.parametrize("variant", RVR_VARIANTS)
def test_every_regality_vs_religion_variant_has_a_demo_pair_the_form_offers(alice, demo, variant):
    # given a demo Regality deck of the variant
    regality = _demo_deck(RVR, variant, "regality")
    religion = _demo_deck(RVR, variant, "religion")
    body = alice.get(reverse("play-home"), {"game": RVR}).content.decode()
    mine = {value: attrs for value, attrs, _ in _selects(body)["play-deck"]}
    # then the page says it can face exactly the Religion decks of the same variant
    faces = set(str(mine[str(regality.pk)]["data-faces"]).split())
    rvr = Deck.objects.filter(game__slug=RVR)
    can_face = {
        str(d.pk)
        for d in rvr
        if d.variant == variant and d.cards.filter(card__branch__slug="religion").exists()
    }
    assert faces == can_face and str(religion.pk) in faces
    # and the server starts that pair
    started = alice.post(
        reverse("play-new"), {"deck": regality.pk, "opponent": religion.pk, "agent": "easy"}
    )
    assert started.status_code == 302, started.content.decode()[:800]


def test_the_ai_deck_list_offers_only_decks_that_can_face_the_first_deck(alice, demo):
    body = alice.get(reverse("play-home"), {"game": RVR}).content.decode()
    selects = _selects(body)
    deck = Deck.objects.get(pk=_selected(selects["play-deck"]))
    offered = {Deck.objects.get(pk=pk) for pk in _offered(selects["play-opponent"])}
    assert offered, "the first deck has a partner in the demo set"
    for opponent in offered:
        assert opponent.variant == deck.variant
        assert opponent.pk != deck.pk
    # the help says what really happens, not that "a game's variant is your deck's"
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))
    assert "variant (mode) is your deck's" not in text
    assert "Only the decks that can face yours are offered." in text
    assert "other alignment" in text and "same one" in text
    assert "js/play-opponents.js" in body


def _error_beside(body: str, field: str) -> str:
    """The error said inside the form field of select ``field`` ("" when there is none)."""
    block = re.search(
        rf'<div class="field has-error">[^\n]*\n<select id="{field}"(.*?)</div>', body, re.S
    )
    if block is None:
        return ""
    error = re.search(r'<p class="field-error" role="alert"[^>]*>([^<]*)</p>', block[1])
    return error[1] if error else ""


@pytest.mark.parametrize(
    ("mine", "theirs", "said"),
    [
        (("standard", "regality"), ("random", "regality"), "Both decks play Regality"),
        (("standard", "regality"), ("draft", "religion"), "different variants"),
    ],
)
def test_a_pair_that_cannot_meet_is_refused_beside_the_ais_deck(alice, demo, mine, theirs, said):
    deck, opponent = _demo_deck(RVR, *mine), _demo_deck(RVR, *theirs)
    # when a pair the game's rules refuse is posted anyway (an old page, no script)
    page = alice.post(
        reverse("play-new"), {"deck": deck.pk, "opponent": opponent.pk, "agent": "easy"}
    )
    # then the form comes back with the reason beside the AI's deck, keeping the choices made
    assert page.status_code == 400
    body = page.content.decode()
    assert said in _error_beside(body, "play-opponent")
    assert 'aria-invalid="true"' in body
    selects = _selects(body)
    assert _selected(selects["play-deck"]) == str(deck.pk)
    assert _selected(selects["play-opponent"]) == str(opponent.pk)
    assert _selected(selects["play-agent"]) == "easy"
    assert not PlayedGame.objects.exists()


def test_an_agent_that_cannot_play_a_secret_variant_is_refused_beside_the_ai(alice, demo):
    deck = _demo_deck(RVR, "secret-random", "regality")
    opponent = _demo_deck(RVR, "secret-random", "religion")
    page = alice.post(
        reverse("play-new"), {"deck": deck.pk, "opponent": opponent.pk, "agent": "alphabeta"}
    )
    assert page.status_code == 400
    assert "pick another agent" in _error_beside(page.content.decode(), "play-agent")
    assert not PlayedGame.objects.exists()


def test_a_deck_nobody_can_see_is_refused_on_the_play_page(alice, other_user):
    hidden = make_deck(other_user, name="Bob's own")  # private
    page = alice.post(reverse("play-new"), {"deck": hidden.pk, "opponent": "", "agent": "easy"})
    assert page.status_code == 400
    assert "Pick a deck you can see." in page.content.decode()


def test_a_secret_variant_deck_is_offered_with_an_ai_that_can_play_it(alice, demo):
    # given a player who opens the form on a deck whose variant hides tiles
    deck = _demo_deck(RVR, "secret-random", "regality")
    page = alice.get(reverse("play-home"), {"game": RVR, "deck": deck.pk})
    # then the form picks its partner and a level that can play the variant (the normal level
    # is alpha-beta, which reads the whole board), saying why
    body = page.content.decode()
    selects = _selects(body)
    assert _selected(selects["play-deck"]) == str(deck.pk)
    partner = _demo_deck(RVR, "secret-random", "religion")
    assert _selected(selects["play-opponent"]) == str(partner.pk)
    assert _selected(selects["play-agent"]) == "easy"
    assert re.search(r'id="play-agent-open" data-testid="play-agent-open">', body)
    # and that pair and level start a game
    started = alice.post(
        reverse("play-new"), {"deck": deck.pk, "opponent": partner.pk, "agent": "easy"}
    )
    assert started.status_code == 302
