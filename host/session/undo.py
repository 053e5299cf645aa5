"""Taking back the last move: a typed 'undo' first says whose move it would take back and
waits for 'yes', so that a player never takes back another's move unawares (a spoken 'undo'
is asked yes or no by voice control before it comes here)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from games.base import Action, Match, fold_name
from games.language import _, p_
from host.commands import command_named
from host.session.wording import move_noun, takes_free_words

if TYPE_CHECKING:
    from host.session.session import Session


def _answers(english: str, local: str) -> frozenset[str]:
    """An answer to a question asked at the keyboard, as it may be typed: the word and its first
    letter, in English and in the table's language, without case or accents ('sí', 'si', 's')."""
    return frozenset(word for said in (english, fold_name(local)) for word in (said, said[:1]))


def means_yes(answer: str) -> bool:
    """Whether a typed answer means yes ('yes', 'y', and the table's word for it)."""
    return fold_name(answer) in _answers("yes", p_("answer", "yes"))


def means_no(answer: str) -> bool:
    """Whether a typed answer means no ('no', 'n', and the table's word for it)."""
    return fold_name(answer) in _answers("no", p_("answer", "no"))


def ask(session: Session) -> None:
    """Say whose move 'yes' would take back, and wait for the answer."""
    match = session.match
    if not match.log:
        session.out.note(_("There is nothing to undo."))
        return
    last = match.log[-1]
    session.undo_asked = (last, len(match.log))
    brief = session.preferences.verbosity == "brief"
    question = (_("Undo {move}? Type yes.") if brief else
                _("Undo {move}? Type yes to take it back, or anything else to keep it."))
    session.out.note(question.format(move=named(session, last)))


def answered(session: Session, command: str) -> bool:
    """The line typed after 'undo' asked: 'yes' takes the move back, 'no' keeps it; any
    other line keeps it and is taken as itself. False when nothing more is to be done."""
    assert session.undo_asked is not None
    (asked, moves), session.undo_asked = session.undo_asked, None
    log = session.match.log
    if means_yes(command) and log[-1:] == [asked] and len(log) == moves:
        take_back(session)
        return False
    if means_yes(command):  # a phone moved meanwhile: the last move is another now
        session.out.note(_("Nothing was undone: the last move has changed. Type undo again to hear which it is."))
        return False
    if command_named(command.split()[0]) != "undo":  # asked again, the question is asked again
        session.out.note(_("Nothing was undone."))
    return not means_no(command)


def take_back(session: Session) -> None:
    """Take back the last move, saying whose it is (typed, 'yes' came after the question;
    spoken, the voice asked yes or no first)."""
    match = session.match
    if not match.log:
        session.out.note(_("There is nothing to undo."))
        return
    said = named(session, match.log[-1])
    match.undo()
    session.store.drop_last(session.game_id, len(match.log))
    session.over_before = False
    session.out.shared([_("Taking back {move}.").format(move=said), session.state.status()])


def named(session: Session, action: Action) -> str:
    """A move as the table may hear it named: whose and what ("Bo's vote", "Marc's flip
    B3"), never a secret: a term or a vote stays unsaid."""
    match, state = session.match, session.state
    before = Match(match.make, match.log[:-1]).state if match.log[-1:] == [action] else state
    player = session.adapter.actor(before, action)
    public = len(action.args) == 1 and not takes_free_words(state.verbs[action.verb]) and not before.secret_input()
    what = move_noun(session.adapter.move_nouns, action.verb, action.args[0] if public else None)
    return _("{player}'s {move}").format(player=player, move=what) if player else _("the {move}").format(move=what)
