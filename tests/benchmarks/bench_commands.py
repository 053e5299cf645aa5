"""Benchmark of spoken commands: grid coordinates and the other phrases of each game, said by
every voice we have, decided as the host decides them now and as it did before, side by side.

    .venv/bin/python tests/benchmarks/bench_commands.py [--voices VOICE ...] [--only grid|phrases|none]

Voices: festival's slt and kal, Piper's neural joe, espeak-ng (en-us), and a real human voice,
Allison of Debian's asterisk-core-sounds-en-wav (telephone quality, 8 kHz; it has letters,
spelling-alphabet words and numbers, so it says the grid coordinates only, and its whole prompts
serve as speech that is no command). The decisions are built from general principles (how
alike phrases sound, whether the two recognizers agree, the rhyming letters), not tuned to these
voices; the figures of voices the host never sees may be lower.

Cases:
- grid: the 16 coordinates of the 4x4 Storytelling grid, "a one" to "d four", and the same with
  the spelling alphabet ("charlie one"), in the flip phase;
- phrases: one way of saying each other command of each game in realistic states (Storytelling,
  Three Little Pigs once the wolf blew, Cinderella deciding, Dixit in each phase, Stories!), the
  host's own commands once, and the seven answers to a question;
- none: story sentences (Allison: her prompts) against the flip and the Dixit vote grammars.

Decisions, per utterance, as a player meets them: taken at once (right or WRONG), asked about
first (the right line or a wrong one), or dropped ("Sorry, I did not catch that"). "Right" is the
right line in the end, at once or after "yes". "What can I say" is answered at once: heard for
another phrase, it lists the phrases and does nothing, and counts as a wrong question. Deciders:
- grammar: PocketSphinx's closed grammar alone, its answer taken as said;
- old: the host before issue 19 (PocketSphinx's grammar, checked by its own language model's
  loose pass; the grammar's phrase always the one taken or asked about; SURE 0.85, ASK_BELOW 0.4);
- new: the host now, through the real default recognizer (`open_recognizer()`: PocketSphinx's
  grammar cuts the utterance, Whisper decodes it whole and weighs the phrases) and the real
  dialog (`host.voice.control.VoiceControl.hear`, which `storyhost transcribe --phrases` shares).
  before Whisper weighed the phrases (its free words chose, PocketSphinx's grammar checked;
  measured 2026-12-02 at 57ba924), grid coordinates right: slt 100 %, kal 93.8, joe 93.8,
  espeak 87.5, Allison 100; other phrases: slt 93.3 %, kal 90.7, joe 94.7, espeak 81.3; story
  sentences asked about: none; before a phrase both grammars heard was asked about however its
  free words came out (measured 2026-12-04 at 8e5eae6), other phrases right: slt 97.3 %, kal 96.0,
  joe 93.3, espeak 96.0 (grid and story sentences as now);
- new, pocketsphinx: the host now with `--asr pocketsphinx` (its language model makes the loose
  pass), the same hypotheses as "old".
Audio is cached in /tmp/storyhost-bench-commands. About 2 s of recognition per utterance on two
busy cores: all voices take about half an hour.
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from rapidfuzz import fuzz, process

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.base import Action, GameState, TermRefusal  # noqa: E402
from games.language import _  # noqa: E402
from games.decks import OpeningCard  # noqa: E402
from games.dixit import DixitState  # noqa: E402
from games.stories import StoriesState  # noqa: E402
from host.adapters.base import adapter_for  # noqa: E402
from host.cli.catalog import make  # noqa: E402
from host.speech.pocketsphinx_recognizer import PocketSphinxRecognizer  # noqa: E402
from host.speech.recognizer import Hypothesis, Recognizer  # noqa: E402
from host.speech.registry import open_recognizer  # noqa: E402
from host.storage.decks import load_tale  # noqa: E402
from host.voice.control import Question, VoiceControl  # noqa: E402
from host.voice.phrases import Names, Phrase, host_lines  # noqa: E402
from nlp.commands import BY_GRAMMAR, BY_WHISPERS_GRAMMAR, SPELLING_ALPHABET, Deciding, alike, no_words, number_words, spoken, yes_words  # noqa: E402
from nlp.ticks import HeardWord  # noqa: E402
from tests.speech.audio import finals, read_pcm, seconds, stream, synthesize  # noqa: E402
from tests.voice import recordings  # noqa: E402

VOICES = ("slt", "kal", "joe", "espeak:en-us", recordings.VOICE)
CACHE = Path(tempfile.gettempdir()) / "storyhost-bench-commands"
#: names PocketSphinx's dictionary has (Julián, Tomás, Matilde are not all in it)
PLAYERS = ("Nina", "Leo", "Marc", "Sabine")
NAMES = Names({player: player.lower() for player in PLAYERS})
YES_NO = "yes or no"
#: story-like sentences that are no commands (invented, plus Storytelling card openings below)
STORY = (
    "and then the little girl ran all the way back to the village",
    "nobody believed him when he said he had seen a dragon",
    "she opened the door very slowly and looked inside",
    "the old man laughed and gave the boy three gold coins",
    "it was raining so hard that the river flooded the fields",
    "I think the card with the boat is the storyteller's",
    "wait let me think about that for a moment",
    "who wants another cup of tea",
)


# --- the game states ----------------------------------------------------------------------------

def storytelling(tale: str, advanced: bool, seed: int = 1, players: Sequence[str] = PLAYERS[:2]) -> GameState:
    settings = {
        "players": list(players), "seed": seed, "tale": asdict(load_tale(tale)), "advanced": advanced,
        "clock_steps": 12, "track_length": 16, "storyteller": "host",
    }
    return make("storytelling", settings)()


def flip_until(tale: str, phase: str) -> GameState:
    """Random flips (never 'read') from seed to seed until the advanced game reaches `phase`."""
    for seed in range(1, 200):
        state, rng = storytelling(tale, True, seed), random.Random(seed)
        for _ in range(40):
            if state.phase == phase:
                return state
            flips = [c.action for c in state.legal_actions() if c.action.verb == "flip"]
            if not flips:
                break
            state.apply(rng.choice(flips))
    raise RuntimeError(f"{tale}: no '{phase}' phase reached")


def play(state: GameState, *lines: str) -> GameState:
    for line in lines:
        state.apply(state.parse(line))
    return state


class PlainTermRules:
    """Stands in for the term referee (as in tests/games/test_stories.py): any term but the card's words."""

    refused_words = frozenset()

    def refusal(self, term: str, card_text: str, written: Sequence[str]) -> TermRefusal | None:
        return None if term.strip() and term not in written else TermRefusal("Write another term.", "Write another term.")

    def same(self, a: str, b: str) -> bool:
        return a.casefold() == b.casefold()


def stories() -> StoriesState:
    card = OpeningCard("When I was in the Arctic recently...", "My grandmother keeps a crocodile in the bath.")
    return StoriesState(PLAYERS, [card] * 8, 1, PlainTermRules(), timer_seconds=60)


TERMS = ("snow", "seal", "igloo", "sled", "penguin")


def states() -> list[tuple[str, GameState]]:
    out: list[tuple[str, GameState]] = [
        ("storytelling 4x4 flip", storytelling("saint-george", False)),
        ("three pigs blow", flip_until("three-pigs", "blow")),
        ("cinderella decide", flip_until("cinderella", "decide")),
        ("race 2x8 flip", storytelling("hare-tortoise", True)),
    ]
    dixit = DixitState(PLAYERS)
    out.append(("dixit storyteller", dixit))
    dixit = play(DixitState(PLAYERS), "storyteller Nina", "clue a long journey")
    out.append(("dixit shown", dixit))
    out.append(("dixit vote", play(DixitState(PLAYERS), "storyteller Nina", "clue a long journey", "shown")))
    out.append(("dixit card", voted()))
    out.append(("dixit owner", play(voted(), "card 2")))
    side = stories()
    out.append(("stories side", side))
    writers = [player for player in PLAYERS if player != side.storyteller]
    writing = play(stories(), f"side {side.storyteller} normal", *(f"term {player} {TERMS[0]}" for player in writers))
    out.append(("stories writing", writing))
    review = play(
        stories(), f"side {side.storyteller} normal",
        *(f"term {player} {term}" for player in writers for term in TERMS),
        "start", f"tick {writers[0]} snow", f"tick {writers[1]} seal", "timeup",
    )
    out.append(("stories review", review))
    return out


def voted() -> GameState:
    """Dixit after every vote: Leo and Sabine for card 2, Marc for card 3."""
    return play(DixitState(PLAYERS), "storyteller Nina", "clue a long journey", "shown",
                "vote Leo 2", "vote Marc 3", "vote Sabine 2")


# --- the cases --------------------------------------------------------------------------------

#: with the host as storyteller (the default) 'read NUMBER' is not offered by voice
HOST_STORYTELLER = frozenset({"read"})
QUESTION = Question("flip bravo three", Action("flip", None, ("B3",)))


@dataclass
class Case:
    kind: str  # grid, phrases, none
    label: str  # the state
    state: GameState
    words: str  # what is said
    line: str | None  # the command it means (None: no command)
    without: frozenset[str] = HOST_STORYTELLER
    answering: bool = False  # said while QUESTION waits for yes or no
    #: the human voice's recording of `words`, when it is one
    recording: Callable[[Path], bytes] | None = None
    #: the table's language (tests/benchmarks/bench_commands_languages.py); `words` are then said as `text`
    language: str = "en"
    names: Names = NAMES

    def control(self, say: Callable[[str], None], deciding: Deciding = BY_WHISPERS_GRAMMAR) -> VoiceControl:
        control = VoiceControl(self.names, say, adapter_for(self.state.game), without=self.without,
                               deciding=deciding, language=self.language)
        if self.answering:
            control.question = QUESTION
        return control

    def grammar(self) -> list[str]:
        grammar = self.control(lambda _: None).grammar(self.state)
        assert grammar is not None, self.label
        return grammar

    def meanings(self) -> dict[str, str]:
        """Each phrase listened for -> its line (an answer: "yes" or "no")."""
        control = self.control(lambda _: None)
        answers = {words: "yes" if words in yes_words() else "no" for words in (*yes_words(), *no_words())} if self.answering else {}
        return control._listened(self.state, prefixed=True) | answers

    def audio(self, voice: str) -> bytes:
        if voice == recordings.VOICE:
            assert self.recording is not None
            return self.recording(CACHE)
        return read_pcm(synthesize(self.words, CACHE, voice))


def grid_cases() -> list[Case]:
    state = storytelling("saint-george", False)
    out = []
    for letter in "abcd":
        for number in range(1, 5):
            line = f"flip {letter.upper()}{number}"
            for alphabet in (False, True):
                words = f"{SPELLING_ALPHABET[letter] if alphabet else letter} {number_words(number)}"
                recording = (lambda folder, l=letter, n=number, a=alphabet: recordings.position(l, n, folder, a))
                out.append(Case("grid", "storytelling 4x4 flip", state, words, line, recording=recording))
    return out


def phrase_cases() -> list[Case]:
    """One way of saying each command of each state but the flips (the first the game offers),
    the host's commands once, the answers to a question."""
    out: list[Case] = []
    seen: set[str] = set()
    for label, state in states():
        control = VoiceControl(NAMES, lambda _: None, adapter_for(state.game), without=HOST_STORYTELLER)
        for phrase in control._phrases(state):
            host = phrase.line in host_lines(adapter_for(state.game))
            key = phrase.line if host else f"{label}: {phrase.line}"
            if phrase.line.startswith("flip ") or key in seen:
                continue
            seen.add(key)
            out.append(Case("phrases", "host commands" if host else label, state, phrase.words, phrase.line))
    asked = storytelling("saint-george", False)
    out += [Case("phrases", YES_NO, asked, words, "yes" if words in yes_words() else "no", answering=True)
            for words in (*yes_words(), *no_words())]
    return out


def no_command_cases(voice: str) -> list[Case]:
    grammars = [("storytelling 4x4 flip", storytelling("saint-george", False)),
                ("dixit vote", play(DixitState(PLAYERS), "storyteller Nina", "clue a long journey", "shown"))]
    if voice == recordings.VOICE:
        said = [(name.replace("-", " "), lambda folder, n=name: recordings.prompt(n, folder)) for name in recordings.PROMPTS]
    else:
        said = [(sentence, None) for sentence in story_sentences()]
    return [Case("none", label, state, words, None, recording=recording) for label, state in grammars for words, recording in said]


def story_sentences() -> list[str]:
    openings = [load_tale(key).cards[0].text.split(". ")[0] for key in ("saint-george", "three-pigs", "cinderella")]
    return [*STORY, *openings]


# --- deciding -----------------------------------------------------------------------------------

OUTCOMES = ("taken right", "taken WRONG", "asked right", "asked right after no", "asked wrong", "dropped")
#: the outcomes where the command said is carried out in the end
RIGHT = ("taken right", "asked right", "asked right after no")


@dataclass
class Decided:
    outcome: str  # one of OUTCOMES
    line: str | None
    heard: str  # what the recognizers heard, for the failures' list


def outcome(case: Case, taken: bool | None, line: str | None) -> str:
    """taken: True at once, False asked first, None dropped."""
    if taken is None:
        return "dropped"
    right = line == case.line and case.line is not None
    return ("taken " if taken else "asked ") + ("right" if right else "WRONG" if taken else "wrong")


def decide_new(case: Case, heard: Sequence[Hypothesis], deciding: Deciding = BY_WHISPERS_GRAMMAR) -> Decided:
    """What the host's dialog does with the final hypotheses of one utterance."""
    said: list[str] = []
    control = case.control(said.append, deciding)
    shown = " | ".join(f"{h.text!r}/{h.loose!r}" for h in heard)
    for hypothesis in heard:
        commands = [str(command) for command in control.hear(case.state, hypothesis)]
        if case.answering and control.question is None:  # answered, or another command said instead
            line = "yes" if commands == [str(QUESTION.command)] else commands[0] if commands else "no"
            return Decided(outcome(case, True, line), line, shown)
        if case.answering and control.question is QUESTION:
            continue  # asked again
        if commands:
            return Decided(outcome(case, True, commands[0]), commands[0], shown)
        if said and said[-1].startswith(_("You can say: {phrases}.").split("{")[0]):  # no action: a wrong question
            return Decided("taken right" if case.line == "help" else "asked wrong", "help", shown)
        if control.dictating is not None:  # a dictation started: its line is what was meant
            return Decided(outcome(case, True, control.dictating.line), control.dictating.line, shown)
        if control.question is not None:
            line = asked_line(control.question)
            if line != case.line and control.question.instead is not None:
                # the player says no, and the host asks about the phrase that made it doubtful
                control.hear(case.state, Hypothesis((HeardWord(no_words()[0]),), True, loose=no_words()[0]))
                if control.question is not None and case.line is not None and asked_line(control.question) == case.line:
                    return Decided("asked right after no", case.line, shown)
            return Decided(outcome(case, False, line), line, shown)
    return Decided("dropped", None, shown)


def asked_line(question: Question) -> str | None:
    """The line a question would carry out on yes."""
    return str(question.command) if question.command else question.dictation.line if question.dictation else None


def decide_grammar(case: Case, heard: Sequence[Hypothesis]) -> Decided:
    """The closed grammar alone: its first answer is the command."""
    first = next((h for h in heard if h.text), None)
    meanings = {spoken(words): line for words, line in case.meanings().items()}
    line = None if first is None else meanings.get(spoken(first.text))
    return Decided(outcome(case, True if line else None, line), line, "" if first is None else first.text)


#: the host's decision before issue 19 (nlp/commands.py then), the baseline
OLD_SURE, OLD_ASK_BELOW, OLD_MARGIN = 0.85, 0.4, 0.05


def old_understand(grammar: str, loose: str | None, meanings: Mapping[str, str]) -> tuple[str, float] | None:
    allowed = {spoken(phrase): phrase for phrase in meanings}
    said = spoken(grammar)
    heard = spoken(loose) if loose is not None else said
    if not allowed or not said and not heard:
        return None
    if said not in allowed:
        said = process.extractOne(said or heard, list(allowed), scorer=fuzz.ratio)[0]
    agreement = {phrase: alike(heard, phrase) for phrase in allowed}
    meaning = meanings[allowed[said]]
    rival = max((a for p, a in agreement.items() if meanings[allowed[p]] != meaning), default=0.0)
    confidence = agreement[said] if agreement[said] - rival >= OLD_MARGIN else min(agreement[said], OLD_SURE - 0.01)
    return allowed[said], confidence


def decide_old(case: Case, heard: Sequence[Hypothesis], confirm: Iterable[str]) -> Decided:
    meanings = case.meanings()
    for hypothesis in heard:
        if not hypothesis.text:
            continue
        understood = old_understand(hypothesis.text, hypothesis.loose, meanings)
        if understood is None or understood[1] < OLD_ASK_BELOW:
            break
        line = meanings[understood[0]]
        taken = understood[1] >= OLD_SURE and line not in confirm
        return Decided(outcome(case, taken, line), line, f"{hypothesis.text!r}/{hypothesis.loose!r}")
    return Decided("dropped", None, " | ".join(f"{h.text!r}/{h.loose!r}" for h in heard))


def confirmed_lines(case: Case) -> set[str]:
    control = case.control(lambda _: None)
    return {phrase.line for phrase in control._phrases(case.state) if phrase.confirm}


# --- running --------------------------------------------------------------------------------------

@dataclass
class Result:
    case: Case
    voice: str
    decided: dict[str, Decided] = field(default_factory=dict)  # decider -> decision
    busy: float = 0.0  # seconds the new recognizer took
    audio: float = 0.0


def hear(recognizer: Recognizer, grammar: list[str], pcm: bytes) -> tuple[list[Hypothesis], float]:
    recognizer.set_phrases(grammar)
    recognizer.reset()
    start = time.perf_counter()
    heard = finals(stream(recognizer, pcm))
    return heard, time.perf_counter() - start


def run(cases: list[Case], voice: str, old: PocketSphinxRecognizer, new: Recognizer) -> list[Result]:
    results = []
    for i, case in enumerate(cases):
        pcm = case.audio(voice)
        grammar = case.grammar()
        result = Result(case, voice, audio=seconds(pcm))
        old_heard, _ = hear(old, grammar, pcm)
        new_heard, result.busy = hear(new, grammar, pcm)
        result.decided = {
            "grammar": decide_grammar(case, old_heard),
            "old": decide_old(case, old_heard, confirmed_lines(case)),
            "new": decide_new(case, new_heard),
            "new, pocketsphinx": decide_new(case, old_heard, BY_GRAMMAR),
        }
        results.append(result)
        print(f"[{voice} {case.kind} {i + 1}/{len(cases)}] {case.label}: {case.words!r} -> "
              + "; ".join(f"{name} {d.outcome} {d.line} ({d.heard})" for name, d in result.decided.items()), file=sys.stderr)
    return results


# --- reports ----------------------------------------------------------------------------------

DECIDERS = ("grammar", "old", "new", "new, pocketsphinx")


def pct(part: int, whole: int) -> str:
    return f"{part}/{whole} {part / whole:.0%}" if whole else "-"


def table(results: list[Result], voices: Sequence[str], kind: str) -> None:
    print(f"\n{kind}: right in the end (at once, after yes, or after no to another question and yes) / taken at "
          "once right / asked right (+ after no) / taken WRONG / asked wrong / dropped")
    print("| voice | n | " + " | ".join(DECIDERS) + " |\n|---|---|" + "---|" * len(DECIDERS))
    for voice in voices:
        group = [r for r in results if r.voice == voice and r.case.kind == kind]
        if not group:
            continue
        cells = []
        for decider in DECIDERS:
            count = Counter(r.decided[decider].outcome for r in group)
            right = sum(count[outcome] for outcome in RIGHT)
            cells.append(f"**{right / len(group):.1%}** ({count['taken right']} / {count['asked right']} "
                         f"+ {count['asked right after no']} / "
                         f"{count['taken WRONG']} / {count['asked wrong']} / {count['dropped']})")
        print(f"| {voice} | {len(group)} | " + " | ".join(cells) + " |")


def none_table(results: list[Result], voices: Sequence[str]) -> None:
    print("\nno command (story sentences; Allison's prompts): taken as a command / asked about / dropped")
    print("| voice | n | " + " | ".join(DECIDERS) + " |\n|---|---|" + "---|" * len(DECIDERS))
    for voice in voices:
        group = [r for r in results if r.voice == voice and r.case.kind == "none"]
        if not group:
            continue
        cells = []
        for decider in DECIDERS:
            count = Counter(r.decided[decider].outcome.split()[0] for r in group)
            cells.append(f"{count['taken']} / {count['asked']} / {count['dropped']}")
        print(f"| {voice} | {len(group)} | " + " | ".join(cells) + " |")


def failures(results: list[Result]) -> None:
    print("\nThe new decision's failures (commands not right in the end; no-commands taken or asked):")
    for r in results:
        decided = r.decided["new"]
        bad = decided.outcome not in RIGHT if r.case.kind != "none" else decided.outcome != "dropped"
        if bad:
            print(f"  {r.voice:12} {r.case.label}: {r.case.words!r} -> {decided.outcome} {decided.line!r}; heard {decided.heard}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--voices", nargs="+", default=list(VOICES), help=f"default: {' '.join(VOICES)}")
    parser.add_argument("--only", nargs="+", choices=("grid", "phrases", "none"), default=["grid", "phrases", "none"])
    options = parser.parse_args()
    CACHE.mkdir(exist_ok=True)
    voices = [v for v in options.voices if v != recordings.VOICE or recordings.available()]
    if len(voices) < len(options.voices):
        print("Allison's recordings are missing: apt-get install asterisk-core-sounds-en-wav")
    old, new = PocketSphinxRecognizer(), open_recognizer()
    results: list[Result] = []
    for voice in voices:
        cases = [*(grid_cases() if "grid" in options.only else []),
                 *(phrase_cases() if "phrases" in options.only and voice != recordings.VOICE else []),
                 *(no_command_cases(voice) if "none" in options.only else [])]
        results += run(cases, voice, old, new)
    for kind in ("grid", "phrases"):
        if kind in options.only:
            table(results, voices, kind)
    if "none" in options.only:
        none_table(results, voices)
    commands = [r for r in results if r.case.kind != "none"]
    busy, audio = sum(r.busy for r in commands), sum(r.audio for r in commands)
    if commands:
        print(f"\nnew recognizer: {busy / len(commands):.2f} s per command for {audio / len(commands):.2f} s of audio "
              f"(real-time factor {busy / audio:.2f})")
    failures(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
