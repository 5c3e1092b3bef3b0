"""Live tables between people: play a friend (docs/play.md "Play a friend")."""
