//! Many games of `Exact61-v0` stepped at once: the fast twin of
//! `exact61.research.gymnasium.AgentGame` (one game as the agent plays it) and of the loop of
//! `exact61.research.vector.Exact61VectorEnv` over its games, autoresets included.
//!
//! A game is the agent's seat of a match against the simple bots (`bots.rs`): the deals from
//! `random.Random(match_seed)` (`round_chance`), each other seat's bot from
//! `random.Random(f"{match_seed}:seat:{seat}")`, forced actions played for the agent unless
//! `skip_forced` is off, the episode ended by the match's end (or the round's, `one_round`),
//! by `max_rounds` rounds without a winner (truncated), or by an illegal action (reward -1).
//! A game over before the agent's first choice is dealt again from the same chance.
//!
//! Every step writes each game's observation row and mask (`observation.rs`), reward, ends and
//! standing into the batch's arrays; the match seeds of the games that start come from the
//! caller (`exact61.research.vector` draws them from each game's numpy generator ahead of time).

use crate::bots::Bot;
use crate::engine::{side_count, side_of, Position, Quiet, DOMINO, IN_PLAY};
use crate::observation::{self, ActionSpace, ObservationLayout, RoundCounts};
use crate::playout::{round_chance, HAND_SIZE};
use crate::rng::PyRandom;

/// When a game whose episode ended starts again (Gymnasium's `AutoresetMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Autoreset {
    /// At the next step, which only resets it (its action is ignored).
    NextStep,
    /// In the same step: the step shows the new episode, the ended one in `final_*`.
    SameStep,
    /// Never: the caller resets it.
    Disabled,
}

impl Autoreset {
    /// The mode `AutoresetMode(...).value` names.
    pub fn named(name: &str) -> Option<Self> {
        match name {
            "NextStep" => Some(Autoreset::NextStep),
            "SameStep" => Some(Autoreset::SameStep),
            "Disabled" => Some(Autoreset::Disabled),
            _ => None,
        }
    }
}

/// The settings every game of a batch shares (`Exact61-v0`'s).
#[derive(Clone, Debug)]
pub struct Settings {
    pub players: usize,
    /// The agent's seat.
    pub seat: usize,
    /// Each seat's bot; None at the agent's seat.
    pub bots: [Option<Bot>; 4],
    pub one_round: bool,
    pub max_rounds: u64,
    pub skip_forced: bool,
}

/// One game as the agent plays it (`AgentGame`).
#[derive(Clone, Debug)]
pub struct Game {
    /// `random.Random(match_seed)`: the lots and deals.
    chance: PyRandom,
    /// Each bot's own source; None at the agent's seat.
    sources: [Option<PyRandom>; 4],
    /// The round in play, or the last one; None before the first deal.
    position: Option<Position>,
    /// How many rounds the match has dealt.
    rounds: u64,
    /// Raw, per side (R3), between rounds and after each action.
    scores: [i32; 4],
    /// R8: who made domino opens the next round; None: a lot decides.
    required_opener: Option<usize>,
    /// The side that reached exactly 305 (R30).
    winner: Option<usize>,
    /// What the round's public history shows, as counts.
    counts: RoundCounts,
    /// The legal moves of the seat to act, as the match lists them (while a round is in play).
    legal: Vec<u16>,
    /// The agent's last action was illegal.
    pub illegal: bool,
}

impl Game {
    /// A game not started yet: `start` it before anything else.
    pub fn new() -> Self {
        Game {
            chance: PyRandom::from_u64(0),
            sources: [None, None, None, None],
            position: None,
            rounds: 0,
            scores: [0; 4],
            required_opener: None,
            winner: None,
            counts: RoundCounts::default(),
            legal: Vec::with_capacity(32),
            illegal: false,
        }
    }

    /// A new game from `match_seed` (deals, lots and bots), played to the agent's first
    /// decision (`AgentGame.start`).
    pub fn start(&mut self, match_seed: u64, settings: &Settings) {
        self.chance = PyRandom::from_u64(match_seed);
        for seat in 0..4 {
            self.sources[seat] = settings.bots[seat]
                .map(|_| PyRandom::from_str(&format!("{match_seed}:seat:{seat}")));
        }
        // An episode starts at the agent's first decision: a game over before it is no
        // episode, and is dealt anew (the same chance and bots going on).
        loop {
            self.new_match();
            if !self.advance(settings) {
                return;
            }
        }
    }

    fn new_match(&mut self) {
        self.illegal = false;
        self.position = None;
        self.rounds = 0;
        self.scores = [0; 4];
        self.required_opener = None;
        self.winner = None;
        self.counts = RoundCounts::default();
        self.legal.clear();
    }

    /// A round is in play (the match is not between rounds or over).
    fn in_play(&self) -> bool {
        self.position.as_ref().is_some_and(|p| p.end == IN_PLAY)
    }

    /// Whether the agent is to act (`act` may be called): not after an illegal action, which
    /// ended the episode though the round still waits for the agent.
    pub fn at_decision(&self, settings: &Settings) -> bool {
        !self.illegal
            && self
                .position
                .as_ref()
                .is_some_and(|p| p.end == IN_PLAY && p.to_act as usize == settings.seat)
    }

    /// The agent's move `m` (it must be at a decision): (reward, terminated, truncated). A
    /// move it may not make ends the episode with -1 and sets `illegal`.
    pub fn act(&mut self, m: u16, settings: &Settings) -> (f64, bool, bool) {
        debug_assert!(self.at_decision(settings));
        if !self.legal.contains(&m) {
            self.illegal = true;
            return (-1.0, true, false);
        }
        self.illegal = false;
        self.play(m);
        let finished = self.advance(settings);
        let terminated = finished && (self.winner.is_some() || settings.one_round);
        let truncated = finished && !terminated;
        let reward = if terminated {
            self.reward(settings)
        } else {
            0.0
        };
        (reward, terminated, truncated)
    }

    /// Play bots, forced actions and deals until the agent has a choice; true when the episode
    /// has ended (`AgentGame.advance`).
    fn advance(&mut self, settings: &Settings) -> bool {
        loop {
            let Some(position) = self.position.as_ref().filter(|p| p.end == IN_PLAY) else {
                if self.winner.is_some() || (settings.one_round && self.rounds > 0) {
                    return true;
                }
                if self.rounds >= settings.max_rounds {
                    return true;
                }
                self.deal(settings.players);
                continue;
            };
            position.legal_moves(&mut self.legal);
            let seat = position.to_act as usize;
            let m = if self.legal.len() == 1 {
                if seat == settings.seat && !settings.skip_forced {
                    return false;
                }
                self.legal[0]
            } else if seat == settings.seat {
                return false;
            } else {
                let bot = settings.bots[seat].expect("a bot in every other seat");
                let source = self.sources[seat].as_mut().expect("each bot's source");
                self.legal[bot.choose(position, &self.legal, source)]
            };
            self.play(m);
        }
    }

    /// The next round's lot and deal from the game's chance (`Match.deal_next_round`).
    fn deal(&mut self, players: usize) {
        let (lot, deal) = round_chance(&mut self.chance, players);
        let opener = self.required_opener.unwrap_or(lot);
        let hands: Vec<Vec<u8>> = (0..players)
            .map(|s| deal[HAND_SIZE * s..HAND_SIZE * (s + 1)].to_vec())
            .collect();
        let boneyard = &deal[HAND_SIZE * players..];
        let sides = side_count(players);
        self.position = Some(Position::start(
            &hands,
            boneyard,
            opener,
            &self.scores[..sides],
            true,
        ));
        self.rounds += 1;
        self.counts = RoundCounts::default();
    }

    /// Move `m`, legal, for the seat to act; a round that ends is closed as `Match` closes it.
    fn play(&mut self, m: u16) {
        let position = self.position.as_mut().expect("a round in play");
        let seat = position.to_act as usize;
        self.counts.count(seat, m);
        position.play(m, &mut Quiet);
        self.scores = position.scores;
        if position.end != IN_PLAY {
            self.winner = position.won_by();
            self.required_opener = (position.end == DOMINO).then_some(seat); // R8
        }
    }

    /// The agent's reward at the end of its episode: its side's share of `match_returns`, or
    /// of `round_returns` with `one_round`.
    fn reward(&self, settings: &Settings) -> f64 {
        let players = settings.players;
        let sides = side_count(players);
        let side = side_of(players, settings.seat);
        if settings.one_round {
            let gains = &self.scores[..sides];
            let mean = f64::from(gains.iter().sum::<i32>()) / sides as f64;
            return (f64::from(gains[side]) - mean) / f64::from(crate::engine::TARGET_RAW);
        }
        match self.winner {
            None => 0.0,
            Some(winner) if winner == side => 1.0,
            Some(_) => -1.0 / (sides - 1) as f64,
        }
    }

    /// The match's round, from 0 (`len(match.rounds) - 1`).
    pub fn round_index(&self) -> i64 {
        self.rounds as i64 - 1
    }

    /// Raw scores per side.
    pub fn scores(&self) -> &[i32; 4] {
        &self.scores
    }

    /// The agent's observation row and mask as they stand (the game must have started); after
    /// an illegal action the mask is empty, as at any episode's end (`Exact61Env.action_masks`).
    pub fn observe(
        &self,
        settings: &Settings,
        layout: &ObservationLayout,
        actions: &ActionSpace,
        row: &mut [f32],
        mask: &mut [i8],
    ) {
        let position = self.position.as_ref().expect("a started game");
        let legal: &[u16] = if self.in_play() { &self.legal } else { &[] };
        observation::write(
            layout,
            actions,
            settings.seat,
            position,
            legal,
            &self.counts,
            row,
            mask,
        );
        if self.illegal {
            mask.fill(0);
        }
    }
}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

/// The arrays a batch writes, one row or entry a game (`num_envs` of each).
pub struct Outputs<'a> {
    /// Rows of `layout.size` floats.
    pub observations: &'a mut [f32],
    /// Rows of one entry an action.
    pub masks: &'a mut [i8],
    pub rewards: &'a mut [f64],
    pub terminations: &'a mut [bool],
    pub truncations: &'a mut [bool],
    /// The game's action this step was illegal.
    pub illegal: &'a mut [bool],
    /// Next-step autoreset: the game's next step only resets it.
    pub autoreset: &'a mut [bool],
    /// The game started a new episode this call, from its seed: the caller draws its next.
    pub reseeded: &'a mut [bool],
    /// Rows of `sides` raw scores.
    pub scores: &'a mut [i64],
    pub rounds: &'a mut [i64],
    /// Same-step autoreset: the game's episode ended this step, and was reset; what it ended
    /// with is in the `final_*` rows (only those rows are written).
    pub ended: &'a mut [bool],
    pub final_observations: &'a mut [f32],
    pub final_scores: &'a mut [i64],
    pub final_rounds: &'a mut [i64],
}

/// Why a step cannot be taken: nothing has changed when it says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepError {
    /// Game `i` is not at a decision of the agent (never reset, or its episode is over).
    Over(usize),
    /// Game `i`'s action is no number of the action space.
    NoAction(usize, i64),
}

/// `num_envs` games with the same settings, and how their rows are written.
#[derive(Clone, Debug)]
pub struct Batch {
    pub settings: Settings,
    pub mode: Autoreset,
    pub layout: ObservationLayout,
    pub actions: ActionSpace,
    pub games: Vec<Game>,
}

impl Batch {
    pub fn new(
        settings: Settings,
        mode: Autoreset,
        layout: ObservationLayout,
        actions: ActionSpace,
        num_envs: usize,
    ) -> Self {
        Batch {
            settings,
            mode,
            layout,
            actions,
            games: vec![Game::new(); num_envs],
        }
    }

    /// Whether `step(actions)` can be taken: every game it acts in is at a decision of the
    /// agent, with an action of the space (a game the step only resets ignores its action).
    pub fn check_step(&self, actions: &[i64], autoreset: &[bool]) -> Result<(), StepError> {
        let next_step = self.mode == Autoreset::NextStep;
        for (i, game) in self.games.iter().enumerate() {
            if next_step && autoreset[i] {
                continue;
            }
            if !(0..self.actions.len() as i64).contains(&actions[i]) {
                return Err(StepError::NoAction(i, actions[i]));
            }
            if !game.at_decision(&self.settings) {
                return Err(StepError::Over(i));
            }
        }
        Ok(())
    }

    /// Start the games of `chosen` from their `seeds` (`Exact61VectorEnv.reset`'s games).
    pub fn reset(&mut self, chosen: &[bool], seeds: &[u64], out: &mut Outputs<'_>) {
        for i in 0..self.games.len() {
            if !chosen[i] {
                continue;
            }
            self.games[i].start(seeds[i], &self.settings);
            self.show(i, out);
            out.terminations[i] = false;
            out.truncations[i] = false;
            out.autoreset[i] = false;
        }
    }

    /// Step every game (`check_step` must have passed): each game's action, or its reset
    /// (next-step autoreset), or both (same-step). Returns how many actions were illegal and
    /// how many episodes ended and were reset in this step (same-step).
    pub fn step(
        &mut self,
        actions: &[i64],
        seeds: &[u64],
        out: &mut Outputs<'_>,
    ) -> (usize, usize) {
        let (mut illegal, mut ended) = (0, 0);
        let size = self.layout.size;
        let sides = side_count(self.settings.players);
        for i in 0..self.games.len() {
            out.illegal[i] = false;
            out.reseeded[i] = false;
            out.ended[i] = false;
            if self.mode == Autoreset::NextStep && out.autoreset[i] {
                self.games[i].start(seeds[i], &self.settings);
                out.reseeded[i] = true;
                out.rewards[i] = 0.0;
                out.terminations[i] = false;
                out.truncations[i] = false;
                self.show(i, out);
                continue;
            }
            let m = self.actions.move_of(actions[i] as usize);
            let game = &mut self.games[i];
            let (reward, terminated, truncated) = game.act(m, &self.settings);
            out.rewards[i] = reward;
            out.terminations[i] = terminated;
            out.truncations[i] = truncated;
            out.illegal[i] = game.illegal;
            illegal += usize::from(game.illegal);
            self.show(i, out);
            if self.mode == Autoreset::SameStep && (terminated || truncated) {
                out.final_observations[i * size..(i + 1) * size]
                    .copy_from_slice(&out.observations[i * size..(i + 1) * size]);
                out.final_scores[i * sides..(i + 1) * sides]
                    .copy_from_slice(&out.scores[i * sides..(i + 1) * sides]);
                out.final_rounds[i] = out.rounds[i];
                out.ended[i] = true;
                ended += 1;
                self.games[i].start(seeds[i], &self.settings);
                out.reseeded[i] = true;
                self.show(i, out);
            }
        }
        if self.mode == Autoreset::NextStep {
            for i in 0..self.games.len() {
                out.autoreset[i] = out.terminations[i] || out.truncations[i];
            }
        }
        (illegal, ended)
    }

    /// Game i's observation row, mask, scores and round into `out`.
    fn show(&self, i: usize, out: &mut Outputs<'_>) {
        let size = self.layout.size;
        let count = self.actions.len();
        let sides = side_count(self.settings.players);
        let game = &self.games[i];
        game.observe(
            &self.settings,
            &self.layout,
            &self.actions,
            &mut out.observations[i * size..(i + 1) * size],
            &mut out.masks[i * count..(i + 1) * count],
        );
        for (to, &raw) in out.scores[i * sides..(i + 1) * sides]
            .iter_mut()
            .zip(game.scores())
        {
            *to = i64::from(raw);
        }
        out.rounds[i] = game.round_index();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::{high, low, DRAW, MOVE_STRIDE, OPENING, PASS, POINTS, TILE_COUNT};

    /// The action space as `encoding.ACTIONS` numbers it: openings, then every placement by
    /// tile and point, then draw and pass (Python hands it over; a test builds its own).
    fn action_moves() -> Vec<u16> {
        let mut moves: Vec<u16> = (0..TILE_COUNT)
            .map(|t| (t * MOVE_STRIDE + OPENING) as u16)
            .collect();
        for t in 0..TILE_COUNT {
            for (p, point) in POINTS.iter().enumerate() {
                if point.tile != t && (point.value == low(t) || point.value == high(t)) {
                    moves.push((t * MOVE_STRIDE + p) as u16);
                }
            }
        }
        moves.extend([DRAW, PASS]);
        moves
    }

    /// A layout of the observation's blocks in `OBSERVATION_BLOCKS`' order.
    fn layout(actions: usize) -> ObservationLayout {
        let sizes = [
            ("players", 3),
            ("hand", 28),
            ("pending_draw", 28),
            ("table", 28),
            ("free_points", 70),
            ("open_values", 7),
            ("end_sum", 1),
            ("to_act", 4),
            ("opener", 4),
            ("hand_sizes", 4),
            ("boneyard", 1),
            ("draws", 4),
            ("passes", 4),
            ("played", 112),
            ("scores", 3),
            ("credits", actions),
        ];
        let mut at = 0;
        let blocks: Vec<(String, usize, usize)> = sizes
            .iter()
            .map(|&(name, size)| {
                at += size;
                (name.to_string(), at - size, at)
            })
            .collect();
        ObservationLayout::new(&blocks, at, 32.0, actions).unwrap()
    }

    #[test]
    fn the_action_space_has_450_actions_and_refuses_a_short_one() {
        let moves = action_moves();
        assert_eq!(moves.len(), 450);
        let space = ActionSpace::new(&moves).unwrap();
        assert_eq!(space.number_of(PASS), 449);
        assert!(ActionSpace::new(&moves[..449]).is_err());
        assert!(layout(450).size == 751);
    }

    #[test]
    fn games_play_to_their_ends_with_every_row_in_range() {
        for (players, mode) in [
            (2, Autoreset::NextStep),
            (3, Autoreset::SameStep),
            (4, Autoreset::NextStep),
        ] {
            let mut bots = [None; 4];
            for (seat, bot) in bots.iter_mut().enumerate().take(players) {
                *bot = match seat {
                    1 => None, // the agent's
                    2 => Some(Bot::Heuristic),
                    _ => Some(Bot::Greedy),
                };
            }
            let settings = Settings {
                players,
                seat: 1,
                bots,
                one_round: players == 3,
                max_rounds: 5,
                skip_forced: players != 4,
            };
            let moves = action_moves();
            let (n, size) = (6, 751);
            let sides = side_count(players);
            let mut batch = Batch::new(
                settings,
                mode,
                layout(moves.len()),
                ActionSpace::new(&moves).unwrap(),
                n,
            );
            let (mut obs, mut masks) = (vec![0.0f32; n * size], vec![0i8; n * 450]);
            let (mut fobs, mut rewards) = (vec![0.0f32; n * size], vec![0.0; n]);
            let (mut term, mut trunc, mut illegal, mut auto, mut reseeded, mut ended) = (
                vec![false; n],
                vec![false; n],
                vec![false; n],
                vec![false; n],
                vec![false; n],
                vec![false; n],
            );
            let (mut scores, mut fscores) = (vec![0i64; n * sides], vec![0i64; n * sides]);
            let (mut rounds, mut frounds) = (vec![0i64; n], vec![0i64; n]);
            let mut out = Outputs {
                observations: &mut obs,
                masks: &mut masks,
                rewards: &mut rewards,
                terminations: &mut term,
                truncations: &mut trunc,
                illegal: &mut illegal,
                autoreset: &mut auto,
                reseeded: &mut reseeded,
                scores: &mut scores,
                rounds: &mut rounds,
                ended: &mut ended,
                final_observations: &mut fobs,
                final_scores: &mut fscores,
                final_rounds: &mut frounds,
            };
            let seeds: Vec<u64> = (0..n as u64).collect();
            batch.reset(&[true; 6], &seeds, &mut out);
            let mut pick = PyRandom::from_u64(9);
            let mut episodes = 0;
            for _ in 0..400 {
                let actions: Vec<i64> = (0..n)
                    .map(|i| {
                        let legal: Vec<usize> =
                            (0..450).filter(|&k| out.masks[i * 450 + k] == 1).collect();
                        if legal.is_empty() {
                            return 0; // a game the step only resets
                        }
                        legal[pick.randrange(legal.len() as u64) as usize] as i64
                    })
                    .collect();
                batch.check_step(&actions, out.autoreset).unwrap();
                let (illegal, ended) = batch.step(&actions, &seeds, &mut out);
                assert_eq!(illegal, 0);
                episodes += ended;
                if mode == Autoreset::NextStep {
                    episodes += (0..n)
                        .filter(|&i| out.terminations[i] || out.truncations[i])
                        .count();
                }
                assert!(out.observations.iter().all(|x| (-1.0..=1.0).contains(x)));
                for i in 0..n {
                    let shown = out.masks[i * 450..(i + 1) * 450].contains(&1);
                    // a game is at a decision unless its episode has just ended (and next-step
                    // autoreset leaves it so until the next step)
                    let over = out.terminations[i] || out.truncations[i];
                    assert_eq!(shown, !(over && mode == Autoreset::NextStep));
                    if out.terminations[i] && players != 3 {
                        assert_ne!(out.rewards[i], 0.0); // the match was won by a side
                    }
                }
            }
            assert!(episodes > 0, "{players} players: no episode ended");
        }
    }
}
