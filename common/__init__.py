"""Request helpers every app shares, below them all: it imports no other app of the project."""
