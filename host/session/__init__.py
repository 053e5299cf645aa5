"""The game session: inputs in, announcements out; what the table sees and hears of a game.

Every input source yields typed events (`events`: a typed line, a phone's move, heard speech, the
microphone lost or back, a clock wake, the end of input) and `Session.run` handles them in one
`match`; a `SessionConfig` (`config`) says what the session plays and which capabilities it has
(the game adapter's listeners, voice control, the players' phones).
"""
