"""Voice control: the phrases the players can say now, spoken commands (answered as game actions
or host requests, never as text to parse), players' names as the recognizer hears them."""
