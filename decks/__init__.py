"""What a deck is and whether it is legal: decks, formats, validation, decklists, events."""
