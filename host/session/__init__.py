"""The game session: inputs in, announcements out; what the table sees and hears of a game.

Every input source yields typed events (`events`: a typed line, a phone's line, heard speech, the microphone
lost or back, a clock wake, the end of input) and `Session.run` handles them in one `match`;
a `SessionConfig` says what the session plays and which capabilities it has (story clock, the
referee's ears, voice control, a card read aloud, the players' phones).
"""
