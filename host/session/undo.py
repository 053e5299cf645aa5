"""Taking back the last move: a typed 'undo' first says whose move it would take back and
waits for 'yes', so that a player never takes back another's move unawares (a spoken 'undo'
is asked yes or no by voice control before it comes here)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from games.base import Action, Match
from host.session.wording import move_noun, takes_free_words

if TYPE_CHECKING:
    from host.session.session import Session

#: answers that mean yes to a question the host asked at the keyboard
YES = frozenset({"yes", "y"})


def ask(session: Session) -> None:
    """Say whose move 'yes' would take back, and wait for the answer."""
    match = session.match
    if not match.log:
        session.out.note("There is nothing to undo.")
        return
    last = match.log[-1]
    session.undo_asked = (last, len(match.log))
    brief = session.preferences.verbosity == "brief"
    session.out.note(f"Undo {named(session, last)}? Type yes." if brief else
                     f"Undo {named(session, last)}? Type yes to take it back, or anything else to keep it.")


def answered(session: Session, command: str) -> bool:
    """The line typed after 'undo' asked: 'yes' takes the move back, 'no' keeps it; any
    other line keeps it and is taken as itself. False when nothing more is to be done."""
    assert session.undo_asked is not None
    (asked, moves), session.undo_asked = session.undo_asked, None
    answer, log = command.casefold(), session.match.log
    if answer in YES and log[-1:] == [asked] and len(log) == moves:
        take_back(session)
        return False
    if answer in YES:  # a phone moved meanwhile: the last move is another now
        session.out.note("Nothing was undone: the last move has changed. Type undo again to hear which it is.")
        return False
    if answer.split()[0] != "undo":  # asked again, the question is asked again
        session.out.note("Nothing was undone.")
    return answer not in ("no", "n")


def take_back(session: Session) -> None:
    """Take back the last move, saying whose it is (typed, 'yes' came after the question;
    spoken, the voice asked yes or no first)."""
    match = session.match
    if not match.log:
        session.out.note("There is nothing to undo.")
        return
    said = named(session, match.log[-1])
    match.undo()
    session.store.drop_last(session.game_id, len(match.log))
    session.over_before = False
    session.out.shared([f"Taking back {said}.", session.state.status()])


def named(session: Session, action: Action) -> str:
    """A move as the table may hear it named: whose and what ("Bo's vote", "Marc's flip
    B3"), never a secret: a term or a vote stays unsaid."""
    match, state = session.match, session.state
    before = Match(match.make, match.log[:-1]).state if match.log[-1:] == [action] else state
    player = session.adapter.actor(before, action)
    public = len(action.args) == 1 and not takes_free_words(state.verbs[action.verb]) and not before.secret_input()
    what = move_noun(session.adapter.move_nouns, action.verb, action.args[0] if public else None)
    return f"{player}'s {what}" if player else f"the {what}"
