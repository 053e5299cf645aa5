"""The game session: inputs in, announcements out; what the table sees and hears of a game."""
