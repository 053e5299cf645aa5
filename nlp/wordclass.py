"""Which words may be written as terms: the word-class half of the Stories! term rules.

Allowed are nouns (proper nouns too), verbs and adjectives. Refused, in this order:

1. ``have_be``: every form of "have" and "be" (the rulebook: "in all forms"). A term is written
   without context, so a word counts as a form only in its common readings: "art" is the noun,
   not archaic "thou art"; "hath" and "wert", which mean nothing else, are forms.
2. ``pronoun``: pronouns, articles and determiners, which the rulebook counts as pronouns
   ("the", "this", "I", "you"...). Quantity words such as "many", "much", "all", "enough" are
   determiners too.
3. ``not_content_word``: prepositions, conjunctions, interjections, the infinitive "to" and the
   helping verbs can/could/may/might/must/shall/should/will/would/ought, in lower case (RULINGS:
   written with a capital, "May" and "Will" are names; the referee allows them).
4. ``adverb``.

These are closed classes: the lists below are complete, and a word on them is refused even
when a dictionary also lists a rare noun sense ("I" the element iodine, "can" the tin, "up" the
verb). Write "tin can" for the tin.

Adverbs need a ruling, because many English words are adverbs and also nouns or adjectives.
A word counts as an adverb when

- the rulebook lists it: here, there, then, outside, right, tomorrow;
- it is of the same kind as "tomorrow" (today, tonight, yesterday) or as "outside" (inside,
  abroad, upstairs, downstairs, indoors, outdoors, overseas); or it is a question adverb
  (when, where, why, how) or "not";
- WordNet and lemminflect know it only as an adverb (quickly, often, everywhere, soon);
- or it is *mostly* an adverb: in WordNet's sense-tagged corpus (SemCor) it was used as an
  adverb at least twice as often as as a noun, verb and adjective together ("well" 139 times
  against 22, "later", "still", "far", "away", "inside"). So "fast", "home", "back", "early",
  "late", "pretty", "hard" and "straight" are allowed: they are nouns or adjectives at least
  half as often as adverbs.

A word that is none of these but is a noun, verb or adjective is allowed; a word no resource
knows is taken as a name (a noun), unless it ends in "-ly" after a known adjective
("zestily"). A refusal says which rule applied, in one sentence a player understands.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.language import _
from nlp.lexicon import CONTENT_UPOS, Lexicon


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


HAVE = _words("have has had having 've 'd hath hast hadst")
BE = _words("be am is are was were been being 'm 're art wast wert ain't isn't aren't wasn't weren't")
HAVE_NOT = _words("haven't hasn't hadn't")
ARTICLES = _words("a an the")
PRONOUNS = _words(
    """
    i me my mine myself you your yours yourself yourselves he him his himself she her hers herself it
    its itself we us our ours ourselves they them their theirs themselves one's oneself thou thee thy
    thine ye y'all who whom whose whoever whomever whatever whichever what which someone somebody
    something anyone anybody anything everyone everybody everything noone nobody nothing none
    """
)
DETERMINERS = _words(
    """
    this that these those some any no every each either neither all both few fewer fewest many much more
    most less least several enough another other others such
    """
)
PREPOSITIONS = _words(
    """
    aboard about above across after against along alongside amid amidst among amongst around as at atop
    before behind below beneath beside besides between beyond by concerning despite down during except
    for from in into of off on onto out over per regarding since than through throughout till toward
    towards under underneath unlike until unto up upon versus via with within without
    """
)
CONJUNCTIONS = _words("and or but nor because although though while whereas whether if unless lest")
INTERJECTIONS = _words(
    """
    oh ah aha wow hey ouch oops hmm hm um uh er yes yeah yep no nope okay ok alas hooray hurray bravo
    ugh yikes phew shh psst whoa huh eh ahoy gosh hello hi bye goodbye yay ow aww eek argh ha haha hurrah
    yippee ooh ahem whoops yuck
    """
)
MODALS = _words("can could may might must shall should will would ought can't couldn't won't wouldn't")
RULEBOOK_ADVERBS = _words("here there then outside right tomorrow")
LIKE_TOMORROW = _words("today tonight yesterday")
LIKE_OUTSIDE = _words("inside abroad upstairs downstairs indoors outdoors overseas")
OTHER_ADVERBS = _words("when where why how whenever wherever however not n't")  # question words, "not"
NUMBERS = _words(
    """
    zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
    sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred
    thousand million billion dozen
    """
)  # allowed as terms (they are nouns and adjectives too), but never the first part of a compound
_CLITICS = {"'m": "am", "'re": "are", "'s": "is", "'ve": "have", "'d": "had", "'ll": "will", "n't": "not"}

@dataclass(frozen=True)
class WordRefusal:
    code: str
    #: one sentence about the word "{q}", without the advice that follows it; said in the table's
    #: language where a referee marks it for the catalog (N_), the English referee's as written
    template: str
    #: the template's other placeholders ("verb": the verb a word is a form of)
    fields: tuple[tuple[str, str], ...] = ()

    def reason(self, shown: str) -> str:
        """The sentence, with the word as the player wrote it."""
        return _(self.template).format(q=_('"{word}"').format(word=shown), **dict(self.fields))

    def hidden(self, whole: bool) -> str:
        """The sentence without the word, for the table: "this term" when the word is the whole
        term, else "a word of this term"."""
        sentence = _(self.template).format(q=_("this term") if whole else _("a word of this term"), **dict(self.fields))
        return sentence[:1].upper() + sentence[1:]


def classify(word: str, lexicon: Lexicon) -> WordRefusal | None:
    """Why a single lowercase word may not be a term, or None when it may."""
    refusal = _closed_class(word, lexicon)
    if refusal:
        return refusal
    for clitic, full in _CLITICS.items():  # "it's", "don't", "we'll": the worse part decides
        if word.endswith(clitic) and len(word) > len(clitic):
            # "'s" after a noun is a possessive ("dog's"), so only the word before it counts
            return classify(word[: -len(clitic)], lexicon) or (None if clitic == "'s" else classify(full, lexicon))
    return _adverb(word, lexicon)


def _form_of(word: str, verb: str, lexicon: Lexicon) -> bool:
    """Whether `word`, written without context, is read as a form of `verb`: lemminflect (drawn
    from everyday English) lists it as one, or it means nothing else ("hath", "wert", "isn't").
    A rare reading does not count: "art" is the noun, not "thou art"."""
    return verb in lexicon.lemma_table.lemmas(word).get("AUX", ()) or not lexicon.known(word)


def _like(word: str, examples: tuple[str, ...]) -> str:
    """'like "x" or "y"': two examples of a word's class other than the word itself."""
    first, second = [example for example in examples if example != word][:2]
    return f'like "{first}" or "{second}"'


def _closed_class(word: str, lexicon: Lexicon) -> WordRefusal | None:
    for verb, forms in (("have", HAVE | HAVE_NOT), ("be", BE)):
        if word in forms and _form_of(word, verb, lexicon):
            if word == verb:
                return WordRefusal("have_be", '{q} is one of the two verbs not allowed in any form, "have" and "be".')
            return WordRefusal(
                "have_be", '{q} is a form of "' + verb + '", and "have" and "be" are not allowed in any form.'
            )
    if word in ARTICLES:
        return WordRefusal("pronoun", "{q} is an article, and articles count as pronouns, which are not allowed.")
    if word in PRONOUNS:
        return WordRefusal("pronoun", "{q} is a pronoun, and pronouns are not allowed.")
    if word in DETERMINERS:
        return WordRefusal(
            "pronoun",
            "{q} is a determiner, a word " + _like(word, ("the", "this", "some")) + ", and those count as pronouns, "
            "which are not allowed.",
        )
    if word in MODALS:
        return WordRefusal(
            "not_content_word",
            "{q} is a helping verb " + _like(word, ("can", "must", "will")) + ", not a noun, a verb or an adjective "
            "(a name with a capital, such as May or Will, is allowed).",
        )
    kinds = ((PREPOSITIONS, "a preposition"), (CONJUNCTIONS, "a conjunction"), (INTERJECTIONS, "an interjection"))
    for words, kind in kinds:
        if word in words:
            return WordRefusal("not_content_word", "{q} is " + kind + ", not a noun, a verb or an adjective.")
    if word == "to":
        return WordRefusal("not_content_word", "{q} is a little linking word, not a noun, a verb or an adjective.")
    return None


def _adverb(word: str, lexicon: Lexicon) -> WordRefusal | None:
    if word in RULEBOOK_ADVERBS:
        return WordRefusal("adverb", "The rulebook counts {q} as an adverb, and adverbs are not allowed.")
    if word in LIKE_TOMORROW:
        return WordRefusal(
            "adverb", '{q} counts as an adverb, like "tomorrow" in the rulebook, and adverbs are not allowed.'
        )
    if word in LIKE_OUTSIDE:
        return WordRefusal(
            "adverb", '{q} counts as an adverb, like "outside" in the rulebook, and adverbs are not allowed.'
        )
    plain = WordRefusal("adverb", "{q} is an adverb, and adverbs are not allowed.")
    if word in OTHER_ADVERBS:
        return plain
    if not lexicon.known(word):  # "zestily": -ly after a known adjective
        stems = (word[:-2], word[:-3] + "y", word[:-2] + "e", word[:-4] + "ic")
        adjective = any(lexicon.known(stem) and "ADJ" in lexicon.readings(stem) for stem in stems)
        return plain if word.endswith("ly") and adjective else None
    readings = lexicon.readings(word)
    if "ADV" not in readings:
        return None
    if not any(upos in readings for upos in CONTENT_UPOS):
        return plain
    counts = lexicon.wordnet.tagged_counts(word)
    if counts["adv"] > 0 and counts["adv"] >= 2 * (counts["noun"] + counts["verb"] + counts["adj"]):
        return WordRefusal(
            "adverb", "{q} is mostly used as an adverb, so it counts as one, and adverbs are not allowed."
        )
    return None


def is_function_word(word: str, lexicon: Lexicon) -> bool:
    """A closed-class word: never part of a compound noun, never a term."""
    return _closed_class(word, lexicon) is not None


def advice(multiword: bool) -> str:
    """What to do after a word refusal (after a space): the whole term, or one word of a compound."""
    return " " + (_("Leave it out of the term.") if multiword else _("Write a noun, a verb or an adjective instead."))
