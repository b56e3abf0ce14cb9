"""`exact61 play --plain`: the game line by line, for screen readers, pipes and scripts.

Prompts go to the output, choices are read one line at a time: a number picks a listed action,
`?` asks for a hint (then Enter plays it), `u` takes your last move back (against bots only),
`q` (or the end of input) saves the game and quits.
"""

from __future__ import annotations

from typing import TextIO

from exact61.core import Action, Phase, Play
from exact61.i18n import _, ngettext
from exact61.learn import hints
from exact61.render.geometry import tile_names
from exact61.table import Update, Waiting
from exact61.terminal import layout_words, words
from exact61.terminal.session import GameSession

# Clears the screen and its scrollback, so the next person at a shared terminal cannot scroll
# back to the previous person's hand.
CLEAR = "\x1b[2J\x1b[3J\x1b[H"


class Quit(Exception):
    """The person quits: `q`, or the end of the input."""


class LineTalk:
    """Saying and asking line by line on `inp` and `out`: the plain game, tour and puzzles."""

    inp: TextIO
    out: TextIO

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str) -> str:
        """The line answered, stripped; `Quit` at the end of the input (the prompt's line ended:
        the output is whole lines however the input ends)."""
        print(prompt, end=" ", file=self.out, flush=True)
        line = self.inp.readline()
        if not line:
            print(file=self.out, flush=True)
            raise Quit
        return line.strip()


class PlainGame(LineTalk):
    def __init__(self, session: GameSession, inp: TextIO, out: TextIO, tally: bool = False):
        self.session = session
        self.inp = inp
        self.out = out
        self.tally = tally
        humans = session.humans
        self.you = humans[0] if len(humans) == 1 else None  # hot seat: no single "you"

    def run(self) -> int:
        s = self.session
        try:
            while True:
                self.say(
                    ngettext(
                        "Exact 61 Five Up: {n} player. Reach exactly 61.",
                        "Exact 61 Five Up: {n} players. Reach exactly 61.",
                        s.players,
                    ).format(n=s.players)
                )
                self.say(words.seats_line(s.seats, self.you))
                self.say(words.scoring_rule())
                self.say(
                    _(
                        "Scores read 2 (10): display points, then raw points (R3). "
                        "The rules: exact61 rules"
                    )
                )
                if s.match.phase is Phase.PLAY and s.match.rounds[-1].steps:  # resumed
                    self.say()
                    for line in words.round_so_far(s.match, self.you):
                        self.say(line)
                self.play_match()
                if self.yes(self.ask(_("Analyse this game? [y/N]"))):
                    self.analyse()
                if not self.yes(self.ask(_("Play again? [y/N]"))):
                    return 0
                s = self.session = GameSession(s.players, s.seats, None, None, s.lang)
                self.say()
        except (Quit, KeyboardInterrupt) as stop:  # q, the end of input, or Ctrl+C (130)
            if not s.match.is_over:
                s.save()
                self.say()
                self.say(
                    _("Game saved to {path}. Continue it with: {command}").format(
                        command="exact61 play --plain --resume", path=s.save_path
                    )
                )
            return 130 if isinstance(stop, KeyboardInterrupt) else 0

    @staticmethod
    def yes(answer: str) -> bool:
        return answer.lower() in ("y", "yes", _("y"), _("yes"))

    def analyse(self) -> None:
        """The post-game review (as `exact61 analyze`) of the people's decisions, or of every
        seat's when bots played alone; a line per tenth done, for a screen reader."""
        from exact61.analysis.analyze import IN_GAME, analyze_match
        from exact61.analysis.report import report_lines

        s = self.session
        told = [-1]

        def advance(done: int, total: int) -> None:
            tenth = 10 * done // max(total, 1)
            if tenth > told[0]:
                told[0] = tenth
                self.say(_("Analysing: {done} of {total} decisions").format(done=done, total=total))

        result = analyze_match(
            s.record_text(),
            seats=s.humans or list(range(s.players)),
            iterations=IN_GAME,
            progress=advance,
        )
        for line in report_lines(result):
            self.say(line)

    def play_match(self) -> None:
        self.play_rounds()
        s = self.session
        self.say(
            _("Final scores: {scores}").format(
                scores=words.scores_line(s.match, self.you, self.tally)
            )
        )

    def play_rounds(self) -> None:
        """Play until the table waits for nothing more: a person's turns asked, every other
        action shown, each new round's opener told."""
        s = self.session
        while (waiting := s.waiting_for()) is not Waiting.OVER:
            if waiting is Waiting.PERSON:
                seat = s.to_act
                assert seat is not None
                self.human_turn(seat)
                continue
            update = s.step()  # the deal, a forced action or a bot's move
            if update is not None:
                self.show(update)
                continue
            log = s.match.rounds[-1]
            self.say()
            self.say(words.opener_line(len(s.match.rounds), log.opener, self.you))

    def show(self, step: Update) -> None:
        s = self.session
        for line in words.describe(step, s.match, self.you):
            self.say(line)
        for line in words.won_mid_round(s.match, self.you) if s.match.is_over else []:
            self.say("  " + line)
        end = s.match.rounds[-1].end
        if step.round_ended and end is not None and end.kind != "target":
            self.say()
            self.say(_("Round {n} settled:").format(n=len(s.match.rounds)))
            for line in words.settlement(s.match.rounds[-1], s.players, self.you):
                self.say("  " + line)
            self.say(
                _("Scores: {scores}").format(
                    scores=words.scores_line(s.match, self.you, self.tally)
                )
            )

    def human_turn(self, seat: int) -> None:
        s = self.session
        if self.you is None:  # hot seat: hand the terminal over first, the last hand out of sight
            if self.out.isatty():
                print(CLEAR, end="", file=self.out, flush=True)
            self.ask(_("Pass the terminal to seat {seat}, then press Enter.").format(seat=seat))
        view = s.match.view(seat)
        self.say()
        turn = _("Your turn.") if seat == self.you else _("Seat {seat} to play.").format(seat=seat)
        self.say(
            turn
            + " "
            + _("Scores: {scores}").format(scores=words.scores_line(s.match, seat, self.tally))
        )
        if not view.layout.is_empty:
            for line in layout_words.layout_structure(view.layout):
                self.say(line)
        self.say(words.others_line(s.seats, view.hand_sizes, seat, view.boneyard_size))
        legal: list[Action] = list(view.legal_actions)
        playable = {a.tile for a in legal if isinstance(a, Play)}
        hand = " ".join(f"{t}*" if t in playable else str(t) for t in view.hand)
        self.say(_("Your hand (* can be placed): {tiles}").format(tiles=hand))
        if s.match.pending_draw is not None:
            self.say(
                _("You drew {tile}: it must be placed now (R10).").format(tile=s.match.pending_draw)
            )
        names = tile_names(view.layout)  # the places' tiles as the board draws them
        for i, action in enumerate(legal, 1):
            credit = s.match.credit_of(action)
            gain = f"  {words.gain(credit, view.rejects(credit))}" if credit else ""
            self.say(f"  {i}) {words.action_text(action, names)}{gain}")
        keys = [_("? for a hint")]
        if s.can_take_back(seat):
            keys.append(_("u to take back your last move"))
        keys.append(_("q to save and quit"))
        hinted: Action | None = None
        while True:
            choice = 1 if hinted is None else legal.index(hinted) + 1
            if len(legal) == 1:
                prompt = _("Press Enter to play it ({keys}):")
            elif hinted is not None:
                prompt = _("Press Enter to play {choice}, or choose 1-{n} ({keys}):")
            else:
                prompt = _("Choose 1-{n} ({keys}):")
            answer = self.ask(prompt.format(choice=choice, n=len(legal), keys=", ".join(keys)))
            if answer.lower() in ("q", "quit"):
                raise Quit
            if answer == "?":
                hinted = self.hint(seat, legal)
                continue
            if answer.lower() == "u" and s.can_take_back(seat):
                undone = s.take_back(seat)
                self.say(
                    ngettext(
                        "Your last move is taken back ({n} action undone).",
                        "Your last move is taken back ({n} actions undone).",
                        undone,
                    ).format(n=undone)
                )
                for line in words.round_so_far(s.match, self.you):
                    self.say("  " + line)
                return
            if answer == "" and (len(legal) == 1 or hinted is not None):
                answer = str(choice)
            if answer.isdecimal() and 1 <= int(answer) <= len(legal):
                self.show(s.apply(legal[int(answer) - 1]))
                return
            self.say(_("Please type a number from 1 to {n}.").format(n=len(legal)))

    def hint(self, seat: int, legal: list[Action]) -> Action:
        """Say the hint for `seat` (the expert's move, `hints.explain`, numbered as `legal`
        lists it, with its credit) and why, its tiles named as the board draws them; return
        it."""
        request = self.session.hint_request(seat)
        hint = hints.explain(request.view, request.source)
        credit = self.session.match.credit_of(hint.action)
        view = request.view
        layout = view.layout
        number = legal.index(hint.action) + 1
        rejected = view.rejects(credit)
        self.say(words.hint_line(hint.action, credit, number, tile_names(layout), rejected))
        for line in hints.texts(hint, layout):
            self.say("  " + line)
        return hint.action


def run_plain(session: GameSession, inp: TextIO, out: TextIO, tally: bool = False) -> int:
    return PlainGame(session, inp, out, tally).run()
