"""`exact61 play --plain`: the game line by line, for screen readers, pipes and scripts.

Prompts go to the output, choices are read one line at a time: a number picks a listed action,
`?` asks for a hint, `q` (or the end of input) saves the game and quits.
"""

from __future__ import annotations

from typing import TextIO

from exact61.core import Phase, Play, view_of
from exact61.i18n import _
from exact61.play import words
from exact61.play.session import GameSession, Step


class _Quit(Exception):
    pass


class PlainGame:
    def __init__(self, session: GameSession, inp: TextIO, out: TextIO, tally: bool = False):
        self.session = session
        self.inp = inp
        self.out = out
        self.tally = tally
        humans = session.humans
        self.you = humans[0] if len(humans) == 1 else None  # hot seat: no single "you"

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str) -> str:
        print(prompt, end=" ", file=self.out, flush=True)
        line = self.inp.readline()
        if not line:
            raise _Quit
        return line.strip()

    def run(self) -> int:
        s = self.session
        self.say(
            _("Exact 61 Five Up: {players} players. Reach exactly 61.").format(players=s.players)
        )
        person = _("person")
        seats = ", ".join(
            f"{words.seat_name(i)}: {person if s.is_human(i) else s.seats[i]}"
            for i in range(s.players)
        )
        if s.players == 4:
            seats += ". " + _("Seats 0 and 2 play against seats 1 and 3.")
        self.say(seats)
        try:
            while True:
                self.play_match()
                answer = self.ask(_("Play again? [y/N]")).lower()
                if answer not in ("y", "yes", _("y"), _("yes")):
                    return 0
                s = self.session = GameSession(s.players, s.seats, None, None, s.lang)
        except _Quit:
            if not s.match.is_over:
                s.save()
                self.say()
                self.say(
                    _("Game saved to {path}. Continue it with: exact61 play --resume").format(
                        path=s.save_path
                    )
                )
            return 0

    def play_match(self) -> None:
        s = self.session
        while not s.match.is_over:
            if s.match.phase is Phase.DEAL:
                s.deal()
                log = s.match.rounds[-1]
                self.say()
                self.say(words.opener_line(len(s.match.rounds), log.opener, self.you))
                continue
            seat = s.to_act
            assert seat is not None
            if not s.is_human(seat):
                self.show(s.apply(s.bot_action()))
                continue
            forced = s.forced()
            if forced is not None:
                self.show(s.apply(forced))
                continue
            self.human_turn(seat)
        self.say(
            _("Final scores: {scores}").format(
                scores=words.scores_line(s.match, self.you, self.tally)
            )
        )

    def show(self, step: Step) -> None:
        s = self.session
        for line in words.describe(step, s.match, self.you, s.match.layout):
            self.say(line)
        end = s.match.rounds[-1].end
        if step.round_ended and end is not None and end.kind != "target":
            self.say()
            self.say(_("Round {n} settled:").format(n=len(s.match.rounds)))
            for line in words.settlement(s.match.rounds[-1], s.players):
                self.say("  " + line)
            self.say(
                _("Scores: {scores}").format(
                    scores=words.scores_line(s.match, self.you, self.tally)
                )
            )

    def human_turn(self, seat: int) -> None:
        s = self.session
        if self.you is None:  # hot seat: hand the terminal over first
            self.ask(_("Pass the terminal to seat {seat}, then press Enter.").format(seat=seat))
        view = view_of(s.match, seat)
        layout = view.layout
        self.say()
        turn = _("Your turn.") if seat == self.you else _("Seat {seat} to play.").format(seat=seat)
        self.say(
            turn
            + " "
            + _("Scores: {scores}").format(scores=words.scores_line(s.match, seat, self.tally))
        )
        if not layout.is_empty:
            self.say(_("Layout: {tiles}").format(tiles=" ".join(map(str, layout.tiles))))
            self.say(
                _("Scored ends: {ends} = {total}").format(
                    ends=words.ends_sum(layout), total=layout.end_sum
                )
            )
        others = ", ".join(
            f"{words.seat_name(o)}: {words.tiles_left(n)}"
            for o, n in enumerate(view.hand_sizes)
            if o != seat
        )
        self.say(
            _("Others: {others}. Boneyard: {boneyard}.").format(
                others=others, boneyard=words.tiles_left(view.boneyard_size)
            )
        )
        legal = list(view.legal_actions)
        playable = {a.tile for a in legal if isinstance(a, Play)}
        hand = " ".join(f"{t}*" if t in playable else str(t) for t in view.hand)
        self.say(_("Your hand (* can be placed): {tiles}").format(tiles=hand))
        for i, action in enumerate(legal, 1):
            credit = s.match.credit_of(action)
            gain = f"  +{words.points(credit)}" if credit else ""
            self.say(f"  {i}) {words.action_text(action)}{gain}")
        if len(legal) == 1:
            prompt = _("Press Enter to play it (? for a hint, q to save and quit):")
        else:
            prompt = _("Choose 1-{n} (? for a hint, q to save and quit):").format(n=len(legal))
        while True:
            answer = self.ask(prompt)
            if answer.lower() in ("q", "quit"):
                raise _Quit
            if answer == "?":
                hint, credit = s.hint(seat)
                self.say(
                    _("Hint: {choice}) {action}, {credit} raw now").format(
                        choice=legal.index(hint) + 1, action=words.action_text(hint), credit=credit
                    )
                )
                continue
            if answer == "" and len(legal) == 1:
                answer = "1"
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                self.show(s.apply(legal[int(answer) - 1]))
                return
            self.say(_("Please type a number from 1 to {n}.").format(n=len(legal)))


def run_plain(session: GameSession, inp: TextIO, out: TextIO, tally: bool = False) -> int:
    return PlainGame(session, inp, out, tally).run()
