"""Dixit at the table, in both modes: with the physical cards (no deck file: the players tell the
host what is on the table) or with a deck told in words (`--deck described` or a group's own
file, read whole into the game's settings), which the host deals to the phones. The phrases of
its moves (never a card of a hand), each player's turn on their phone (their hand, told in words,
with the moves on each card), the table page (the cards laid out, their votes only once all are
in), the pictures each screen shows, and `card N`, which reads a card on the table again."""
from __future__ import annotations

import argparse
from collections.abc import Iterator, Mapping
from dataclasses import asdict
from typing import Any

from games.base import Action, GameState, SetupError, Settings, already_set, fold_name, join_either, join_names, view_of
from games.decks import DescribedCard, builtin_described_deck
from games.dixit import DECK_SIZE, MAX_PLAYERS, SPEC, DescribedDixit, Phase, PhysicalDixitView, count_cards
from games.dixit_described import DescribedDixitView, LaidCard, card_read
from games.dixit_rules import DixitView, numbered
from games.language import N_, _, n_, p_
from host.adapters.base import BasicAdapter, GameAdapter, language_named, waiting
from host.adapters.views import Ask, Button, Face, HandCard, Meter, PhoneTurn, TableCard, TableView
from host.storage import decks
from host.storage.catalogs import DEFAULT
from host.commands import HostPhrase
from host.voice.phrases import SLOT, Names, Phrase, each
from nlp.commands import number_words

#: `--deck described`: the built-in deck told in words
BUILT_IN = "described"
#: the most cards a turn lays out (6 players: one each)
MOST_SHOWN = MAX_PLAYERS


class DixitAdapter(BasicAdapter):
    commands = frozenset({"private"})
    phone_verbs = frozenset({"storyteller", "clue", "shown", "vote", "card", "owner", "pick", "aloud", "give", "take"})
    move_nouns: Mapping[str, tuple[str, str]] = {"shown": (N_("cards shown"), N_("cards shown")),
                                                 "storyteller": (N_("turn as storyteller"), N_("turn as storyteller"))}
    @property
    def host_phrases(self) -> tuple[HostPhrase, ...]:
        """A card told in words read again by voice ("read card two", "lee la carta dos"); not
        offered with the physical cards."""
        return (
            *(((p_("spoken", "read card {number}").format(number=number_words(number)),
                p_("spoken", "card {number} again").format(number=number_words(number))), f"read card {number}", False)
              for number in range(1, MOST_SHOWN + 1)),
            ((N_("read the cards"), N_("read all the cards")), "read cards", False),
        )

    def settings(self, options: argparse.Namespace) -> dict[str, Any]:
        """With --deck, the whole deck told in words (checked now, before any game exists), its
        size the number of its cards."""
        if options.deck is None:
            return {}
        if options.deck_size != DECK_SIZE:
            raise SetupError(_("--cards counts the physical cards; a deck told in words has as many cards as it "
                               "holds: leave out --cards."))
        if options.owners != "needed":
            raise SetupError(_("--owners is for the physical cards: with a deck told in words storyhost knows who gave "
                               "each card."))
        language = getattr(options, "language", None) or DEFAULT
        if options.deck == BUILT_IN and not builtin_described_deck(language).is_file():
            raise SetupError(_("The built-in deck told in words is not told in {language} yet: play with the physical "
                               "cards (leave out --deck), or with a deck file of your own told in {language}.").format(
                language=language_named(language)))
        deck = decks.load_described_deck(None if options.deck == BUILT_IN else options.deck, len(options.players),
                                         language)
        if deck.language != language:
            raise SetupError(_("The deck {title} is told in {deck}, and this game is played in {game}: every card "
                               "would be read in another language than the game's. Choose a deck told in {game}, or "
                               "play in {deck} with --language {code}. A deck file names its language in its field 'language' (English "
                               "when it has none).").format(
                title=deck.title, deck=language_named(deck.language), game=language_named(language), code=deck.language))
        return {"deck": {"title": deck.title, "language": deck.language, "cards": [asdict(card) for card in deck.cards]},
                "deck_size": len(deck.cards)}

    def variant(self, settings: Settings) -> str:
        deck = settings.get("deck")
        every = _("every owner asked") if settings.get("owners") == "every" and not deck else ""
        told = _("deck told in words: {title}").format(title=deck["title"]) if deck else ""
        named = [name for name in (_("Contando scoring") if settings.get("contando") else "", every, told) if name]
        return f" ({_(', ').join(named)})" if named else ""

    def without(self, settings: Settings) -> frozenset[str]:
        """Nothing is read out with the physical cards, which storyhost cannot see."""
        return frozenset() if settings.get("deck") else frozenset({"read"})

    def phones(self, settings: Settings) -> str | None:
        if not settings.get("deck"):
            return None
        return _("With a deck told in words each player's hand is dealt to their own phone: a player without a phone "
                 "cannot hold one. If someone has no phone, play with the physical cards instead (leave out --deck).")

    def actor(self, state: GameState, action: Action) -> str | None:
        return _actor(state, action)

    def phone_turn(self, state: GameState, player: str) -> PhoneTurn:
        """The storyteller gives the clue (with a deck told in words, after picking their card),
        says the cards are shown and which is theirs (physical cards); every other player gives
        their card (told in words), votes (and may vote again until all have) and says which card
        they gave when the score needs it (physical cards); on the first turn, whoever found a
        sentence first says so."""
        if state.is_over():
            return PhoneTurn(state.status())
        view = view_of(state, player, DixitView)
        teller, phase = view.storyteller, view.phase
        yours = tuple(state.secrets(player))
        hand = _hand(view)
        if phase == Phase.STORYTELLER:
            claim = Ask("storyteller", _("The first to find a sentence is the storyteller"),
                        (Button("", _("I have a sentence: I am the storyteller"), Action("storyteller", player)),))
            return PhoneTurn(_("Look at your cards and find a sentence for one of them. The first to find one is "
                               "the storyteller."), (claim,), hand=hand)
        if isinstance(view, DescribedDixitView):
            return _described_turn(state, view, player, yours, hand)
        assert isinstance(view, PhysicalDixitView)  # the other mode
        if player == teller:
            return _telling(state, view)
        if phase == Phase.CARDS:
            return PhoneTurn(n_("Give {teller} {cards} from your hand that fits the clue, face down. {teller} lays "
                                "out the cards.",
                                "Give {teller} {cards} from your hand that fit the clue, face down. {teller} lays "
                                "out the cards.", view.cards_given).format(teller=teller, cards=count_cards(view.cards_given)),
                             yours=yours)
        if phase == Phase.VOTE:
            return _voting(state, view, player, yours)
        if phase == Phase.OWNERS:
            buttons = _numbered(state, "owner", player, _("I gave card {number}"))
            if buttons:
                cards = join_either([str(number) for number in view.owners_missing])
                return PhoneTurn(_("Did you give card {cards}? Press the number of the card you gave. If you gave "
                                   "none of these, there is nothing to do.").format(cards=cards),
                                 (Ask("owner", _("The card you gave"), buttons, large=True),), yours)
        return PhoneTurn(_waiting_for(state, view), yours=yours)

    def table(self, state: GameState) -> TableView:
        """The turn, the clue, who has voted (never for what), the cards laid out (told in words)
        and once all votes are in each card with its votes and, once known, whose it is."""
        view = view_of(state, None, DixitView)
        teller, phase = view.storyteller, view.phase
        last = " " + _("This is the last turn.") if view.last_turn and phase != Phase.OVER else ""
        if phase == Phase.OVER:
            heading = _("Dixit: the game is over")
        elif teller:
            heading = _("Turn {turn}: {teller} is the storyteller").format(turn=view.turn, teller=teller)
        else:
            heading = _("Dixit: who will be the storyteller?")
        pile = _("{cards} in the draw pile.").format(cards=count_cards(view.draw_pile))
        lines = [f"{pile[:1].upper()}{pile[1:]}{last}"]
        report = state.score_report()[1:]
        if phase in (Phase.STORYTELLER, Phase.CLUE, Phase.CARDS, Phase.OVER) and report:  # how the turn just scored
            lines.append(report[0])
        voters = [player for player in view.players if player != teller]
        meters: tuple[Meter, ...] = ()
        label = ""
        if phase == Phase.VOTE:
            meters, label = (Meter(_("Voted"), len(view.voted), len(voters), _("players")),), _("The vote")
            if view.voted:
                lines.insert(0, _("Voted so far: {players}.").format(players=join_names(view.voted)))
        elif phase == Phase.CARDS and isinstance(view, DescribedDixitView):
            meters, label = (Meter(_("Given"), len(view.given), len(voters), _("players")),), _("The cards for the clue")
        cards, cards_label = _table_cards(view, teller)
        aloud = isinstance(view, DescribedDixitView) and view.clue_aloud
        clue = view.clue or (_("Given aloud at the table.") if aloud else "")
        return TableView(
            heading, _table_now(state, view), clue, _("The clue") if clue else "",
            meters=meters, meters_label=label, cards=cards, cards_label=cards_label, lines=tuple(lines),
        )

    def pictures(self, state: GameState, player: str | None) -> Mapping[str, str]:
        """The pictures of the cards on the table (and of the last turn's), and of `player`'s hand."""
        view = state.view(player)
        if not isinstance(view, DescribedDixitView):
            return {}
        cards = [*(laid.card for laid in (*view.positions, *view.last_table)), *view.hand]
        return {str(card.id): card.image for card in cards if card.image}

    def reading(self, state: GameState, line: str) -> list[str] | None:
        """`card N` (or said: "read card N") reads card N on the table again, `card` every card; with
        the physical cards `card N` is the storyteller's card, so only "read ..." is answered."""
        words = line.split()  # the number as typed: folding would read '²' as 2
        said = bool(words) and fold_name(words[0]) in _folded("read", p_("command", "read"))
        words = words[1:] if said else words
        card_words = _folded("card", "cards", p_("command", "card"), p_("command", "cards"))
        if not words or fold_name(words[0]) not in card_words or len(words) > 2:
            return None
        if not isinstance(state, DescribedDixit):
            return [_("storyhost cannot see the physical cards: look at the table.")] if said else None
        positions = view_of(state, None, DescribedDixitView).positions
        if not positions:
            return [_("No cards are laid out yet: they are read once every card for the clue is in.")]
        if len(words) == 1:
            return [_read(position) for position in positions]
        if not words[1].isdecimal() or not 1 <= int(words[1]) <= len(positions):
            return [_("The cards on the table are numbered 1 to {count}: say {card} and one of those numbers.").format(
                count=len(positions), card=p_("command", "card"))]
        return [_read(positions[int(words[1]) - 1])]

    def readings(self, state: GameState) -> tuple[tuple[str, str], ...]:
        view = state.view(None)
        if not isinstance(view, DescribedDixitView) or not view.positions:
            return ()
        card = p_("command", "card")
        return ((f"{card} {p_('param', 'card').upper()}",
                 _("read that card on the table again ('{card}' alone: every card)").format(card=card)),)

    def phrases(self, action: Action, names: Names) -> Iterator[Phrase]:
        """The ways of saying a move in the table's language (a vote: "Leo votó la cuatro")."""
        name = names((action.args[1] if action.verb == "owner" else action.player) or "")
        number = number_words(int(action.args[0])) if action.verb in ("vote", "card", "owner") else ""

        def said(*ways: str) -> tuple[str, ...]:
            return tuple(way.format(name=name, number=number) for way in ways)

        if action.verb == "storyteller":
            yield from each(said(p_("spoken", "{name} is the storyteller"), p_("spoken", "storyteller {name}")),
                            str(action))
        elif action.verb == "clue":  # the only move then: whatever is said is the clue
            yield from each(said(p_("spoken", "the clue is")), "clue", dictation=f"clue {SLOT}")
        elif action.verb == "aloud":
            yield from each(said(p_("spoken", "i gave the clue"), p_("spoken", "clue given")), "aloud")
        elif action.verb == "shown":
            yield from each(said(p_("spoken", "shown"), p_("spoken", "cards shown"),
                                 p_("spoken", "the cards are laid out")), "shown")
        elif action.verb == "vote":
            yield from each(said(p_("spoken", "{name} voted {number}"), p_("spoken", "{name} votes {number}"),
                                 p_("spoken", "{name} voted for {number}")), str(action))
        elif action.verb == "card":
            yield from each(said(p_("spoken", "the storyteller card is {number}"),
                                 p_("spoken", "storyteller card {number}")), str(action), confirm=True)
        elif action.verb == "owner":
            yield from each(said(p_("spoken", "card {number} is {name}"), p_("spoken", "card {number} belongs to {name}")),
                            str(action))


def _actor(state: GameState, action: Action) -> str | None:
    """A card's owner says it is theirs; the clue, the storyteller's card and 'shown' are the
    storyteller's; every other move is its player's."""
    if action.verb == "owner":
        return action.args[1]
    return action.player or view_of(state, None, DixitView).storyteller


def _numbered(state: GameState, verb: str, player: str, name: str, chosen: int | None = None,
              faces: Mapping[int, Face] | None = None) -> tuple[Button, ...]:
    """A numbered button for each card `player` may name now with `verb` (their vote, the card
    they gave, the storyteller's card), from the moves the rules allow, `name` its sentence with
    the {number}; `faces`: what the cards on the table show, said with the number."""
    buttons = []
    for choice in state.legal_actions():
        if choice.action.verb != verb or _actor(state, choice.action) != player:
            continue
        number = choice.action.args[0]
        face = (faces or {}).get(int(number))
        said = name.format(number=number)
        buttons.append(Button(number, number, choice.action, name=f"{said}: {face.title}" if face else said,
                              chosen=str(chosen) == number))
    return tuple(buttons)


def _telling(state: GameState, view: PhysicalDixitView) -> PhoneTurn:
    """The storyteller's turn with the physical cards: the clue, then 'shown', then which card is theirs."""
    teller, phase = already_set(view.storyteller, "the storyteller"), view.phase
    if phase == Phase.CLUE:
        return PhoneTurn(_("You are the storyteller: choose one of your cards, say a clue for it aloud, and write "
                           "the clue here."), (_clue_field(),))
    if phase == Phase.CARDS:
        return PhoneTurn(_("Take the {cards} the others give you, shuffle them with yours and lay the {count} cards "
                           "out face up. Then press Cards shown.").format(
                             cards=count_cards(view.cards_given * (len(view.players) - 1)), count=view.cards_shown),
                         (Ask("shown", _("When the cards are laid out"), (Button("", _("Cards shown"), Action("shown")),)),))
    if phase == Phase.REVEAL:
        return PhoneTurn(_("All votes are in. Which card is yours? Press its number."),
                         (Ask("card", _("Your card"), _numbered(state, "card", teller, _("My card is {number}")),
                              large=True),))
    return PhoneTurn(_waiting_for(state, view))


def _clue_field() -> Ask:
    return Ask("clue", _("Your clue (a word, a sentence, or what you sang or mimed)"),
               (Button("", _("Give the clue"), Action("clue", None, ("",))),), field=True)


def _voting(state: GameState, view: DixitView, player: str, yours: tuple[str, ...]) -> PhoneTurn:
    """A vote as large numbered buttons, the player's own vote marked; changed until all have voted."""
    teller, mine = view.storyteller, view.my_vote
    faces = ({laid.number: _face(laid.card) for laid in view.positions} if isinstance(view, DescribedDixitView)
             else {})
    buttons = _numbered(state, "vote", player, _("Vote for card {number}"), mine, faces)
    if mine is None:
        now = _("Vote for the card you think is {teller}'s: press its number.").format(teller=teller)
        if faces:
            now += " " + _("The cards are listed under the game below, and each was read aloud.")
    else:
        now = _("You voted for card {number}. You may change your vote until everyone has voted.").format(number=mine)
        now += f" {waiting(state, player)}"
    return PhoneTurn(now, (Ask("vote", _("Vote for a card"), buttons, large=True),), yours, _hand(view))


def _described_turn(state: GameState, view: DescribedDixitView, player: str, yours: tuple[str, ...],
                    hand: tuple[HandCard, ...]) -> PhoneTurn:
    """A turn with a deck told in words: the storyteller picks a card of their hand and gives the
    clue; every other player gives the card (two with 3 players) of their hand that best fits it,
    then votes. The moves on a card of the hand are shown under that card."""
    teller, phase = view.storyteller, view.phase
    titles = {card.id: card.title for card in view.hand}
    if phase == Phase.VOTE and player != teller:
        return _voting(state, view, player, yours)
    if player == teller:
        if phase == Phase.CLUE:
            pick = view.pick
            picks = Ask("pick", _("Your card for the clue"), tuple(
                Button(str(card), _("Your card for the clue") if card == pick else _("Tell this card"),
                       Action("pick", None, (str(card),)), name=_("Choose {title} for your clue").format(title=titles[card]),
                       chosen=card == pick)
                for card in titles), on_hand=True)
            if pick is None:
                return PhoneTurn(_("You are the storyteller. Read your hand below and choose the card you will give a "
                                   "clue for: press Tell this card under it."), (picks,), yours, hand)
            aloud = Ask("aloud", _("Or give the clue at the table"),
                        (Button("", _("I said, sang or mimed it at the table"), Action("aloud")),))
            return PhoneTurn(_("Your card: {title}. Say your clue aloud at the table, sing or mime it, and write it here "
                               "for the phones; or press the button below it. You may still choose another card.").format(
                                 title=titles[pick]),
                             (_clue_field(), aloud, picks), yours, hand)
        return PhoneTurn(_waiting_for(state, view), yours=yours, hand=hand)
    if phase == Phase.CARDS and player in state.waiting_for():
        gives = Ask("give", _("Give this card"), tuple(
            Button(str(card), _("Give this card"), Action("give", player, (str(card),)),
                   name=_("Give {title}").format(title=titles[card]))
            for card in titles if card not in view.my_given), on_hand=True)
        takes = _takes(view, player, titles)
        clue = (_("{teller}'s clue: {clue}.").format(teller=teller, clue=view.clue) if view.clue
                else _("{teller} gave the clue at the table.").format(teller=teller))
        choose = n_("Choose the card of your hand below that best fits it: press Give this card under it.",
                    "Choose the two cards of your hand below that best fit it: press Give this card under it.",
                    view.cards_given)
        return PhoneTurn(f"{clue} {choose}", (gives, *takes), yours, hand)
    if phase == Phase.CARDS:
        return PhoneTurn(_("Your cards are given. {waiting} You may take a card back until all are in.").format(
            waiting=_waiting_for(state, view)), _takes(view, player, titles), yours, hand)
    return PhoneTurn(_waiting_for(state, view), yours=yours, hand=hand)


def _takes(view: DescribedDixitView, player: str, titles: Mapping[int, str]) -> tuple[Ask, ...]:
    """A button under each card the player gave, to take it back."""
    if not view.my_given:
        return ()
    return (Ask("take", _("Take back"), tuple(
        Button(str(card), _("Take it back"), Action("take", player, (str(card),)),
               name=_("Take back {title}").format(title=titles[card]))
        for card in view.my_given), on_hand=True),)


def _face(card: DescribedCard) -> Face:
    return Face(card.title, card.description, str(card.id) if card.image else "")


def _hand(view: DixitView) -> tuple[HandCard, ...]:
    """The player's hand told in words, each card with what they did with it this turn."""
    if not isinstance(view, DescribedDixitView):
        return ()
    notes = {card: _("Given to {teller}").format(teller=view.storyteller) for card in view.my_given}
    if view.pick is not None:
        notes[view.pick] = _("Your card for the clue")
    return tuple(HandCard(str(card.id), _face(card), notes.get(card.id, "")) for card in view.hand)


def _read(laid: LaidCard) -> str:
    return card_read(laid.number, laid.card.title, laid.card.description)


def _table_cards(view: DixitView, teller: str | None) -> tuple[tuple[TableCard, ...], str]:
    """The cards laid out, as the table may see them now: numbered and told in words while the
    votes are cast; with their votes and owners once revealed (with a deck told in words, the
    last turn's, until the next cards are laid out)."""
    if isinstance(view, PhysicalDixitView):
        revealed = tuple(
            TableCard(position.number, _owner(position.owner, position.owner == teller), position.votes)
            for position in view.positions if position.votes is not None
        )
        return (revealed, _("The cards and their votes")) if revealed else ((), "")
    if not isinstance(view, DescribedDixitView):
        return (), ""
    if view.positions:
        return tuple(TableCard(laid.number, face=_face(laid.card)) for laid in view.positions), _("The cards")
    if view.last_table:
        cards = tuple(
            TableCard(laid.number, _owner(laid.owner, laid.storyteller), laid.votes, _face(laid.card))
            for laid in view.last_table
        )
        return cards, _("The last turn's cards: whose they were, and their votes")
    return (), ""


def _waiting_for(state: GameState, view: DixitView) -> str:
    """What the game waits for, to a player who has nothing to do now."""
    teller, phase = view.storyteller, view.phase
    waited = join_names(list(state.waiting_for()))
    if phase == Phase.CLUE:
        meanwhile = " " + _("Meanwhile, read your hand.") if isinstance(view, DescribedDixitView) else ""
        return _("Waiting for {teller}'s clue.").format(teller=teller) + meanwhile
    if phase == Phase.CARDS:
        return _("Waiting for the cards of {players}.").format(players=waited)
    if phase == Phase.VOTE:
        return _("Waiting for the votes of {players}.").format(players=waited)
    if phase == Phase.REVEAL:
        return _("All votes are in. Waiting for {teller} to say which card is theirs.").format(teller=teller)
    if phase == Phase.OWNERS:
        return _("Waiting to hear who gave {cards}.").format(cards=numbered(_owners_missing(view)))
    return state.status()


def _owner(owner: str | None, tellers: bool) -> str:
    """Whose a card is, as the table shows it ("" until known); `tellers`: the storyteller's."""
    if owner is None:
        return ""
    return (_("{owner}'s, the storyteller's card") if tellers else _("{owner}'s")).format(owner=owner)


def _folded(*words: str) -> frozenset[str]:
    """Words of the reading command (English, and the table's language) as typed words are matched."""
    return frozenset(fold_name(word) for word in words)


def _owners_missing(view: DixitView) -> tuple[int, ...]:
    """The cards whose owner the score still needs (physical cards only)."""
    return view.owners_missing if isinstance(view, PhysicalDixitView) else ()


def _table_now(state: GameState, view: DixitView) -> str:
    """The phase in plain words, for the table."""
    teller, phase = view.storyteller, view.phase
    waited, cards = join_names(list(state.waiting_for())), count_cards(view.cards_given)
    if phase == Phase.STORYTELLER:
        return _("Find a sentence for one of your cards: the first to find one is the storyteller.")
    if phase == Phase.CLUE:
        return _("{teller} is choosing a card and a clue.").format(teller=teller)
    if phase == Phase.CARDS:
        if isinstance(view, DescribedDixitView):
            return _("Everyone but {teller} chooses {cards} for the clue on their phone: waiting for {players}.").format(
                teller=teller, cards=cards, players=waited)
        return _("Everyone gives {teller} {cards} for the clue; {teller} lays out the {count} cards.").format(
            teller=teller, cards=cards, count=view.cards_shown)
    if phase == Phase.VOTE:
        return _("Vote in secret for {teller}'s card: waiting for {players}.").format(teller=teller, players=waited)
    if phase == Phase.REVEAL:
        return _("All votes are in. {teller}, which card is yours?").format(teller=teller)
    if phase == Phase.OWNERS:
        return _("Who gave {cards}? Their owners score the votes.").format(cards=numbered(_owners_missing(view)))
    return state.status()


ADAPTER: GameAdapter = DixitAdapter(SPEC)
