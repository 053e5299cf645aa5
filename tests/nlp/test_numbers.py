"""Numbers written in digits (as Whisper writes them) are heard as the words said."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nlp import HeardWord, ReconcilingTracker, TickTracker, judge_transcript, referee_for
from nlp.cards import words
from nlp.numbers import MAX_DIGITS, said


@pytest.mark.parametrize(
    "text, language, spoken",
    [
        ("The train leaves at 6.", "en", "The train leaves at six."),
        ("We waited for 20 minutes.", "en", "We waited for twenty minutes."),
        ("100 people, 150 cows, 1,000 miles", "en", "one hundred people, one hundred and fifty cows, one thousand miles"),
        ("for $4.", "en", "for four dollars."),
        ("It cost $1.", "en", "It cost one dollar."),
        ("The shop sold 12 eggs for $4 .00.", "en", "The shop sold twelve eggs for four dollars ."),  # Whisper's "$4.00"
        ("the 21st of May, the 2nd-hand shop", "en", "the twenty-first of May, the second-hand shop"),
        ("about 10% of them", "en", "about ten percent of them"),
        ("At 3:30, at 3:00, at 10:05", "en", "At three thirty, at three o'clock, at ten oh five"),
        ("In 1999 and in 2024", "en", "In nineteen ninety-nine and in twenty twenty-four"),
        ("a 3-year-old", "en", "a three-year-old"),
        ("the 1990s, a B2 bomber", "en", "the 1990s, a B2 bomber"),  # not read: left as written
        ("9" * 40 + " and " + "1" * 5000, "en", "9" * 40 + " and " + "1" * 5000),  # no number anyone says
        ("Llegamos a las 6.", "es", "Llegamos a las seis."),
        ("Eran 1.000 soldados y 100 caballos.", "es", "Eran mil soldados y cien caballos."),
        ("Costó 3,50 € el 1º de mayo", "es", "Costó tres euros cincuenta el primero de mayo"),
        ("Pagó el 10 % de 1.000 €", "es", "Pagó el diez por ciento de mil euros"),
        ("Érem 4 amics, el 4t dia, a les 3:30", "ca", "Érem quatre amics, el quart dia, a les tres trenta"),
        ("el 30è dia", "ca", "el trenta dia"),  # num2words has no Catalan ordinal of a round ten: the cardinal
        ("el 999999999999999º", "es", "el " + said("999999999999999", "es")),  # nor a Spanish one of 15 nines
        ("Wir waren 21 Freunde, um 3:00, für 3,50 €", "de", "Wir waren einundzwanzig Freunde, um drei Uhr, für drei Euro fünfzig"),
    ],
)
def test_numbers_in_digits_are_said_in_words(text, language, spoken):
    assert said(text, language) == spoken


_NUMBER = r"[$£€]?\d{1,20}(?:[.,:]\d{1,4})?(?:st|nd|rd|th|º|ª|r|n|t|è|a|%| %| ?[$£€])?"


@settings(max_examples=300, deadline=None)
@given(text=st.lists(st.from_regex(_NUMBER, fullmatch=True) | st.text("0123456789.,:%$€ºè-", max_size=8), max_size=4)
       .map(" ".join), language=st.sampled_from(["en", "es", "ca", "de"]))
def test_any_digits_and_marks_are_said_or_kept_as_written(text, language):
    """Nothing a recognizer or a player writes makes the trackers or the card reader fail."""
    assert isinstance(said(text, language), str)
    assert isinstance(words(text, language), list)


@pytest.mark.parametrize("language, marks", [("en", ["st", "nd", "rd", "th"]), ("es", ["º", "ª"]),
                                             ("ca", ["º", "ª", "r", "n", "t", "è", "a"])])
def test_every_ordinal_up_to_a_thousand_is_said(language, marks):
    """num2words has gaps: no Catalan ordinal of a round ten ("30è") and none of some long
    Spanish numbers. Those are said as cardinals: "el 30è dia" is "el trenta dia"."""
    for n in range(1001):
        for mark in marks:
            assert not any(c.isdigit() for c in said(f"{n}{mark}", language)), (n, mark)


def test_a_typed_story_ticks_the_numbers_it_writes_in_digits(referee):
    terms = {"Ann": ["five", "kitten", "twenty", "hundred", "dollar"], "Bo": ["first", "minute", "six"]}
    ticked = judge_transcript(referee, terms, "The cat had 5 kittens. She came 1st after 20 minutes and won $100.")
    assert [tick is not None for tick in ticked["Ann"]] == [True, True, True, True, True]
    assert [tick is not None for tick in ticked["Bo"]] == [True, True, False]


def test_a_number_heard_in_digits_ticks_within_its_word_time(referee):
    """Whisper heard "100 people": "one hundred" shares the time of "100"."""
    tracker = TickTracker(referee, {"Ann": ["hundred", "people"]})
    heard = [HeardWord("There", 0.0, 0.3, 0.9), HeardWord("were", 0.3, 0.5, 0.9), HeardWord("100", 0.5, 1.1, 0.9),
             HeardWord("people.", 1.1, 1.6, 0.9)]
    events = tracker.update(heard, final=True)
    assert [(event.term, event.evidence, event.time) for event in events] == [("hundred", "hundred", 1.1), ("people", "people.", 1.6)]


def test_a_number_the_stream_spelled_and_the_confirmation_wrote_in_digits_stands(referee):
    """The same number read two ways is no evidence against the tick."""
    tracker = ReconcilingTracker(referee, {"Ann": ["six"]}, withdraw_at=0.5)
    streamed = [HeardWord("at", 0.0, 0.3, 0.9), HeardWord("six.", 0.3, 0.8, 0.9)]
    confirmed = [HeardWord("at", 0.0, 0.3, 0.99), HeardWord("6.", 0.3, 0.8, 0.99)]
    assert [event.term for event in tracker.update(streamed, final=True)] == ["six"]
    assert tracker.confirm(confirmed) == []
    assert tracker.ticked()["Ann"][0] is not None


def test_a_spanish_story_ticks_the_numbers_it_writes_in_digits():
    tracker = referee_for("es").tracker({"Ana": ["seis", "cien", "caballo"]})
    tracker.say("Llegamos a las 6 con 100 caballos.")
    assert [tick is not None for tick in tracker.ticked()["Ana"]] == [True, True, True]


def test_a_term_or_a_card_in_digits_is_its_words(referee):
    """A player's "20" is the term "twenty"; a card's "10" is its word "ten", which no term may be."""
    assert referee.check("20", "Once upon a time.").allowed and referee.same("20", "twenty")
    assert referee.same("1st", "first") and not referee.same("1st", "st")
    assert referee.check("ten", "He was 10 years old.").code == "on_card"
    ticked = judge_transcript(referee, {"Ann": ["20", "1st"]}, "He came first after twenty days.")
    assert [tick is not None for tick in ticked["Ann"]] == [True, True]
    spanish = referee_for("es")
    assert spanish.same("20", "veinte") and spanish.check("diez", "Tenía 10 años.").code == "on_card"


def test_a_numeral_ticks_its_words(referee):
    """"100" is said "one hundred", which ticks "hundred" as "a hundred" does: a numeral is no
    compound (WordNet lists "one hundred")."""
    for story in ("There were 100 people.", "There were one hundred people.", "There were a hundred people."):
        ticked = judge_transcript(referee, {"Ann": ["hundred"]}, story)
        assert ticked["Ann"][0] is not None, story
    assert judge_transcript(referee, {"Ann": ["one hundred"]}, "There were 100 people.")["Ann"][0] is not None
