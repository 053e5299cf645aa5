"""Spoken commands over text: the words a recognizer spells, numbers said as words, letters
said with the spelling alphabet, and how sure we are that what was heard is one of the phrases
allowed now.

Two passes hear each command. A closed grammar always answers with one of its phrases, even
for a cough or a sentence of the story: Whisper held to each of the phrases its free
transcription sounds most like (the default recognizer), or PocketSphinx's or Vosk's grammar.
Free recognition of the same audio (the loose pass) writes what it heard in any words. The
grammar chooses the phrase and the loose pass says how sure: whether it fits that phrase, by
sound as well as by spelling ("be free" fits "b three"). Free recognition alone chose worse: a
short command is often no phrase at all to it ("T1" for "c one", "Do you want?" for "d one"),
and a language model's loose pass leans to common words ("Leo voted for" for "Leo voted two").
The command is taken at once only when the loose pass fits the grammar's phrase well and clearly
better than any phrase meaning something else, and no phrase of another meaning differs from it
by a rhyming letter alone (B, C, D, E, G, P, T, V, Z: "b three" and "d three" sound alike to any
recognizer and any listener); otherwise the host asks first, or, when the loose pass fits the
phrase too little, it was no command. A doubt that names one phrase of another meaning (the
grammar's, one the loose pass fits as well, the rhyme it fits best or, fitting two alike, the one
whose letter's name begins most like it: "bee" is heard for "dee" rather than "see") names what
was said if the player says no (`Understood.instead`). Said with the spelling alphabet ("bravo
three") a letter rhymes with nothing. The loose pass chooses when the grammar heard nothing, and where a
recognizer's grammar is measured to choose worse than its free words (`Deciding`); there, when
the loose pass fits its choice too little, the host asks about the grammar's phrase. It asks too
when the phrase is vouched for: two independent grammars heard it in the same audio, and the
free words of a short command went astray ("Hit for him." for "confirm").
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz, process

from games.language import p_

from nlp.soundalike import load_pronunciations, similarity


def number_names() -> str:
    """The number words 0 to 20 in the table's language, in order, one string."""
    return p_("numbers", "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
                         "fifteen sixteen seventeen eighteen nineteen twenty")


def _letters() -> str:
    """The words free recognition writes for a lone letter, each as WORD=LETTER, in the table's language."""
    return p_("letters", "be=b bee=b see=c sea=c dee=d gee=g eh=a aye=a pea=p pee=p tea=t tee=t vee=v zee=z zed=z")


@lru_cache(maxsize=8)
def _number_words(said: str) -> tuple[str, ...]:
    return tuple(fold(word) for word in said.split())


@lru_cache(maxsize=8)
def _letter_sounds(said: str) -> dict[str, str]:
    return {fold(word): letter for word, _equals, letter in (pair.partition("=") for pair in said.split())}


#: Roman numerals free recognition writes after a word ("Delta IV"); not i, v or x, which are words or letters
ROMAN = {"ii": 2, "iii": 3, "iv": 4, "vi": 6, "vii": 7, "viii": 8}
#: the letters whose names rhyme ("bee", "see", "dee", ...): two phrases that differ by one of
#: them alone are never told apart surely
RHYMING_LETTERS = frozenset("bcdegptvz")
#: how the name of each rhyming letter begins, as voicing, place and manner of articulation (E's
#: with no consonant): the fewer of these two letters differ in, the likelier one is heard for
#: the other ("bee" and "dee" differ in place alone, "bee" and "see" in all three)
LETTER_ONSETS = {
    "b": ("voiced", "labial", "stop"), "p": ("voiceless", "labial", "stop"), "d": ("voiced", "alveolar", "stop"),
    "t": ("voiceless", "alveolar", "stop"), "c": ("voiceless", "alveolar", "fricative"),
    "z": ("voiced", "alveolar", "fricative"), "v": ("voiced", "labial", "fricative"),
    "g": ("voiced", "postalveolar", "affricate"), "e": ("", "", ""),
}
#: the NATO spelling alphabet, as words a recognizer spells ("x ray": hyphens are split)
SPELLING_ALPHABET = dict(zip("abcdefghijklmnopqrstuvwxyz", (
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima",
    "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey",
    "x ray", "yankee", "zulu",
)))
#: at or above this agreement a command is taken as heard
SURE = 0.85
#: below these it is not taken at all: ASK_BELOW when the loose pass chose among all the phrases
#: (story talk fits the best of a hundred phrases better than one); when it only checks the
#: grammar's phrase, the floor is the recognizer's (`Deciding.check_below`): CHECK_BELOW for a
#: language model's spelling of a command (PocketSphinx, Vosk), which fits it less well than
#: Whisper's, WHISPER_CHECK_BELOW for Whisper's. Chosen on tests/benchmarks/bench_commands.py:
#: checking Whisper's grammar at 0.4, the host asked about 6 of 22 story sentences on each
#: synthetic voice and 11 of Allison's 16 prompts; at 0.5, at most 2; at 0.6 it dropped up to 8
#: of 75 commands it heard right at 0.5.
ASK_BELOW, CHECK_BELOW, WHISPER_CHECK_BELOW = 0.6, 0.4, 0.5
#: the loose pass must fit the phrase by this much better than any phrase meaning something
#: else; between phrases it fits within this of each other, the grammar's is chosen
MARGIN = 0.05


def number_words(number: int) -> str:
    """4 -> "four" ("cuatro" in Spanish: 0 to 20, the numbers of these games, in the table's
    language, without accents as a recognizer's dictionary has them); other numbers as digits."""
    words = _number_words(number_names())
    return words[number] if 0 <= number < len(words) else str(number)


def word_number(word: str) -> int | None:
    """"four" or "4" -> 4 (in the table's language); None for anything else."""
    if word.isdecimal():
        return int(word)
    words = _number_words(number_names())
    return words.index(word) if word in words else None


def yes_words() -> tuple[str, ...]:
    """The ways of saying yes to a question, in the table's language, as a recognizer spells them."""
    return tuple(dict.fromkeys(spoken(way) for way in (
        p_("answer", "yes"), p_("answer", "yes please"), p_("answer", "correct"), p_("answer", "right"))))


def no_words() -> tuple[str, ...]:
    """The ways of saying no, in the table's language, as a recognizer spells them."""
    return tuple(dict.fromkeys(spoken(way) for way in (p_("answer", "no"), p_("answer", "cancel"), p_("answer", "wrong"))))


def fold(text: str) -> str:
    """Without accents, for a recognizer's dictionary: "Julián" -> "julian"."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()


def spoken(text: str) -> str:
    """Text as a recognizer spells it: lowercase words without punctuation, digits, positions
    and Roman numerals as words ("flip B3!" -> "flip b three", "Delta IV" -> "delta four"),
    letters said as words back to letters."""
    text = re.sub(r"\b([A-Za-z])(\d{1,2})\b", r"\1 \2", fold(text))
    words = re.sub(r"[^\w'\s]|_", " ", text.replace("-", " ")).split()
    letters = _letter_sounds(_letters())
    return " ".join(
        number_words(int(word)) if word.isdecimal()
        else number_words(ROMAN[word]) if word in ROMAN else letters.get(word, word)
        for word in words
    )


def spelled(words: str) -> str:
    """The words with the letter of each position (a lone letter before a number) said with the
    spelling alphabet: "flip b three" -> "flip bravo three"; "what can i say" is unchanged."""
    said = words.split()
    return " ".join(
        SPELLING_ALPHABET[word] if len(word) == 1 and word in SPELLING_ALPHABET and word_number(following) is not None
        else word
        for word, following in zip(said, [*said[1:], ""])
    )


def written(words: str) -> str:
    """Spoken words as free recognition writes them: numbers as digits, a lone letter before one
    joined to it in capitals ("flip b three" -> "flip B3", "vota leo dos" -> "vota leo 2")."""
    out: list[str] = []
    for word in words.split():
        number = word_number(word)
        if number is not None and out and len(out[-1]) == 1 and out[-1].isalpha():
            out[-1] = f"{out[-1].upper()}{number}"
        else:
            out.append(word if number is None else str(number))
    return " ".join(out)


def rhyme(phrase: str, other: str) -> bool:
    """Whether two phrases (spoken) differ by one rhyming letter alone: "flip b three", "flip d three"."""
    a, b = phrase.split(), other.split()
    differ = [(x, y) for x, y in zip(a, b) if x != y]
    return len(a) == len(b) and len(differ) == 1 and all(w in RHYMING_LETTERS for w in differ[0])


def onset_distance(phrase: str, other: str) -> int:
    """Of two rhyming phrases, in how many of voicing, place and manner their letters' names begin
    differently: 1 for "b three" and "d three", 3 for "b three" and "c three"."""
    x, y = next((x, y) for x, y in zip(phrase.split(), other.split()) if x != y)
    return sum(a != b for a, b in zip(LETTER_ONSETS[x], LETTER_ONSETS[y]))


@dataclass(frozen=True)
class Understood:
    """The allowed phrase taken for what was said, how sure (0..1) that it was said, and the
    reason its confidence was capped below SURE, if it was."""

    phrase: str
    confidence: float
    doubt: str | None = None
    #: below this confidence it was no command: ASK_BELOW, or the recognizer's floor when the grammar chose
    ask_below: float = ASK_BELOW
    #: whether the loose pass fits the phrase at all; when not, only the grammar vouches for it
    loose_fits: bool = True
    #: the allowed phrase of another meaning that the doubt names, when it names one alone: what
    #: was said if it was not `phrase` ("flip d three" for "flip b three")
    instead: str | None = None

    @property
    def sure(self) -> bool:
        return self.confidence >= SURE

    @property
    def doubtful(self) -> bool:
        """Worth asking "did you say ...?" rather than taking or dropping it."""
        return self.ask_below <= self.confidence < SURE

    @property
    def verdict(self) -> str:
        """"take" (at once), "ask" (first) or "drop" (no command)."""
        return "take" if self.sure else "ask" if self.doubtful else "drop"


@dataclass(frozen=True)
class Deciding:
    """How a recognizer's two passes decide a command: which chooses the phrase, and how well the
    loose pass must fit the grammar's phrase, when it only checks it, for the host to ask."""

    loose_chooses: bool = False
    check_below: float = CHECK_BELOW


#: a grammar checked by its own language model's free words (PocketSphinx, Vosk)
BY_GRAMMAR = Deciding()
#: Whisper's grammar (the phrase it finds likeliest held to each) checked by its free words
BY_WHISPERS_GRAMMAR = Deciding(check_below=WHISPER_CHECK_BELOW)
#: the free words choose among the phrases, the grammar's answer breaks near ties
BY_FREE_WORDS = Deciding(loose_chooses=True)


def understand(
    grammar: str, loose: str | None, phrases: Iterable[str] | Mapping[str, str], deciding: Deciding = BY_GRAMMAR,
    language: str = "en", vouched: bool = False,
) -> Understood | None:
    """Which allowed phrase was said (see the module's docstring). `grammar` is the closed
    grammar's answer, `loose` what free recognition heard in the same audio (None when the
    recognizer makes no such pass: then the grammar's answer is trusted as far as its words
    match a phrase). `phrases` may map each phrase to what it means (its command): phrases of
    one meaning ("flip b three", "b three") are no rivals of each other. `deciding`: the
    recognizer's way (see `Deciding`). `language`: the phrases' (see `alike`). `vouched`: a second
    grammar, independent of the first, heard the same phrase (`Hypothesis.vouched`)."""
    meanings = dict(phrases) if isinstance(phrases, Mapping) else {phrase: phrase for phrase in phrases}
    allowed = {spoken(phrase): phrase for phrase in meanings}
    if not allowed:
        return None
    said = spoken(grammar)
    heard = spoken(loose) if loose is not None else said
    if not said and not heard:
        return None
    # the loose pass chooses the phrase, or only checks the grammar's (which it must when the
    # grammar heard nothing: then the nearest phrase to the loose pass stands for the grammar's)
    grammar_answered = said in allowed  # a grammar answers with a phrase: free words as words are none
    chosen = deciding.loose_chooses or not said
    if said not in allowed:  # a grammar answer cut short, or none: take the nearest phrase
        said = process.extractOne(said or heard, list(allowed), scorer=fuzz.ratio)[0]
    agreement = {phrase: alike(heard, phrase, language) for phrase in allowed}
    meaning = {phrase: meanings[allowed[phrase]] for phrase in allowed}
    # of the grammar's meaning, the way of saying it the loose pass fits best; the phrase the
    # loose pass fits best when it chooses (between phrases it fits about as well, the grammar's)
    top = max(allowed, key=agreement.__getitem__)
    grammars = max((phrase for phrase in allowed if meaning[phrase] == meaning[said]), key=agreement.__getitem__)
    best = grammars if not chosen or agreement[grammars] >= agreement[top] - MARGIN else top
    floor = ASK_BELOW if chosen else deciding.check_below
    if (chosen or vouched) and grammar_answered and agreement[best] < floor:
        # the loose pass fits the phrase too little ("¡Porte almo!" for "voltea a uno"), but it
        # chose, or two grammars heard the phrase: the grammar's phrase is asked about
        return Understood(allowed[said], floor, "the free words fit no phrase", floor, loose_fits=False)
    rivals = [phrase for phrase in allowed if meaning[phrase] != meaning[best]]
    rival = max(rivals, key=agreement.__getitem__, default=None)

    def likelier(phrase: str) -> tuple[float, int]:  # a rhyme the loose pass fits better, then one sounding closer
        return -agreement[phrase], onset_distance(best, phrase)

    rhyming = sorted((phrase for phrase in rivals if rhyme(best, phrase)), key=likelier)
    doubt = other = None
    if meaning[said] != meaning[best]:
        doubt, other = f"the grammar heard {allowed[said]!r}", said
    elif rival is not None and agreement[best] - agreement[rival] < MARGIN:
        doubt, other = f"it sounds as much like {allowed[rival]!r}", rival
    elif rhyming:
        doubt = f"it rhymes with {allowed[rhyming[0]]!r}"
        # which rhyme was said is known only when one is likelier than the others
        if len(rhyming) == 1 or likelier(rhyming[0]) < likelier(rhyming[1]):
            other = rhyming[0]
    if doubt is None or agreement[best] < SURE:
        return Understood(allowed[best], agreement[best], None, floor)
    return Understood(allowed[best], SURE - 0.01, doubt, floor, instead=None if other is None else allowed[other])


#: how Spanish is said, from its spelling (Spain's, with seseo: Whisper spells "z" and "s" as it
#: hears them): each rule a pattern and the sound written for it, in order
SOUNDS = {"es": ((r"ch", "1"), (r"qu(?=[ei])", "k"), (r"gu(?=[ei])", "g"), (r"g(?=[ei])", "j"), (r"c(?=[ei])", "s"),
                 (r"c", "k"), (r"z", "s"), (r"[vw]", "b"), (r"h", ""), (r"ll", "y"), (r"x", "ks"), (r"rr", "r"))}


def alike(heard: str, phrase: str, language: str = "en") -> float:
    """How alike two word strings are, by spelling or by sound, 0..1. English's sound is the CMU
    dictionary's phones; another language's is its letters said as their names and, for Spanish,
    its spelling read as it sounds, where words run together ("volte a ver" for "voltea be"):
    English phones of the few words the dictionary has would make two phrases alike that differ
    in the others."""
    spelling = fuzz.ratio(heard, phrase) / 100
    if language == "en":
        return max(spelling, similarity(_phones(heard), _phones(phrase)))
    return max(spelling, fuzz.ratio(_sounded(heard, language), _sounded(phrase, language)) / 100)


def _sounded(words: str, language: str) -> str:
    """The words as they sound in `language`, run together: a lone letter by its name."""
    names = {letter: word for word, letter in reversed(_letter_sounds(_letters()).items())}
    text = "".join(names.get(word, word) if len(word) == 1 else word for word in words.split())
    for pattern, sound in SOUNDS.get(language, ()):
        text = re.sub(pattern, sound, text)
    return text


def _phones(words: str) -> tuple[str, ...]:
    """The words' phones in the CMU dictionary (a word it lacks is left out)."""
    pronunciations = load_pronunciations()
    return tuple(phone for word in words.split() for phone in pronunciations.get(word, ((),))[0])
