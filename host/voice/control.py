"""Spoken commands: what the recognizer heard becomes commands for the session.

The session asks `grammar()` what to listen for (the phrases allowed now, or None for free
speech while a clue or term is dictated), and gives every final hypothesis to `hear()`, which
answers with the commands to carry out: actions of the game, or requests of the host
(`HostRequest`). Between the two sits the dialog a table expects:

- a phrase heard with confidence below `nlp.commands.SURE` (`nlp.commands.understand` decides,
  as for `storyhost transcribe --phrases`), or one whose action cannot be taken back, is asked
  about first ("Did you say ...? Say yes or no.", a letter said with the spelling alphabet:
  "flip bravo three") and runs only on "yes"; on "no", the phrase of another meaning that made
  it doubtful, when there is one ("flip delta three", which rhymes), is asked about in turn, once;
- speech that is no phrase gets a short reprompt, never an action;
- "what can I say" lists the phrases of the moment, one example per command;
- with a prefix word ("host"), a phrase counts only when it starts with that word, so talk at
  the table is not taken for commands.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Union

from games.base import Action, GameState, IllegalAction, join_either
from host.speech.recognizer import Hypothesis
from games.language import _, p_
from host.voice.phrases import SLOT, GameVoice, Names, Phrase, host_lines, phrases
from nlp.commands import BY_GRAMMAR, Deciding, alike, no_words, spelled, spoken, understand, yes_words
from nlp.ticks import HeardWord

#: the host command whose phrases ("what can I say") are answered here, with the phrases of the moment
HELP = "help"
#: how alike by sound the first words of free speech must be to the prefix word to stand for it
#: (festival's "host" heard as "hester" 0.6, "has to" 0.6, "past" 0.5; "the" 0.29)
PREFIX_ALIKE = 0.5


@dataclass(frozen=True)
class HostRequest:
    """A command of the host rather than of the game: its name and what follows ('rate', 'faster')."""

    name: str
    rest: str = ""

    def __str__(self) -> str:
        return f"{self.name} {self.rest}".strip()


#: what the players asked for by voice
Command = Union[Action, HostRequest]


@dataclass(frozen=True)
class Question:
    """Something waiting for yes or no: a command to carry out, or a dictation to start."""

    asked: str
    command: Command | None = None
    dictation: Phrase | None = None
    #: `asked` is the whole question with its question marks (a language may open one too: "¿"),
    #: not a phrase heard ("Did you say: ...")
    plain: bool = False
    #: asked about in turn on "no": the phrase of another meaning that made the question doubtful
    instead: Phrase | None = None


class VoiceControl:
    def __init__(
        self,
        names: Names,
        say: Callable[[str], None],
        game: GameVoice,
        prefix: str | None = None,
        brief: Callable[[], bool] = lambda: False,
        without: frozenset[str] = frozenset(),
        deciding: Deciding = BY_GRAMMAR,
        language: str = "en",
    ) -> None:
        """`say` speaks and prints a reply; `game` says the game's moves and may rewrite a
        dictated line before it is asked about (a tick's words to the player's own term);
        `brief` tells whether replies should be short; the game's commands in `without` are
        not offered by voice (a Storytelling card is chosen by reading it only when a person is
        the storyteller); `deciding`: how the recognizer's passes decide a command (see
        `nlp.commands.Deciding`); `language`: the table's, in which the phrases and
        answers are heard (the sentences said are in the catalog's)."""
        self.without, self.deciding, self.language = without, deciding, language
        self.names, self.say, self.game, self.prefix, self.brief = names, say, game, prefix, brief
        self.host_lines = host_lines(game)
        self.question: Question | None = None
        self.dictating: Phrase | None = None
        self._unclear = 0  # answers in a row that were not yes or no

    def grammar(self, state: GameState) -> list[str] | None:
        if self.dictating is not None or self._sole_dictation(state) is not None:
            return None
        commands = [self._prefixed(phrase.words) for phrase in self._phrases(state)]
        if self.question is not None:  # another command instead of yes or no is heard too
            answers = (*yes_words(), *no_words())
            return [*answers, *(words for words in commands if words not in answers)]
        return commands

    def _phrases(self, state: GameState) -> list[Phrase]:
        return [phrase for phrase in phrases(state, self.names, self.game, self.language)
                if phrase.line.split()[0] not in self.without]

    def _listened(self, state: GameState, prefixed: bool) -> dict[str, str]:
        """Each phrase of the moment as it is heard (with the prefix word when `prefixed`) ->
        its command line: what `understand` weighs a hypothesis against."""
        return {(self._prefixed(phrase.words) if prefixed else phrase.words): phrase.line
                for phrase in self._phrases(state)}

    def _prefixed(self, words: str) -> str:
        return f"{self.prefix} {words}" if self.prefix else words

    def _unprefixed(self, words: str) -> str:
        return words[len(self.prefix) + 1:] if self.prefix and words.startswith(self.prefix + " ") else words

    def cancel(self) -> None:
        """Forget a question or dictation in progress (the game moved on without it)."""
        self.question = self.dictating = None

    def aside(self, state: GameState, heard: Hypothesis) -> list[Command]:
        """Free speech (a story being told) is a command only after the prefix word (the table's
        word for "host" when none was chosen): "host, time left", "anfitrión, reloj"."""
        rest = self._after_prefix(state, heard)
        if rest is None:
            return []
        return self.hear(state, Hypothesis(rest, True, loose=" ".join(w.text for w in rest)), prefixed=False)

    def is_aside(self, state: GameState, heard: Hypothesis) -> bool:
        """Free speech that starts with the prefix word: a command, not a story or a reading."""
        return self._after_prefix(state, heard) is not None

    def _after_prefix(self, state: GameState, heard: Hypothesis) -> tuple[HeardWord, ...] | None:
        """The words after the prefix word, if free speech starts with it. Free recognition
        seldom hears "host" as such ("hester end card one", "has to read part one"): first
        words that sound like it count when the rest is surely a phrase of the moment."""
        words, prefix = heard.words, self.prefix or spoken(p_("address", "host"))
        if len(words) > 1 and spoken(words[0].text) == prefix:  # Whisper writes "Host,"
            return words[1:]
        for size in (1, 2):
            head, rest = " ".join(w.text for w in words[:size]), " ".join(w.text for w in words[size:])
            if rest and alike(spoken(head), prefix, self.language) >= PREFIX_ALIKE:
                understood = understand(rest, rest, self._listened(state, prefixed=False), language=self.language)
                if understood is not None and understood.sure:
                    return words[size:]
        return None

    def _sole_dictation(self, state: GameState) -> Phrase | None:
        """When the game waits only for free words (a Dixit clue), whatever is said is them:
        host commands then need the prefix word, as during a story."""
        if self.question is not None:
            return None
        game = [phrase for phrase in self._phrases(state) if phrase.line not in self.host_lines]
        dictations = {phrase.dictation for phrase in game}
        return game[0] if len(dictations) == 1 and None not in dictations else None

    def hear(self, state: GameState, heard: Hypothesis, prefixed: bool = True) -> list[Command]:
        """The commands a final hypothesis asks for (often none: a question was asked).
        `prefixed`: the phrases were listened for with the prefix word."""
        if self.question is not None:
            return self._answered(state, heard, prefixed)
        sole = self._sole_dictation(state) if prefixed else None
        if sole is not None and self.dictating is None:
            return self.aside(state, heard) if self.is_aside(state, heard) else self._dictate(state, sole, _free(heard))
        if self.dictating is not None:
            return self._dictate(state, self.dictating, _free(heard))
        if not heard.text and not heard.loose:
            return []
        allowed = {phrase.words: phrase for phrase in self._phrases(state)}
        understood = understand(heard.text, heard.loose, self._listened(state, prefixed), self.deciding, self.language,
                                heard.vouched)
        if understood is None or not (understood.sure or understood.doubtful):
            self.say(_("Sorry?") if self.brief() else
                     _("Sorry, I did not catch that. Say '{help}' to hear the commands.").format(help=_("what can i say")))
            return []
        phrase = allowed[self._unprefixed(understood.phrase) if prefixed else understood.phrase]
        if phrase.line == HELP:
            self._list(state)
            return []
        if phrase.dictation is not None:
            if understood.sure:
                return self._start_dictation(phrase)
            return self.ask(Question(spelled(phrase.words), dictation=phrase))
        commands = self._commands_of(state, phrase)
        if commands and (phrase.confirm or not understood.sure):
            instead = None if understood.instead is None else allowed.get(
                self._unprefixed(understood.instead) if prefixed else understood.instead)
            return self.ask(Question(spelled(phrase.words), commands[0], instead=instead))
        return commands

    def ask(self, question: Question) -> list[Command]:
        """Ask yes or no; the answer comes through `hear`."""
        self.question, self._unclear = question, 0
        if self.brief():
            self.say(question.asked if question.plain else _("{question}?").format(question=question.asked))
        elif question.plain:
            self.say(_("{question} Say yes or no.").format(question=question.asked))
        else:
            self.say(_("Did you say: {phrase}? Say yes or no.").format(phrase=question.asked))
        return []

    def _answered(self, state: GameState, heard: Hypothesis, prefixed: bool) -> list[Command]:
        """Yes or no; a command said instead, when sure, counts as no and is heard as itself
        (a player asked about table talk just goes on with the game)."""
        assert self.question is not None
        answers = {words: "no" for words in no_words()} | {words: "yes" for words in yes_words()}
        understood = understand(heard.text, heard.loose, self._listened(state, prefixed) | answers, self.deciding,
                                self.language, heard.vouched)
        if understood is not None and understood.sure and understood.phrase not in answers:
            self.question = None
            return self.hear(state, heard, prefixed)
        # an answer is taken when both passes heard it, or when the grammar's and a loose pass
        # that fits it less well (but fits it) do not contradict each other
        if (understood is None or understood.phrase not in answers
                or not understood.sure and not (understood.doubtful and understood.loose_fits
                                                and answers.get(spoken(heard.text)) == answers[understood.phrase])):
            self._unclear += 1
            if self._unclear >= 3:
                self.question = None
                self.say(_("Cancelled."))
            else:
                asked = self.question.asked
                self.say(_("Yes or no?") if self.brief() else
                         _("Please say yes or no: {question}").format(question=asked) if self.question.plain else
                         _("Please say yes or no: {question}?").format(question=asked))
            return []
        question, self.question = self.question, None
        if answers[understood.phrase] == "no":
            return self._ask_instead(state, question.instead)
        if question.dictation is not None:
            return self._start_dictation(question.dictation)
        return [] if question.command is None else [question.command]

    def _ask_instead(self, state: GameState, phrase: Phrase | None) -> list[Command]:
        """After a "no": `phrase` (what else was likely said) asked about in turn, if it is a
        command; else the question is cancelled."""
        if phrase is not None and phrase.dictation is None and phrase.line != HELP:
            commands = self._commands_of(state, phrase)
            if commands:
                return self.ask(Question(spelled(phrase.words), commands[0]))
        self.say(_("Cancelled."))
        return []

    def _commands_of(self, state: GameState, phrase: Phrase) -> list[Command]:
        """The command a phrase with no free words says: its move, or its line read."""
        return [phrase.action] if phrase.action is not None else self._command(state, phrase.line)

    def _start_dictation(self, phrase: Phrase) -> list[Command]:
        self.dictating = phrase
        self.say(_("Go ahead.") if self.brief() else _("{phrase}: say it now.").format(phrase=phrase.words.capitalize()))
        return []

    def _dictate(self, state: GameState, phrase: Phrase, text: str) -> list[Command]:
        """The free words of a dictation, asked about before they count; the full stop or comma a
        punctuating recognizer (Whisper) ends them with is no part of a term or clue."""
        assert phrase.dictation is not None
        verb = phrase.dictation.split()[0]
        ways = [way.words for way in self._phrases(state) if way.dictation == phrase.dictation]  # "la frase es"
        leads = (phrase.words, *ways, spoken(p_("verb", verb)), verb)
        text = text.strip().rstrip(".,;:!?…").strip()
        if spoken(text) in leads:  # the command's word alone: the words come next
            return self._start_dictation(phrase)
        text = _after(leads, text)
        if not text:
            return []
        line = phrase.dictation.replace(SLOT, text)
        self.dictating = None
        line = self.game.resolve(state, line)
        commands = self._command(state, line)
        if commands:
            self.question, self._unclear = Question(text, commands[0]), 0
            self.say(_("{question}?").format(question=text) if self.brief() else
                     _("I heard: {text}. Is that right? Say yes or no.").format(text=text))
        return []

    def _command(self, state: GameState, line: str) -> list[Command]:
        """The command a host command's line or a dictated line stands for (the dictated words are
        read once, here); a dictation the game cannot take is refused aloud, and nothing is done."""
        if line in self.host_lines:
            name, _space, rest = line.partition(" ")
            return [HostRequest(name, rest)]
        try:
            return [state.parse(line)]
        except IllegalAction as refusal:
            self.say(str(refusal))
            return []

    def _list(self, state: GameState) -> None:
        """One example per command, then the commands of any time."""
        examples: dict[str, str] = {}
        for phrase in self._phrases(state):
            examples.setdefault(phrase.line if phrase.line in self.host_lines else phrase.line.split()[0], phrase.words)
        spoken_list = join_either([self._prefixed(words) for words in examples.values()])
        self.say(_("You can say: {phrases}.").format(phrases=spoken_list))


def _after(leads: Iterable[str], text: str) -> str:
    """The dictated text without the words that lead to it (the phrase, the command's word in
    the table's language or in English): told "say 'clue' and your sentence", a player says
    "clue, where is happiness?" in one breath, and the clue is what follows."""
    said = text.split()
    for lead in leads:
        count = len(lead.split())
        if len(said) > count and spoken(" ".join(said[:count])) == lead:
            return " ".join(said[count:])
    return text


def _free(heard: Hypothesis) -> str:
    """The words of free speech, also when the utterance began while a grammar was listened for."""
    return heard.loose if heard.loose is not None else heard.text
