"""Language: term rules, sameness and ticking over text.

`load_referee()` gives the `TermReferee` (which terms may be written, which are the same), and
`referee_for(language)` that of a language of LANGUAGES (Spanish: nlp.spanish, whose stories are
followed by `SpanishTickTracker`, nlp.spanish_ticks, with the same input and events; every
`Referee` gives the tracker of its language, `referee.tracker(terms)`);
`TickTracker` follows a story, typed or recognized word by word, and says which player's terms
are heard (`TickEvent`), and `ReconcilingTracker` also takes a recognizer's confirmations of
finished utterances; what a game makes of that is the host's business. Pronunciations come
from the CMU Pronouncing Dictionary (`soundalike`), never from a speech engine.
"""

from nlp.referee import (
    LANGUAGES,
    REASONS,
    LanguageResourceMissing,
    Referee,
    TermReferee,
    Verdict,
    load_referee,
    referee_for,
)
from nlp.reconcile import ReconcilingTracker
from nlp.spanish import SpanishReferee
from nlp.spanish_ticks import SpanishTickTracker
from nlp.ticks import HeardWord, TickEvent, TickTracker, judge_transcript

__all__ = [
    "LANGUAGES",
    "REASONS",
    "HeardWord",
    "LanguageResourceMissing",
    "ReconcilingTracker",
    "Referee",
    "SpanishReferee",
    "SpanishTickTracker",
    "TermReferee",
    "TickEvent",
    "TickTracker",
    "Verdict",
    "judge_transcript",
    "load_referee",
    "referee_for",
]
