"""What a card is: games, sets, types, branches, rarities, cards and rulings."""
