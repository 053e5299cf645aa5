"""The companion: each player's phone as their private screen, and a table screen, served
offline from the laptop (`storyhost play ... --companion`).

The web server runs in a thread of its own with its own event loop and never touches the game:
a phone's move is put on the session's input as a `PhoneCommand` carrying its player's seat,
which the session plays as the action that player's page offers (never read as a typed line; the
same saved log as every move), and the session hands every screen what it may show (`screens`)
after each input.
"""
