"""What the microphone listens for as the game goes on, and where what it hears goes: a story
or a card read aloud to the listener attending (`host.adapters.listening`), else spoken
commands to voice control; and what the table hears when the microphone is lost or back."""
from __future__ import annotations

from typing import TYPE_CHECKING

from games.base import fold_name
from games.language import _
from host.session.events import Heard
from host.session.inputs import Listening

if TYPE_CHECKING:
    from host.session.session import Session


def follow_phase(session: Session) -> None:
    """Start or stop what depends on the phase: the listeners' clocks, the microphone, hidden
    typing. With voice control the microphone stays open all game: free speech for a story,
    a card read aloud or a dictation, else the phrases allowed now; without it, only for a story."""
    session.source.secret(session.state.secret_input())
    hide_after = getattr(session.source, "hide_after", None)  # a source that shows what is typed
    if hide_after is not None:  # each command by its name and by its word in the table's language
        secret = session.state.secret_words()
        hide_after(frozenset({*secret, *(fold_name(session.state.verbs[name].said) for name in secret)}))
    attention = session.attention()
    telling = attention is not None and attention.story
    session.out.quiet = telling
    for listener in session.listeners:
        listener.follow(session.state)
    context = attention.context if attention is not None and telling else None
    if session.voice is None:
        session.source.listen(Listening(None, story=True, context=context) if telling else None)
        return
    free = attention is not None and (telling or session.voice.question is None)  # a question goes before a reading
    grammar = None if free or session.state.is_over() else session.voice.grammar(session.state)
    session.source.listen(Listening(None if grammar is None else tuple(grammar), story=telling, context=context))


def hear(session: Session, heard: Heard) -> bool:
    """Speech from the microphone: a story or a card read aloud (its listener hears it), or
    spoken commands; False when they stop the session. What is said is public: each
    finished utterance is printed as heard (a command as free recognition wrote it down,
    which decides it, not the grammar's guess)."""
    hypothesis = heard.hypothesis
    said = hypothesis.text if hypothesis.loose is None else hypothesis.loose
    if hypothesis.final and said and not hypothesis.confirmed:
        session.out.write(_("Heard: {said}").format(said=said))
    attending = session.attending()
    if attending is not None and attending[1].story or hypothesis.confirmed:  # a confirmation is the story's
        return _hear_story(session, heard)
    if session.voice is None or not hypothesis.final:
        return True
    if attending is None or session.voice.question is not None:
        commands = session.voice.hear(session.state, hypothesis)
    elif session.voice.is_aside(session.state, hypothesis):  # "host, read card five"
        commands = session.voice.aside(session.state, hypothesis)
    else:
        commands = []
        session.respond(attending[0].hear(session.state, heard))
    go_on = session.perform_all(commands)
    follow_phase(session)
    return go_on


def _hear_story(session: Session, heard: Heard) -> bool:
    """The story told: the listeners hear it; a command needs the prefix word ("host, time left")."""
    hypothesis = heard.hypothesis
    if (session.voice is not None and hypothesis.final and not hypothesis.confirmed
            and not session.perform_all(session.voice.aside(session.state, hypothesis))):
        return False
    for listener in session.listeners:
        session.respond(listener.hear(session.state, heard))
    return True


def lost_or_back(session: Session, reason: str | None) -> None:
    """The microphone was lost (`reason`) or is back (None): the listeners' clocks wait for it."""
    said = [line for line in [listener.microphone(reason is None) for listener in session.listeners] if line]
    if reason is None:
        session.out.shared([said[0] if said else _("The microphone is back.")])
        return
    session.out.quiet = False
    session.out.shared([f"{reason} {said[0]}" if said else _("{reason} Commands can still be typed.").format(reason=reason)])
