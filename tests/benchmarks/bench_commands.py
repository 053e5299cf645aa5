"""Benchmark of spoken commands: every phrase allowed in realistic game states, spoken by
synthetic voices (default espeak-ng en-us and festival slt; also festival kal and Piper's joe)
and recognized by PocketSphinx's closed grammar, its answer checked by a loose pass of free
recognition made by PocketSphinx's language model or by Whisper, side by side.

    .venv/bin/python tests/benchmarks/bench_commands.py [--voices VOICE ...] [--loose KIND ...] [--sweep]

States: Storytelling basic (4x4, flip phase), Three Little Pigs advanced once the wolf blew,
Cinderella advanced when retiring or staying is decided, the race (2x8), Dixit with four players
in each phase (storyteller, shown, vote, card, owner), Stories! (side choice, writing, review of
the ticks), the host's own phrases and yes or no to a question. Each phrase is streamed in 30 ms
chunks through a PocketSphinxRecognizer listening for all the phrases of its state (its final
hypothesis carries the grammar's answer and the loose pass), then goes through the real dialog
(`host.voice.control.VoiceControl.hear`), which takes it, asks about it or drops it. With
`--loose whisper` the same final hypotheses go through the dialog a second time with the loose
pass made by Whisper (faster-whisper tiny.en, a batch transcription of the utterance's audio)
instead; its recognition time is PocketSphinx's (grammar and loose pass) plus Whisper's.

Printed per voice and overall: grammar top-1 accuracy (the grammar's answer stands for the
intended command line), the dialog's decision (taken directly, right or WRONG; asked about;
dropped), effective accuracy (the right line in the end, directly or after "yes"), confidence
quantiles of right and wrong answers, and the recognition time per command. Then story sentences
that are no commands, against a Storytelling flip grammar and a Dixit vote grammar: how many
would be taken as a command. With --sweep the decisions are recomputed for other thresholds
(nlp.commands.SURE, ASK_BELOW) from the same hypotheses. All the phrases are used (no
sampling, unless --every N): about 6 minutes with cached audio, 12 the first time, for PocketSphinx
alone with two voices. Audio is cached in
/tmp/storyhost-bench-commands, so reruns only recognize.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.base import Action, GameState, TermRefusal  # noqa: E402
from games.decks import OpeningCard  # noqa: E402
from games.dixit import DixitState  # noqa: E402
from games.stories import StoriesState  # noqa: E402
from host.adapters.base import adapter_for  # noqa: E402
from host.cli.catalog import make  # noqa: E402
from host.storage.decks import load_tale  # noqa: E402
from host.speech.pocketsphinx_recognizer import PocketSphinxRecognizer  # noqa: E402
from host.speech.recognizer import Hypothesis  # noqa: E402
from host.voice.control import Question, VoiceControl  # noqa: E402
from host.adapters.base import adapter_for  # noqa: E402
from host.voice.phrases import NO, YES, Names, Phrase, host_lines, phrases  # noqa: E402
from nlp import commands  # noqa: E402
from nlp.commands import spoken, understand  # noqa: E402
from tests.speech.audio import RATE, finals, read_pcm, seconds, stream, synthesize, transcribe  # noqa: E402

VOICES = ("espeak:en-us", "slt")
LOOSE = ("pocketsphinx", "whisper")  # what makes the loose pass
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

@dataclass
class Case:
    state_label: str
    state: GameState
    phrase: Phrase
    grammar: list[str]  # the words listened for
    meanings: dict[str, str]  # each phrase of the grammar -> its command line
    without: frozenset[str] = frozenset()  # the game's commands not offered by voice
    answering: bool = False  # the answer to QUESTION, asked in `state`


@dataclass
class Result:
    case: Case
    voice: str
    heard: list[Hypothesis]
    busy: float  # seconds of recognition
    audio: float  # seconds of audio
    loose: str = "pocketsphinx"  # what made the loose pass
    grammar_right: bool = False
    understood_right: bool = False
    confidence: float | None = None
    decision: str = "dropped"  # direct, asked, dropped
    line: str | None = None  # the line taken or asked about
    #: the loose pass was nearer another phrase, or fit one of another meaning about as well:
    #: the confidence was capped below SURE
    capped: bool = False

    @property
    def right(self) -> bool:
        return self.line == self.case.phrase.line

    @property
    def kind(self) -> str:
        return outcome(self.decision, self.line, self.case.phrase.line)


KINDS = ("direct right", "direct WRONG", "help listed", "asked right", "asked wrong", "dropped")


def outcome(decision: str, line: str | None, intended: str) -> str:
    """One of KINDS. "what can i say" is answered even when doubtful: misheard, it lists the
    phrases and does nothing, so it is no wrong action."""
    if decision == "dropped":
        return "dropped"
    if line == intended:
        return f"{decision} right"
    if decision == "direct" and line == "help":
        return "help listed"
    return "direct WRONG" if decision == "direct" else "asked wrong"


#: with the host as storyteller (the default) 'read NUMBER' is not offered by voice (host/cli/main.py)
HOST_STORYTELLER = frozenset({"read"})


def offered(state: GameState, without: frozenset[str]) -> list[Phrase]:
    return [phrase for phrase in phrases(state, NAMES, adapter_for(state.game)) if phrase.line.split()[0] not in without]


def cases() -> list[Case]:
    out: list[Case] = []
    host_done: set[str] = set()
    for label, state in states():
        without = story_without(state)
        out += _cases(label, state, without, host_done)
    # 'read card N' is said when a person is the storyteller: then the flip grammar has them too
    human = storytelling("saint-george", False)
    out += [case for case in _cases("storytelling 4x4, human reads", human, frozenset(), host_done)
            if case.phrase.line.startswith("read ")]
    # while a question waits, the commands of the moment are listened for beside yes and no
    asked = storytelling("saint-george", False)
    commands = offered(asked, HOST_STORYTELLER)
    answers = [*YES, *NO]
    meanings = {phrase.words: phrase.line for phrase in commands} | {word: "yes" if word in YES else "no" for word in answers}
    grammar = [*answers, *(phrase.words for phrase in commands if phrase.words not in answers)]
    out += [Case(YES_NO, asked, Phrase(word, meanings[word]), grammar, meanings, HOST_STORYTELLER, answering=True)
            for word in answers]
    return out


def _cases(label: str, state: GameState, without: frozenset[str], host_done: set[str]) -> list[Case]:
    """A case for every phrase offered in `state`; each host phrase only the first time."""
    allowed = offered(state, without)
    grammar = [phrase.words for phrase in allowed]
    meanings = {phrase.words: phrase.line for phrase in allowed}
    out = []
    for phrase in allowed:
        if phrase.line in host_lines(adapter_for(state.game)):
            if phrase.words in host_done:
                continue
            host_done.add(phrase.words)
        out.append(Case(label, state, phrase, grammar, meanings, without))
    return out


# --- deciding as the dialog does ----------------------------------------------------------------

QUESTION = Question("flip b three", Action("flip", None, ("B3",)))


def decide(state: GameState, heard: Sequence[Hypothesis], without: frozenset[str] = frozenset(),
           answering: bool = False) -> tuple[str, str | None]:
    """What VoiceControl does with the final hypotheses of one spoken phrase: ("direct", line),
    ("asked", line) or ("dropped", None). `answering`: the phrase answers QUESTION; "yes" or
    "no" is then the line of an answer taken."""
    said: list[str] = []
    control = VoiceControl(NAMES, said.append, adapter_for(state.game), without=without)
    if answering:
        control.question = QUESTION
    for hypothesis in heard:
        out = [str(command) for command in control.hear(state, hypothesis)]  # a command as typed: its phrase's line
        if answering and control.question is None:  # answered, or a command said instead
            return "direct", "yes" if out == [str(QUESTION.command)] else out[0] if out else "no"
        if answering and control.question is QUESTION:
            continue  # asked again
        if out:
            return "direct", out[0]
        if said and said[-1].startswith("You can say"):  # "what can i say" is answered at once
            return "direct", "help"
        if control.dictating is not None:  # a dictation started: the next words fill the line
            return "direct", control.dictating.line
        if control.question is not None:
            question = control.question
            return "asked", str(question.command) if question.command else question.dictation.line if question.dictation else None
    return "dropped", None


def judge(result: Result) -> None:
    case = result.case
    by_words = {spoken(words): words for words in case.grammar}
    first = next((h for h in result.heard if h.text), None)
    if first is not None:
        grammar_words = by_words.get(spoken(first.text))
        result.grammar_right = grammar_words is not None and case.meanings[grammar_words] == case.phrase.line
        understood = understand(first.text, first.loose, case.meanings)
        if understood is not None:
            result.confidence = understood.confidence
            result.understood_right = case.meanings[understood.phrase] == case.phrase.line
            heard = spoken(first.loose if first.loose is not None else first.text)
            result.capped = understood.confidence < commands.alike(heard, spoken(understood.phrase)) - 1e-9
    result.decision, result.line = decide(case.state, result.heard, case.without, case.answering)


def recognize(recognizer: PocketSphinxRecognizer, pcm: bytes, looses: Sequence[str]) -> dict[str, tuple[list[Hypothesis], float]]:
    """The final hypotheses of `pcm` and the seconds they took, with the loose pass of each kind."""
    recognizer.reset()
    start = time.perf_counter()
    heard = finals(stream(recognizer, pcm))
    out = {"pocketsphinx": (heard, time.perf_counter() - start)}
    if "whisper" in looses:
        out["whisper"] = (whisper_loose(heard, pcm), time.perf_counter() - start)
    return {loose: out[loose] for loose in looses}


def whisper_loose(heard: list[Hypothesis], pcm: bytes) -> list[Hypothesis]:
    """The final hypotheses with the loose pass made by Whisper on the utterance's audio (the
    whole phrase's when it is one utterance) instead of PocketSphinx's language model."""
    out = []
    for hypothesis in heard:
        part = pcm
        if len(heard) > 1 and hypothesis.words:
            start, end = hypothesis.words[0].start, hypothesis.words[-1].end
            assert start is not None and end is not None
            part = pcm[int(max(0.0, start - 0.3) * RATE) * 2 : int((end + 0.3) * RATE) * 2]
        out.append(hypothesis if hypothesis.loose is None else replace(hypothesis, loose=transcribe(part)))
    return out


def run_cases(all_cases: list[Case], voice: str, recognizer: PocketSphinxRecognizer, looses: Sequence[str]) -> list[Result]:
    results: list[Result] = []
    grammar_of: list[str] | None = None
    for i, case in enumerate(all_cases):
        pcm = read_pcm(synthesize(case.phrase.words, CACHE, voice))
        if case.grammar is not grammar_of:
            recognizer.set_phrases(case.grammar)
            grammar_of = case.grammar
        for loose, (heard, busy) in recognize(recognizer, pcm, looses).items():
            result = Result(case, voice, heard, busy, seconds(pcm), loose)
            judge(result)
            results.append(result)
            mark = "ok" if result.decision == "direct" and result.right else result.decision.upper()
            if result.decision != "dropped" and not result.right:
                mark = f"WRONG {result.decision}"
            print(f"[{voice} {loose} {i + 1}/{len(all_cases)}] {case.state_label}: {case.phrase.words!r} -> "
                  f"{' | '.join(f'{h.text!r}/{h.loose!r}' for h in heard)} conf {result.confidence} {mark} {result.line}",
                  file=sys.stderr)
    return results


# --- reports ----------------------------------------------------------------------------------

def pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole:.1%})" if whole else "0/0"


def quantiles(values: list[float]) -> str:
    if not values:
        return "none"
    if len(values) < 4:
        return "values " + ", ".join(f"{v:.2f}" for v in sorted(values))
    q = statistics.quantiles(values, n=10, method="inclusive")
    return (f"n={len(values)}: min {min(values):.2f}, p10 {q[0]:.2f}, p25 {statistics.quantiles(values, n=4, method='inclusive')[0]:.2f}, "
            f"median {statistics.median(values):.2f}, p90 {q[-1]:.2f}, max {max(values):.2f}")


def tally(results: list[Result]) -> Counter:
    return Counter(r.kind for r in results)


def report(label: str, results: list[Result]) -> None:
    total = len(results)
    count = tally(results)
    grammar = sum(r.grammar_right for r in results)
    print(f"{label}: {total} commands")
    print(f"  grammar top-1 accuracy        {pct(grammar, total)}")
    print(f"  taken directly, right         {pct(count['direct right'], total)}")
    print(f"  taken directly, WRONG         {pct(count['direct WRONG'], total)}   "
          "<- wrong actions applied without confirmation")
    if count["help listed"]:
        print(f"  heard as 'what can i say'     {pct(count['help listed'], total)}   (phrases listed, no action)")
    print(f"  asked (yes/no), right line    {pct(count['asked right'], total)}")
    print(f"  asked (yes/no), wrong line    {pct(count['asked wrong'], total)}")
    print(f"  dropped (not a command)       {pct(count['dropped'], total)}")
    print(f"  effective accuracy            {pct(count['direct right'] + count['asked right'], total)}   "
          "(right line directly or after 'yes')")
    lost = sum(r.grammar_right and not r.understood_right for r in results)
    print(f"  grammar right, but another phrase understood (the loose pass nearer it): {lost}")
    below = sum(
        1 for r in results if r.kind in ("direct right", "direct WRONG") and r.case.phrase.dictation is None
        and not r.case.answering and (r.confidence is None or r.confidence < commands.SURE)
    )
    print(f"  actions applied below SURE {commands.SURE} without asking: {below}")
    split = sum(len(r.heard) > 1 for r in results)
    if split:
        print(f"  utterances split in two or more finals: {split}")
    confident = [r for r in results if r.confidence is not None]
    print(f"  confidence, right answers               {quantiles([r.confidence for r in confident if r.understood_right])}")
    print(f"  confidence, wrong answers (all)         {quantiles([r.confidence for r in confident if not r.understood_right])}")
    print("  confidence, wrong answers not capped below SURE (could be taken)     "
          f"{quantiles([r.confidence for r in confident if not r.understood_right and not r.capped])}")
    busy, audio = sum(r.busy for r in results), sum(r.audio for r in results)
    print(f"  recognition {busy / total:.2f} s per command (grammar + loose pass) for {audio / total:.2f} s of "
          f"audio: real-time factor {busy / audio:.2f}")


def report_groups(results: list[Result]) -> None:
    print("By state (all voices): n, grammar top-1, then " + " / ".join(KINDS))
    groups: dict[str, list[Result]] = {}
    for r in results:
        label = r.case.state_label if r.case.phrase.line not in host_lines(adapter_for(r.case.state.game)) else "host commands"
        groups.setdefault(label, []).append(r)
    for label, group in groups.items():
        count = tally(group)
        print(f"  {label:22} n={len(group):3}  {sum(r.grammar_right for r in group):3}   "
              + " ".join(f"{count[kind]:4}" for kind in KINDS))


def report_failures(results: list[Result], limit: int = 30) -> None:
    for title, kinds in (("Wrong lines (taken, listed or asked)", ("direct WRONG", "help listed", "asked wrong")),
                         ("Dropped", ("dropped",))):
        items = [r for r in results if r.kind in kinds]
        items.sort(key=lambda r: KINDS.index(r.kind))
        print(f"{title}: {len(items)}" + (f", the first {limit}:" if len(items) > limit else ""))
        for r in items[:limit]:
            heard = " | ".join(f"{h.text!r} (loose {h.loose!r})" for h in r.heard) or "nothing"
            print(f"  {r.voice:12} {r.case.state_label}: {r.case.phrase.words!r} -> {heard}; "
                  f"conf {r.confidence if r.confidence is None else round(r.confidence, 2)}; {r.kind} {r.line!r}")


# --- non-commands -------------------------------------------------------------------------------

def story_sentences() -> list[str]:
    from games.decks import TALE_KEYS

    openings = []  # the first sentence of three cards of each tale
    for key in TALE_KEYS:
        for card in load_tale(key).cards[:3]:
            openings.append(card.text.split(". ")[0])
    return [*STORY, *openings]


@dataclass
class StoryResult:
    voice: str
    grammar: str
    sentence: str
    heard: list[Hypothesis]
    outcomes: list[tuple[str, str | None]]
    loose: str = "pocketsphinx"


def run_stories(voice: str, recognizer: PocketSphinxRecognizer, grammars: list[tuple[str, GameState]],
                looses: Sequence[str]) -> list[StoryResult]:
    out = []
    for label, state in grammars:
        recognizer.set_phrases([phrase.words for phrase in offered(state, story_without(state))])
        for sentence in story_sentences():
            pcm = read_pcm(synthesize(sentence, CACHE, voice))
            for loose, (heard, _) in recognize(recognizer, pcm, looses).items():
                outcomes = [decide(state, [h], story_without(state)) for h in heard]  # each utterance on its own
                out.append(StoryResult(voice, label, sentence, heard, outcomes, loose))
                print(f"[{voice} {loose} story {label}] {sentence!r} -> {[(h.text, h.loose) for h in heard]} {outcomes}",
                      file=sys.stderr)
    return out


def story_decisions(results: list[StoryResult]) -> list[tuple[str, int, int, int, int, int]]:
    rows = []
    for label in dict.fromkeys(r.grammar for r in results):
        group = [r for r in results if r.grammar == label]
        utterances = [o for r in group for o in r.outcomes]
        counts = Counter(story_kind(decision, line) for decision, line in utterances)
        rows.append((label, len(group), counts["direct"], counts["help"], counts["asked"], counts["dropped"]))
    return rows


def story_kind(decision: str, line: str | None) -> str:
    """direct (an action taken), help (the phrases listed, no action), asked or dropped."""
    return "help" if decision == "direct" and line == "help" else decision


def report_stories(results: list[StoryResult]) -> None:
    print("Non-commands: story sentences against a command grammar (each final utterance on its own)")
    for voice in dict.fromkeys(r.voice for r in results):
        for label, sentences, direct, listed, asked, dropped in story_decisions([r for r in results if r.voice == voice]):
            utterances = direct + listed + asked + dropped
            print(f"  {voice:12} {label:22} {sentences} sentences, {utterances} utterances: taken as a command {direct}, "
                  f"heard as 'what can i say' {listed}, asked {asked}, dropped {dropped}")
    for r in results:
        for (decision, line), h in zip(r.outcomes, r.heard):
            if decision != "dropped":
                print(f"    {decision}: {r.voice} {r.grammar}: {r.sentence!r} -> {h.text!r} (loose {h.loose!r}) as {line!r}")


# --- thresholds ---------------------------------------------------------------------------------

def rerun(results: list[Result], stories_results: list[StoryResult], voice: str) -> str:
    count = Counter(outcome(*decide(r.case.state, r.heard, r.case.without, r.case.answering), r.case.phrase.line) for r in results if r.voice == voice)
    story = Counter(
        story_kind(*decide(STORY_STATES[s.grammar], [h], story_without(STORY_STATES[s.grammar]))) for s in stories_results if s.voice == voice for h in s.heard
    )
    return (f"{count['direct right']:3}/{count['direct WRONG']}/{count['asked right']:3}/{count['asked wrong']:3}/"
            f"{count['dropped']:3} eff {count['direct right'] + count['asked right']:3}; "
            f"stories {story['direct']}/{story['help']}/{story['asked']}")


def sweep(results: list[Result], stories_results: list[StoryResult], voices: Sequence[str]) -> None:
    original = commands.SURE, commands.ASK_BELOW
    print("Threshold sweep (same hypotheses, dialog rerun). Per voice: taken right / taken WRONG / asked right / "
          "asked wrong / dropped, effective (right directly or after yes); story utterances taken / "
          "heard as 'what can i say' / asked")
    try:
        for sure in (0.7, 0.75, 0.8, 0.85, 0.9):
            for ask in (0.4, 0.5, 0.6):
                commands.SURE, commands.ASK_BELOW = sure, ask
                parts = [f"{voice}: {rerun(results, stories_results, voice)}" for voice in voices]
                mark = "  <- current" if (sure, ask) == original else ""
                print(f"  SURE {sure:.2f} ASK_BELOW {ask:.2f}  " + "   ".join(parts) + mark)
    finally:
        commands.SURE, commands.ASK_BELOW = original


STORY_STATES: dict[str, GameState] = {}


def story_without(state: GameState) -> frozenset[str]:
    """The commands not offered in the game as the benchmark plays it (the default settings: in
    Storytelling, the host is the storyteller)."""
    return adapter_for(state.game).without({})


# --- main -------------------------------------------------------------------------------------

def compare(results: list[Result], stories_results: list[StoryResult], voices: Sequence[str], looses: Sequence[str]) -> None:
    """One line per voice and loose pass: what decides whether Whisper should make the loose pass."""
    print("\n| voice | loose pass | effective accuracy | taken directly, WRONG | asked | dropped | "
          "story utterances taken as a command |\n|---|---|---|---|---|---|---|")
    for voice in voices:
        for loose in looses:
            group = [r for r in results if r.voice == voice and r.loose == loose]
            count = tally(group)
            story = [story_kind(*o) for r in stories_results if r.voice == voice and r.loose == loose for o in r.outcomes]
            print(f"| {voice} | {loose} | {pct(count['direct right'] + count['asked right'], len(group))} | "
                  f"{pct(count['direct WRONG'], len(group))} | {pct(count['asked right'] + count['asked wrong'], len(group))} | "
                  f"{pct(count['dropped'], len(group))} | {story.count('direct')}/{len(story)} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sweep", action="store_true", help="also rerun the dialog with other thresholds")
    parser.add_argument("--voices", nargs="+", default=list(VOICES), help=f"default: {' '.join(VOICES)}; also kal, joe")
    parser.add_argument("--loose", nargs="+", choices=LOOSE, default=list(LOOSE),
                        help="what makes the loose pass (default: both, side by side)")
    parser.add_argument("--every", type=int, default=1, metavar="N",
                        help="only every Nth phrase (default: all); the story sentences all")
    parser.add_argument("--states", nargs="+", metavar="LABEL",
                        help=f"only the phrases of these states (e.g. '{YES_NO}'), and no story sentences")
    options = parser.parse_args()
    CACHE.mkdir(exist_ok=True)
    all_cases = [case for case in cases() if not options.states or case.state_label in options.states][:: options.every]
    per_state = Counter(case.state_label for case in all_cases)
    sampling = "no sampling" if options.every == 1 else f"every {options.every}th phrase"
    print(f"{len(all_cases)} phrases, each spoken by {len(options.voices)} voice(s); {sampling}. Per state: "
          + ", ".join(f"{label} {n}" for label, n in per_state.items()))
    STORY_STATES.update({
        "storytelling flip": next(state for label, state in states() if label == "storytelling 4x4 flip"),
        "dixit vote": next(state for label, state in states() if label == "dixit vote"),
    })
    recognizer = PocketSphinxRecognizer()
    results: list[Result] = []
    story_results: list[StoryResult] = []
    for voice in options.voices:
        results += run_cases(all_cases, voice, recognizer, options.loose)
        if not options.states:
            story_results += run_stories(voice, recognizer, list(STORY_STATES.items()), options.loose)
    print(f"Thresholds: SURE {commands.SURE}, ASK_BELOW {commands.ASK_BELOW}")
    for loose in options.loose:
        print(f"\n=== the loose pass made by {loose} ===")
        made = [r for r in results if r.loose == loose]
        for voice in options.voices:
            report(voice, [r for r in made if r.voice == voice])
        if len(options.voices) > 1:
            report("all voices", made)
        report_groups(made)
        report_failures(made)
        report_stories([r for r in story_results if r.loose == loose])
        if options.sweep:
            sweep(made, [r for r in story_results if r.loose == loose], options.voices)
    compare(results, story_results, options.voices, options.loose)
    return 0


if __name__ == "__main__":
    sys.exit(main())
