"""What storyhost keeps on disk: saved games, preferences, decks, and reading the files a player names."""
