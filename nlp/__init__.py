"""Language: term rules, sameness and ticking over text.

`load_referee()` gives the `TermReferee` (which terms may be written, which are the same);
`TickTracker` follows a story, typed or recognized word by word, and says which player's terms
are heard (`TickEvent`), and `ReconcilingTracker` also takes a recognizer's confirmations of
finished utterances; what a game makes of that is the host's business. Pronunciations come
from the CMU Pronouncing Dictionary (`soundalike`), never from a speech engine.
"""

from nlp.referee import (
    REASONS,
    LanguageResourceMissing,
    TermReferee,
    Verdict,
    load_referee,
)
from nlp.reconcile import ReconcilingTracker
from nlp.ticks import HeardWord, TickEvent, TickTracker, judge_transcript

__all__ = [
    "REASONS",
    "HeardWord",
    "LanguageResourceMissing",
    "ReconcilingTracker",
    "TermReferee",
    "TickEvent",
    "TickTracker",
    "Verdict",
    "judge_transcript",
    "load_referee",
]
