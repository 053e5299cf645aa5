"""Voice control: the phrases the players can say now, spoken commands, players' names as the recognizer hears them."""
