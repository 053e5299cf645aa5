"""The companion: each player's phone as their private screen, and a table screen, served
offline from the laptop (`storyhost play ... --companion`).

The web server runs in a thread of its own with its own event loop and never touches the game:
a phone's command is put on the session's input as a `PlayerLine`, played by the session like a
typed line (same `Session.handle`, same saved log), and the session hands every screen what it
may show (`screens`) after each input.
"""
