"""Every tile power of Regality vs Religion on a hand-built board ("Tile list", "Tile effects")."""

from __future__ import annotations

from tests.rules.rvr_helpers import area, at, discard, moves, play, position


def test_king_destroys_one_neighbour_which_stays_face_down_until_the_destroyer_plays_again():
    # given Religion tiles next to b2
    state = position("a1=citizen/rel c3=cardinal/rel | king,queen | bishop,saint | - | reg")
    # when Regality places the King and destroys a1
    play(state, "place king b2")
    assert moves(state) == {"decline", "destroy a1", "destroy c3"}
    play(state, "destroy a1")
    # then a1 is face down and Religion cannot place on it
    assert at(state, "a1") == "citizen/rel!"
    assert "place bishop a1" not in moves(state)
    play(state, "place bishop a3", "decline")
    # and it is removed when play comes back to Regality
    assert at(state, "a1") is None
    assert discard(state) == ["citizen"]
    assert "place queen a1" in moves(state)


def test_king_may_destroy_its_own_ally():
    # Destruction: allies may be destroyed as well as enemies; the tile leaves on the
    # destroyer's next turn.
    state = play(position("a1=citizen/reg | king,queen | bishop,saint | - | reg"), "place king b2")
    assert moves(state) == {"decline", "destroy a1"}
    play(state, "destroy a1")
    assert at(state, "a1") == "citizen/reg!" and state.allies() == (1, 0)
    play(state, "place bishop c3", "decline")
    assert at(state, "a1") is None and discard(state) == ["citizen"]  # Regality plays again
    assert "place queen a1" in moves(state)


def test_queen_turns_a_whole_line_to_the_edge_skipping_shielded_tiles():
    state = position("a2=citizen/rel a3=bishop/rel c1=temple/rel | queen | saint | - | reg")
    play(state, "place queen a1")
    assert moves(state) == {"decline", "turn a2+a3"}
    play(state, "turn a2+a3")
    assert (at(state, "a2"), at(state, "a3")) == ("citizen/reg", "bishop/reg")
    shielded = play(
        position("a2=temple/rel a3=bishop/rel | queen | saint | - | reg"), "place queen a1"
    )
    assert moves(shielded) == {"decline", "turn a3"}


def test_princess_turns_all_orthogonal_or_all_diagonal_neighbours():
    state = position("b1=citizen/rel a2=bishop/rel a1=saint/rel | princess | cardinal | - | reg")
    play(state, "place princess b2")
    assert moves(state) == {"decline", "turn b1+a2", "turn a1"}
    play(state, "turn b1+a2")
    assert (at(state, "b1"), at(state, "a2"), at(state, "a1")) == (
        "citizen/reg",
        "bishop/reg",
        "saint/rel",
    )


def test_how_to_choose_target_example_all_four_orthogonal_or_all_four_diagonal_tiles():
    # How to choose target's example: dots of one colour on the four orthogonal spaces, of the
    # other on the four diagonal ones; the player picks a colour and every tile of it is turned.
    text = (
        "a1=citizen/rel b1=bishop/rel c1=saint/rel a2=cardinal/rel c2=monk/rel "
        "a3=paladin/rel b3=hierophant/rel c3=temple/rel | princess | - | - | reg"
    )
    state = play(position(text), "place princess b2")
    assert moves(state) == {"decline", "turn b1+a2+c2+b3", "turn a1+c1+a3"}
    orthogonal = play(state.clone(), "turn b1+a2+c2+b3")
    assert [at(orthogonal, c) for c in ("b1", "a2", "c2", "b3")] == [
        "bishop/reg",
        "cardinal/reg",
        "monk/reg",
        "hierophant/reg",
    ]
    assert [at(orthogonal, c) for c in ("a1", "c1", "a3")] == [
        "citizen/rel",
        "saint/rel",
        "paladin/rel",
    ]
    diagonal = play(state, "turn a1+c1+a3")  # the Temple on c3 is shielded, so it stays
    assert [at(diagonal, c) for c in ("a1", "c1", "a3", "c3")] == [
        "citizen/reg",
        "saint/reg",
        "paladin/reg",
        "temple/rel",
    ]
    assert at(diagonal, "b1") == "bishop/rel"


def test_minister_turns_one_of_eight_neighbours():
    state = position("b1=citizen/rel a1=saint/rel | minister | cardinal | - | reg")
    play(state, "place minister b2")
    assert moves(state) == {"decline", "turn b1", "turn a1"}


def test_general_destroys_orthogonally_and_wizard_diagonally():
    text = "b1=citizen/rel a1=saint/rel | general,wizard | cardinal | - | reg"
    assert moves(play(position(text), "place general b2")) == {"decline", "destroy b1"}
    assert moves(play(position(text), "place wizard b2")) == {"decline", "destroy a1"}


def test_castle_is_immune_to_effects():
    state = play(
        position("b1=castle/rel a1=saint/rel | king | cardinal | - | reg"), "place king b2"
    )
    assert moves(state) == {"decline", "destroy a1"}


def test_samurai_and_ninja_banish_at_once():
    text = "b1=citizen/rel a1=saint/rel | king | cardinal | samurai,ninja | reg"
    samurai = play(position(text), "place samurai b2")
    assert moves(samurai) == {"decline", "banish b1"}
    play(samurai, "banish b1")
    assert at(samurai, "b1") is None and discard(samurai) == ["citizen"]
    ninja = play(position(text), "place ninja b2")
    assert moves(ninja) == {"decline", "banish a1"}


def test_bard_re_enacts_an_orthogonal_neighbours_power_from_that_tile():
    state = position("b1=minister/rel a1=citizen/rel | king | cardinal | bard | reg")
    play(state, "place bard b2")
    assert moves(state) == {"decline", "reenact b1"}
    play(state, "reenact b1")
    # the Minister's power acts from b1: its neighbours, the Bard included
    assert moves(state) == {"decline", "turn a1", "turn b2"}
    play(state, "turn a1")
    assert at(state, "a1") == "citizen/reg"
    assert state.to_move == 1


def test_performer_re_enacts_a_diagonal_neighbour():
    state = position("a1=minister/rel b1=citizen/rel | king | cardinal | performer | reg")
    play(state, "place performer b2", "reenact a1")
    assert moves(state) == {"decline", "turn b1", "turn b2"}


def test_shaman_negates_tiles_placed_orthogonally_next_to_it():
    text = "b1=shaman/rel a1=citizen/rel | minister | cardinal | - | reg"
    negated = play(position(text), "place minister b2")
    assert negated.phase == "place" and negated.to_move == 1
    free = play(position(text), "place minister a2")
    assert moves(free) == {"decline", "turn a1", "turn b1"}


def test_sorceress_negates_tiles_placed_diagonally_next_to_it():
    text = "b1=sorceress/rel a1=citizen/rel | minister | cardinal | - | reg"
    negated = play(position(text), "place minister a2")
    assert negated.to_move == 1
    free = play(position(text), "place minister b2")
    assert moves(free) == {"decline", "turn a1", "turn b1"}


def test_sage_shields_the_tiles_on_its_left_and_right_but_not_against_the_pirate():
    text = "b2=sage/rel a2=citizen/rel b1=saint/rel | minister | cardinal | pirate | reg"
    minister = play(position(text), "place minister a1")
    assert moves(minister) == {"decline", "turn b1", "turn b2"}
    pirate = play(position(text), "place pirate a1")
    assert moves(pirate) == {"decline", "destroy a2"}


def test_fortuneteller_turns_the_three_tiles_ahead_of_its_player():
    regality = position(
        "a2=citizen/rel b2=saint/rel c2=bishop/rel | king | cardinal | fortuneteller | reg"
    )
    assert moves(play(regality, "place fortuneteller b1")) == {"decline", "turn a2+b2+c2"}
    # Religion sits opposite: ahead of b3 is rank 2, ahead of b1 is off the board
    text = "a2=citizen/reg b2=king/reg c2=queen/reg | princess | cardinal | fortuneteller | rel"
    assert moves(play(position(text), "place fortuneteller b3")) == {"decline", "turn a2+b2+c2"}
    behind = play(position(text), "place fortuneteller b1")
    assert behind.to_move == 0


def test_fairy_moves_any_unshielded_tile_to_an_empty_space():
    state = position("a1=citizen/rel b1=castle/rel | king | cardinal | fairy | reg")
    play(state, "place fairy c3")
    options = moves(state)
    assert "transport a1 b2" in options and "transport c3 a3" in options
    assert not any(option.startswith("transport b1") for option in options)
    play(state, "transport a1 b2")
    assert at(state, "a1") is None and at(state, "b2") == "citizen/rel"


def test_assassin_banishes_a_tile_from_the_opponents_area():
    state = position("a1=citizen/rel | king | cardinal,bishop | assassin | reg")
    play(state, "place assassin b2")
    assert moves(state) == {"decline", "assassinate cardinal", "assassinate bishop"}
    play(state, "assassinate cardinal")
    assert area(state, 1) == ["bishop"] and discard(state) == ["cardinal"]


def test_hermit_recalls_a_discarded_tile_to_its_players_area():
    state = position("a1=citizen/rel | king | hierophant | hermit | reg | cardinal,samurai")
    play(state, "place hermit b2")
    assert moves(state) == {"decline", "recall cardinal", "recall samurai"}
    # any discarded tile, even one of the other side's, joins the Hermit player's area
    play(state, "recall cardinal")
    assert "cardinal" in area(state, 0) and discard(state) == ["samurai"]
    play(state, "place hierophant c3", "decline")
    assert "place cardinal a3" in moves(state)


def test_pirate_only_targets_shielded_tiles():
    state = play(
        position("b1=castle/rel a1=citizen/rel | king | cardinal | pirate | reg"), "place pirate b2"
    )
    assert moves(state) == {"decline", "destroy b1"}
    play(state, "destroy b1")
    assert at(state, "b1") == "castle/rel!"
    nothing = play(position("a1=citizen/rel | king | cardinal | pirate | reg"), "place pirate b2")
    assert nothing.to_move == 1


def test_dragon_turns_every_unshielded_neighbour():
    text = (
        "a1=citizen/rel b1=saint/rel c1=temple/rel a2=bishop/reg | king | cardinal | dragon | reg"
    )
    state = play(position(text), "place dragon b2")
    assert moves(state) == {"decline", "turn a1+b1+a2"}
    play(state, "turn a1+b1+a2")
    assert [at(state, c) for c in ("a1", "b1", "c1", "a2")] == [
        "citizen/reg",
        "saint/reg",
        "temple/rel",
        "bishop/rel",
    ]


def test_tower_covers_an_ally_which_loses_its_power_and_is_shielded():
    text = "a1=shaman/reg b1=citizen/rel | king | cardinal,hierophant | tower | reg"
    state = position(text)
    assert {m for m in moves(state) if m.startswith("place tower")} == {"place tower a1"}
    play(state, "place tower a1")
    assert at(state, "a1") == "tower/reg[shaman]"
    # the covered Shaman no longer negates a2, and the Tower cannot be destroyed
    covered = play(state.clone(), "place cardinal a2")
    assert covered.phase == "effect"
    king = play(state.clone(), "place hierophant b2")
    assert "destroy a1" not in moves(king)
    uncovered = play(position(text), "place king c3", "place cardinal a2")
    assert uncovered.phase == "place" and uncovered.to_move == 0


def test_witch_recalls_one_of_its_players_allies_but_not_an_enemy():
    state = position("a1=citizen/reg b1=king/reg c1=saint/rel | queen | cardinal | witch | reg")
    play(state, "place witch b2")
    assert moves(state) == {"decline", "recall a1", "recall b1", "recall b2"}
    play(state, "recall b1")
    assert at(state, "b1") is None and "king" in area(state, 0)


def test_tile_list_witch_may_recall_itself_as_one_of_its_allies():
    # Tile list, Witch: "one ally from the board" makes no exception for the Witch itself.
    state = position("a1=citizen/reg c1=saint/rel | queen | cardinal | witch | reg")
    play(state, "place witch b2")
    assert "recall b2" in moves(state)
    play(state, "recall b2")
    assert at(state, "b2") is None and sorted(area(state, 0)) == ["queen", "witch"]
    assert state.neutral == [] and state.to_move == 1


def test_death_makes_its_holder_lose_at_the_end_whatever_the_count():
    text = (
        "a1=death/reg b1=citizen/reg c1=king/reg a2=queen/reg b2=hierophant/rel "
        "c2=cardinal/rel a3=saint/rel b3=castle/reg | general | bishop | - | reg"
    )
    state = play(position(text), "place general c3")
    assert state.is_terminal()
    assert state.allies() == (6, 3)
    assert state.winner() == 1 and state.end_reason() == "death"


def test_a_tower_over_death_cancels_it():
    text = (
        "a1=death/reg b1=citizen/reg c1=king/reg a2=queen/reg b2=hierophant/rel "
        "c2=cardinal/rel a3=saint/rel b3=castle/reg | general | bishop | tower | reg"
    )
    state = play(position(text), "place tower a1", "place bishop c3")
    assert state.phase == "effect"
    play(state, "decline")
    assert state.is_terminal() and state.end_reason() == "board-full" and state.winner() == 0


def test_a_re_enacted_power_is_aimed_from_the_re_enacting_players_seat():
    # Regality's Fortuneteller stands on b2; Religion's Bard on b3 re-enacts it: "ahead" is
    # Religion's ahead, rank 1.
    text = (
        "b2=fortuneteller/reg a1=citizen/reg b1=king/reg c1=queen/reg a3=minister/reg "
        "| general | cardinal | bard | rel"
    )
    state = play(position(text), "place bard b3", "reenact b2")
    assert moves(state) == {"decline", "turn a1+b1+c1"}


def test_negation_looks_only_at_the_space_of_the_placed_tile():
    # The Minister on b1 sits next to the Shaman, but the Bard placed on b2 is not.
    text = "a1=shaman/rel b1=minister/rel c1=citizen/rel | king | cardinal | bard | reg"
    state = play(position(text), "place bard b2")
    assert "reenact b1" in moves(state)


def test_shielded_tiles_cannot_be_re_enacted():
    text = "a2=minister/rel b2=sage/rel c1=citizen/rel | king | cardinal | bard | reg"
    state = play(position(text), "place bard a1")
    assert "reenact a2" not in moves(state)


def test_a_re_enacted_destruction_is_cancelled_when_the_placement_fills_the_board():
    text = (
        "a1=citizen/rel b1=king/rel c1=saint/rel a2=cardinal/rel c2=queen/reg "
        "a3=minister/reg b3=princess/reg c3=bishop/rel | general | monk | bard | reg"
    )
    state = play(position(text), "place bard b2")
    # only the King's neighbour-destroying power is next to the Bard, and it cannot act now
    assert "reenact b1" not in moves(state)


def test_a_face_down_tile_has_no_power():
    text = "b1=shaman/rel c3=citizen/rel | king | cardinal | - | reg"
    state = play(position(text), "place king a2", "destroy b1")
    # Religion places next to the face-down Shaman: no negation
    play(state, "place cardinal b2")
    assert state.phase == "effect"


def test_a_tower_cannot_cover_a_shielded_ally_and_a_destroyed_tower_uncovers_its_ally():
    text = "a1=castle/reg b1=queen/reg c3=citizen/rel | king | cardinal | tower,pirate | reg"
    state = position(text)
    assert {m for m in moves(state) if m.startswith("place tower")} == {"place tower b1"}
    play(state, "place tower b1", "place pirate b2")
    assert "destroy b1" in moves(state)
    play(state, "destroy b1", "place king a3", "decline")
    assert at(state, "b1") == "queen/reg" and discard(state) == ["tower"]


def test_a_tower_counts_as_an_ally_and_its_covered_tile_does_not():
    text = "a1=citizen/reg | king | cardinal | tower | reg"
    state = play(position(text), "place tower a1")
    assert state.allies() == (1, 0)


def test_tile_list_a_bard_re_enacting_the_witch_may_recall_itself():
    # Tile list, Bard and Witch: the re-enacted recall takes any one ally, the Bard included.
    text = "b1=witch/reg a1=citizen/reg c3=saint/rel | king | cardinal | bard | reg"
    state = play(position(text), "place bard b2", "reenact b1")
    assert moves(state) == {"decline", "recall a1", "recall b1", "recall b2"}
    play(state, "recall b2")
    assert at(state, "b2") is None and "bard" in area(state, 0)


def test_destruction_a_banish_still_happens_on_the_board_filling_placement():
    # Destruction: filling the ninth space stops destructive effects only; a banish (Tile
    # effects and icons, Banish) is its own effect and removes the tile at once (ruling 22).
    text = (
        "a1=citizen/rel b1=bishop/rel c1=saint/rel a2=cardinal/rel b2=castle/reg "
        "c2=queen/reg a3=minister/reg c3=princess/reg | king | paladin | samurai | reg"
    )
    state = play(position(text), "place samurai b3")
    assert moves(state) == {"decline", "banish a3", "banish c3"}
    play(state, "banish c3")
    assert at(state, "c3") is None and discard(state) == ["princess"]
    assert not state.is_terminal() and state.to_move == 1
    filled = play(position(text), "place samurai b3", "decline")
    assert filled.is_terminal() and filled.end_reason() == "board-full"


def test_tile_effects_and_icons_the_dragon_is_active_so_its_player_may_decline_it():
    # Tile effects and icons: an active power may be declined, else applied in full; the
    # Dragon's tile carries the active icon (ruling 23).
    text = "a1=citizen/rel b1=saint/rel a2=bishop/reg | king | cardinal | dragon | reg"
    state = play(position(text), "place dragon b2")
    assert moves(state) == {"decline", "turn a1+b1+a2"}
    play(state, "decline")
    assert [at(state, c) for c in ("a1", "b1", "a2")] == ["citizen/rel", "saint/rel", "bishop/reg"]
    assert state.to_move == 1


def test_the_assassin_picks_a_secret_tile_blind():
    from tests.rules.rvr_helpers import GAME

    state = GAME.new_initial_state(6, {"variant": "secret-random", "neutral": ["assassin"]})
    religion_first = state.hidden[1][0]
    play(state, "place citizen a1", "place cardinal c3", "decline", "place assassin b2")
    assert {"assassinate hidden-0", "assassinate hidden-1"} <= moves(state)
    play(state, "assassinate hidden-0")
    assert state.discard == [religion_first] and len(state.hidden[1]) == 1


# --- the rulebook's procedures for each kind of effect (docs: "The rulebook's examples") ------
def test_destruction_a_face_down_tile_is_no_ones_ally_and_the_subject_of_no_effect() -> None:
    # Destruction: a face-down tile still takes up its space, but no effect can touch it.
    text = (
        "a1=citizen/rel b1=bishop/rel c3=saint/rel | king,queen | cardinal,hierophant "
        "| dragon,fairy,witch,tower,samurai | reg"
    )
    state = play(position(text), "place king a2", "destroy b1")
    assert at(state, "b1") == "bishop/rel!" and state.allies() == (1, 2)
    assert not any(m.split()[-1] == "b1" for m in moves(state) if m.startswith("place"))
    dragon = play(state.clone(), "place dragon b2")  # turns every neighbour it can
    assert moves(dragon) == {"decline", "turn a1+a2+c3"}
    samurai = play(state.clone(), "place samurai b2")  # b1 is its orthogonal neighbour
    assert moves(samurai) == {"decline", "banish a2"}
    fairy = play(state.clone(), "place fairy b2")
    assert not any(m.startswith("transport b1") for m in moves(fairy))
    witch = play(state.clone(), "place witch b2")  # the face-down Bishop is not Religion's ally
    assert moves(witch) == {"decline", "recall a1", "recall b2", "recall c3"}
    assert {m for m in moves(state) if m.startswith("place tower")} == {
        "place tower a1",
        "place tower c3",
    }


def test_turn_flips_allies_and_enemies_alike_and_every_tile_of_the_choice() -> None:
    # Turn: a turned tile changes sides either way; all the tiles of the chosen direction are
    # turned, except those immune to effects (the Temple).
    text = "a2=bishop/rel a3=minister/reg b2=temple/rel c3=saint/rel | queen | cardinal | - | reg"
    state = play(position(text), "place queen a1")
    assert moves(state) == {"decline", "turn a2+a3", "turn c3"}
    play(state, "turn a2+a3")
    assert [at(state, c) for c in ("a2", "a3", "b2", "c3")] == [
        "bishop/reg",
        "minister/rel",
        "temple/rel",
        "saint/rel",
    ]
    assert state.allies() == (2, 3)


def test_banish_removes_an_ally_or_an_enemy_at_once_and_frees_its_space() -> None:
    # Banish: unlike a destruction, the tile leaves the board immediately, whoever's it is.
    text = "b1=citizen/reg a2=bishop/rel | king | cardinal | samurai | reg"
    state = play(position(text), "place samurai b2")
    assert moves(state) == {"decline", "banish a2", "banish b1"}
    play(state, "banish b1")  # Regality's own Citizen
    assert at(state, "b1") is None and discard(state) == ["citizen"]
    assert state.to_move == 1 and "place cardinal b1" in moves(state)
    assert state.allies() == (1, 1)


def test_shield_a_shielded_tile_is_the_subject_of_no_effect_but_the_pirates() -> None:
    # Shield: the Castle cannot be turned, destroyed, banished, moved, recalled or covered; the
    # Pirate's text overrides the shield.
    text = "b1=castle/reg a1=citizen/rel c2=bishop/rel | king | cardinal | dragon,samurai,fairy,witch,tower,pirate | reg"
    state = position(text)
    assert not any(m.startswith("place tower") for m in moves(state))  # no unshielded ally
    expected = {
        "dragon": {"decline", "turn a1+c2"},
        "king": {"decline", "destroy a1", "destroy c2"},
        "samurai": {"decline", "banish c2"},
        "witch": {"decline", "recall b2"},
        "pirate": {"decline", "destroy b1"},
    }
    for tile, choices in expected.items():
        assert moves(play(state.clone(), f"place {tile} b2")) == choices, tile
    fairy = play(state.clone(), "place fairy b2")
    assert {m.split()[1] for m in moves(fairy) if m != "decline"} == {"a1", "b2", "c2"}


def test_tile_effects_and_icons_a_passive_power_cannot_be_declined_even_by_its_owner() -> None:
    # Tile effects and icons: a passive power always applies: Religion's own Shaman negates
    # the Bishop Religion places beside it.
    text = "b1=shaman/rel a1=citizen/reg | king | bishop | - | rel"
    state = play(position(text), "place bishop b2")
    assert state.phase == "place" and state.to_move == 0
    assert at(state, "a1") == "citizen/reg"


def test_tile_effects_and_icons_a_tile_off_the_board_has_no_power() -> None:
    # Tile effects and icons: powers act only from the board; Death kept in an area at the end
    # does not make its holder lose.
    text = (
        "a1=citizen/reg b1=king/reg c1=queen/reg a2=hierophant/rel b2=cardinal/rel "
        "c2=saint/rel a3=minister/reg b3=castle/reg | general,death | bishop | - | reg"
    )
    state = play(position(text), "place general c3")
    assert state.is_terminal() and state.end_reason() == "board-full"
    assert state.allies() == (6, 3) and state.winner() == 0
    assert "death" in area(state, 0)
