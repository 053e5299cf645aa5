"""How a typed line is read and answered in words: the aliases players may type, a move named
for the table, a line that is no command taken for the one move it plainly means, and the
hint of what to type instead."""
from __future__ import annotations

from collections.abc import Mapping

from games.base import Action, Choice, GameState, Verb, fold_name, join_either
from games.language import _, p_
from host.commands import typed_aliases


def fillers() -> frozenset[str]:
    """Words a natural answer may have besides those of the command it means ("I choose the
    quirky side"), in the table's language and in English (either may be typed)."""
    words = ("a an the i we choose pick please it is for to", p_("filler", "a an the i we choose pick please it is for to"))
    return frozenset(fold_name(word) for said in words for word in said.split())


def move_noun(nouns: Mapping[str, tuple[str, str]], verb: str, argument: str | None = None) -> str:
    """'erasure'; with its argument, when it may be said: 'flip of B3', 'choice of the normal side'
    (`nouns`: the game adapter's `move_nouns`, said in the table's language; else the verb's word)."""
    word = p_("verb", verb)
    alone, told = nouns.get(verb, (word, word + " {}"))
    return _(alone) if argument is None else _(told).format(argument)


def takes_free_words(verb: Verb) -> bool:
    """Whether a command ends in free words (a term, a clue): a hint shows its usage, never words."""
    return bool(verb.params) and verb.params[-1].endswith("...")


def usage_of(verb: Verb, player: str | None) -> str:
    """'term Sabine TERM': the usage with the player's name filled in, in the table's language."""
    params = [p_("param", param.rstrip(".")).upper() for param in verb.params]
    return " ".join([verb.said, *([player] if player else []), *params])


def written_action(state: GameState, action: Action) -> str:
    """A move as it is typed in the table's language ('vote Leo 4'); `str(action)` is its English id."""
    return " ".join([state.verbs[action.verb].said, *([action.player] if action.player else []), *action.args])


def aliases(written: Mapping[str, str]) -> dict[str, str]:
    """What players may type for a command instead of its name: "exit" for quit, and a game's
    moves as written (`written`, the adapter's: "time up")."""
    return {**typed_aliases(), **{words: name for name, words in written.items()}}


def written_usage(verb: Verb, written: Mapping[str, str]) -> str:
    """A command's usage as players type it ('time up', not 'timeup'; a translated word as it is)."""
    word = written.get(verb.name, verb.name) if verb.said == verb.name else verb.said
    return word + verb.usage[len(verb.said):]


def normalise(line: str, written: Mapping[str, str]) -> str:
    """The line with its spaces tidied and an alias replaced by its command."""
    words = " ".join(line.split())
    for phrase, replacement in aliases(written).items():
        if words.casefold() == phrase or words.casefold().startswith(phrase + " "):
            return replacement + words[len(phrase):]
    return words


def offered_moves(state: GameState, without: frozenset[str]) -> list[Choice]:
    """The legal moves a hint may name: none with free words (a term, a clue, which may be
    secret) or a secret value (a card of a hand), shown by their usage instead, and none of
    the commands in `without`."""
    return [
        choice for choice in state.legal_actions()
        if choice.action.verb not in without and not takes_free_words(state.verbs[choice.action.verb])
        and not state.verbs[choice.action.verb].secret
    ]


def meant(state: GameState, without: frozenset[str], line: str) -> Action | None:
    """The one legal move a line that is no command plainly means: "normal" or "quirky side"
    when the storyteller is asked to choose, "B3" for a flip, "Leo 4" for Leo's vote. Its
    words (but for fillers) are all words of that move, and it names all the move's values."""
    typed = {fold_name(word) for word in line.split()} - fillers()
    if not typed:
        return None
    matches = []
    for choice in offered_moves(state, without):
        action = choice.action
        words = {fold_name(word) for word in f"{action} {written_action(state, action)}".split()}
        if typed <= words and {fold_name(arg) for arg in action.args} <= typed:
            matches.append(action)
    return matches[0] if len(matches) == 1 else None


def hint(state: GameState, without: frozenset[str], line: str) -> str:
    """The exact lines to type instead: the legal moves closest to what was typed, or one
    example of each command of the moment."""
    words = [fold_name(word) for word in line.split()]
    typed = {*words, *(first + second for first, second in zip(words, words[1:]))}  # "b 3" is B3 too
    offered = offered_moves(state, without)
    examples: dict[str, tuple[str, int]] = {}  # line -> its command, words in common
    for choice in state.legal_actions():
        verb = state.verbs[choice.action.verb]
        if verb.name in without:
            continue
        example = written_action(state, choice.action) if choice in offered else usage_of(verb, choice.action.player)
        examples.setdefault(example, (verb.name, len(typed & {fold_name(word) for word in example.split()})))
    if not examples:
        return _("Type help to hear the commands.")
    most = max(common for _verb, common in examples.values())
    if most > 0:
        best = [example for example, (_verb, common) in examples.items() if common == most][:3]
    else:
        first_of_verb: dict[str, str] = {}
        for example, (verb_name, _common) in examples.items():
            first_of_verb.setdefault(verb_name, example)
        best = list(first_of_verb.values())[:3]
    return _("Type {lines}.").format(lines=join_either(best))
