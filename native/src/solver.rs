//! Exact search over the rest of a round when every tile's place is known: the twin of
//! `exact61.search.solver.Solver`, node for node (the same move ordering, transposition table
//! and history, so the same values, the same best move and the same node counts, which decide
//! where a node budget stops a search).
//!
//! Two sides: alpha-beta on side 0's chance to win. Three sides: max^n. A round's end is valued
//! by the match equity table (`EquityTable`) from the new scores and the next opener (R8), a
//! won match by 1; or, for a goal of one side (`Goal`, `GoalSolver`'s twin), by what the end
//! means for it.

use rustc_hash::FxHashMap as HashMap;

use crate::engine::{side_count, side_of, Position, Quiet, DOMINO, TARGET_RAW};
use crate::equity::{EquityTable, Values};
use crate::rng::PyRandom;
use crate::tables::{move_class, pips, DRAW, MOVE_STRIDE};

/// The most distinct moves a seat can have: 23 tiles in hand (2 players), each at most 2 values
/// and 3 kinds of point.
const MOST_MOVES: usize = 144;

/// The search used its node budget before it was done (`SearchLimit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchLimit;

/// A move's result: each side's value if the round ends with it, else the position after it.
pub enum Played {
    Ended(Values),
    Goes(Position),
}

/// What a round's end means for one side (`search.solver.Outcome`), worst first.
pub const LOST_MATCH: usize = 0;
pub const LOST_ROUND: usize = 1;
pub const TIED: usize = 2;
pub const WON_ROUND: usize = 3;
pub const WON_MATCH: usize = 4;

/// A goal of one seat's side for the rest of the round (`search.solver.GoalSolver`): each
/// outcome's value to the side, and the seat's hand size at which a position where it is to
/// place is cut off (worth 0 to the side), if any.
#[derive(Clone, Copy, Debug)]
pub struct Goal {
    pub seat: usize,
    pub side: usize,
    pub values: [f64; 5],
    pub floor: Option<u32>,
}

impl Goal {
    /// Each side's values when the goal's side's is `value`.
    fn pair(&self, value: f64) -> Values {
        let mut out = [0.0; 4];
        out[self.side] = value;
        out[1 - self.side] = 1.0 - value;
        out
    }

    /// The outcome of a round the engine has ended, `mover` making its last move.
    fn outcome(&self, position: &Position, mover: usize) -> usize {
        if let Some(won) = position.won_by() {
            return if won == self.side {
                WON_MATCH
            } else {
                LOST_MATCH
            };
        }
        let players = position.players as usize;
        let winner = if position.end == DOMINO {
            Some(side_of(players, mover))
        } else {
            // a block (R11): the lightest single hand's side, none when both sides share it (R23)
            let pips = position.hand_pips();
            let lightest = (0..players).map(|s| pips[s]).min().unwrap_or(0);
            let mut sides = (0..players)
                .filter(|&s| pips[s] == lightest)
                .map(|s| side_of(players, s));
            let first = sides.next();
            if sides.all(|side| Some(side) == first) {
                first
            } else {
                None
            }
        };
        match winner {
            None => TIED,
            Some(side) if side == self.side => WON_ROUND,
            Some(_) => LOST_ROUND,
        }
    }

    /// The values of a cut position (the goal seat to place, its moves used up), else None.
    fn cut(&self, position: &Position) -> Option<Values> {
        let floor = self.floor?;
        (position.to_act as usize == self.seat
            && position.hand_of(self.seat).count_ones() <= floor
            && position.playable() != 0)
            .then(|| self.pair(0.0))
    }
}

/// The searches' leaf: the equity table, its answers kept (they are asked again and again); or
/// a goal's (`Leaf::goal`).
pub struct Leaf<'a> {
    table: Option<&'a EquityTable>,
    players: usize,
    cache: HashMap<([i32; 4], Option<usize>), Values>,
    goal: Option<Goal>,
}

impl<'a> Leaf<'a> {
    pub fn new(table: &'a EquityTable, players: usize) -> Self {
        Leaf {
            table: Some(table),
            players,
            cache: HashMap::default(),
            goal: None,
        }
    }

    /// A goal's leaf: a round's end valued by its outcome for the goal's side.
    pub fn goal(goal: Goal, players: usize) -> Self {
        Leaf {
            table: None,
            players,
            cache: HashMap::default(),
            goal: Some(goal),
        }
    }

    pub fn value(&mut self, scores: [i32; 4], opener: Option<usize>) -> Values {
        let (table, players) = (self.table.expect("an equity table"), self.players);
        *self
            .cache
            .entry((scores, opener))
            .or_insert_with(|| table.win_probabilities(players, &scores, opener))
    }
}

/// A search of the rest of a round from one position (`Solver`).
pub struct Solver<'a> {
    pub root: Position,
    pub leaf: Leaf<'a>,
    pub node_limit: Option<u64>,
    pub nodes: u64,
    pub players: usize,
    pub sides: usize,
    table: HashMap<(u128, u128), (u8, f64, u16)>,
    /// Per move class: how often it cut a search off (weighted by the tiles in hand).
    history: Vec<i64>,
    scratch: Vec<u16>,
    /// `order_into`'s moves with their ranks.
    ranked: Vec<(f64, u16, u16)>,
    table_n: HashMap<(u128, u128), (Values, u16)>,
}

impl<'a> Solver<'a> {
    /// A solver from `position` (its search copy: no order, its shape worked out).
    pub fn new(position: &Position, leaf: Leaf<'a>, node_limit: Option<u64>) -> Self {
        let players = position.players as usize;
        Solver {
            root: position.for_search(),
            leaf,
            node_limit,
            nodes: 0,
            players,
            sides: side_count(players),
            table: HashMap::default(),
            history: vec![0; crate::tables::MOVE_COUNT],
            scratch: Vec::new(),
            ranked: Vec::with_capacity(MOST_MOVES),
            table_n: HashMap::default(),
        }
    }

    /// Play `m` on a copy (`Solver.play`).
    pub fn play(&mut self, position: &Position, m: u16) -> Played {
        let mut child = position.clone();
        match self.play_on(&mut child, m) {
            Some(values) => Played::Ended(values),
            None => Played::Goes(child),
        }
    }

    /// Play `m` on `child`, a copy of the position it is played from: each side's values if
    /// that ends the round (or a goal cuts it off), else None, and `child` is the position
    /// after it. The search plays in place: a position copied just after it was played waits
    /// for the writes to land (store forwarding), which cost a sixth of a large search's time
    /// (docs/figures/speed.md).
    pub fn play_on(&mut self, child: &mut Position, m: u16) -> Option<Values> {
        let mover = child.to_act as usize;
        child.play(m, &mut Quiet);
        if child.end != 0 {
            Some(self.ended(child, mover))
        } else {
            self.leaf.goal.and_then(|goal| goal.cut(child))
        }
    }

    /// Each side's value of a round the engine has ended, `mover` making its last move.
    pub fn ended(&mut self, position: &Position, mover: usize) -> Values {
        if let Some(goal) = self.leaf.goal {
            return goal.pair(goal.values[goal.outcome(position, mover)]);
        }
        if let Some(won) = position.won_by() {
            let mut out = [0.0; 4];
            out[won] = 1.0;
            return out;
        }
        let opener = (position.end == DOMINO).then_some(mover);
        self.leaf.value(position.scores, opener)
    }

    fn room(&self, position: &Position) -> i32 {
        TARGET_RAW - position.scores[side_of(self.players, position.to_act as usize)]
    }

    fn rank(&self, position: &Position, m: u16, room: i32) -> i64 {
        let credit = position.credit_of(m);
        (if credit <= room { credit } else { 0 }) as i64 * 16
            + pips(m as usize / MOVE_STRIDE) as i64
    }

    /// As `greedy` plays: the highest credit that does not pass 61, then the heavier tile.
    pub fn greedy_move(&self, position: &Position, moves: &[u16]) -> u16 {
        let room = self.room(position);
        let (mut best, mut best_rank) = (moves[0], -1);
        for &m in moves {
            if m >= DRAW {
                return m;
            }
            let rank = self.rank(position, m, room);
            if rank > best_rank {
                (best, best_rank) = (m, rank);
            }
        }
        best
    }

    /// `moves` best first by `greedy_move`'s rank (ties keep their order).
    pub fn ranked_moves(&self, position: &Position, moves: &[u16]) -> Vec<u16> {
        let room = self.room(position);
        let mut ranked: Vec<(i64, u16)> = moves
            .iter()
            .map(|&m| (self.rank(position, m, room), m))
            .collect();
        ranked.sort_by_key(|&(rank, _)| std::cmp::Reverse(rank)); // stable: ties keep their order
        ranked.into_iter().map(|(_, m)| m).collect()
    }

    /// Play to the round's end, epsilon-greedy; each side's value there.
    pub fn rollout(&mut self, position: &Position, rng: &mut PyRandom, epsilon: f64) -> Values {
        let mut position = position.clone();
        let mut moves = Vec::new();
        loop {
            position.distinct_moves(&mut moves);
            let m = if moves.len() == 1 {
                moves[0]
            } else if rng.random() < epsilon {
                moves[rng.randrange(moves.len() as u64) as usize]
            } else {
                self.greedy_move(&position, &moves)
            };
            let mover = position.to_act as usize;
            position.play(m, &mut Quiet);
            if position.end != 0 {
                return self.ended(&position, mover);
            }
        }
    }

    /// The distinct moves of the seat to act, the most promising first (`ordered_moves`).
    pub fn ordered_moves(&mut self, position: &Position, hint: i32) -> Vec<u16> {
        let mut moves = [0; MOST_MOVES];
        let n = self.order_into(position, hint, &mut moves);
        moves[..n].to_vec()
    }

    /// `ordered_moves` into `out`, without allocating (a search asks at every node); returns
    /// how many.
    fn order_into(&mut self, position: &Position, hint: i32, out: &mut [u16; MOST_MOVES]) -> usize {
        position.distinct_moves(&mut self.scratch);
        let n = self.scratch.len();
        if n < 2 {
            out[..n].copy_from_slice(&self.scratch);
            return n;
        }
        let room = self.room(position);
        let last = position.hand_of(position.to_act as usize).count_ones() == 1;
        // kept between nodes: an array of every possible move, zeroed at each node, took a
        // third of this function's time
        let (history, ranked) = (&self.history, &mut self.ranked);
        ranked.clear();
        ranked.extend(self.scratch.iter().map(|&m| {
            let credit = position.credit_of(m);
            let kind = move_class(m);
            let rank = if kind as i32 == hint {
                1e9
            } else if credit == room && !last {
                1e8 // wins the match at once (R30)
            } else {
                let history = history[kind as usize] as f64;
                let credit = if credit < room { credit } else { 0 };
                history + credit as f64 * 0.01 + pips(m as usize / MOVE_STRIDE) as f64 * 1e-4
            };
            (rank, kind, m)
        }));
        ranked.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)).then(b.2.cmp(&a.2)));
        for (slot, &(_, _, m)) in out.iter_mut().zip(ranked.iter()) {
            *slot = m;
        }
        n
    }

    fn count(&mut self) -> Result<(), SearchLimit> {
        self.nodes += 1;
        match self.node_limit {
            Some(limit) if self.nodes > limit => Err(SearchLimit),
            _ => Ok(()),
        }
    }

    /// Alpha-beta on side 0's chance to win (two sides), fail-soft.
    fn alpha_beta(
        &mut self,
        position: &Position,
        mut alpha: f64,
        mut beta: f64,
    ) -> Result<f64, SearchLimit> {
        self.count()?;
        let key = position.search_key().packed();
        let mut hint = -1;
        if let Some(&(flag, value, best)) = self.table.get(&key) {
            hint = best as i32;
            if flag == 0 || (flag == 1 && value >= beta) || (flag == 2 && value <= alpha) {
                return Ok(value);
            }
        }
        let maximizing = side_of(self.players, position.to_act as usize) == 0;
        let (a0, b0) = (alpha, beta);
        let mut best = if maximizing { -1.0 } else { 2.0 };
        let mut best_move: i32 = -1;
        let mut moves = [0; MOST_MOVES];
        let n = self.order_into(position, hint, &mut moves);
        for &m in &moves[..n] {
            let mut child = position.clone();
            let v = match self.play_on(&mut child, m) {
                Some(values) => values[0],
                None => self.alpha_beta(&child, alpha, beta)?,
            };
            if maximizing {
                if v > best {
                    (best, best_move) = (v, move_class(m) as i32);
                    if v > alpha {
                        alpha = v;
                    }
                }
            } else if v < best {
                (best, best_move) = (v, move_class(m) as i32);
                if v < beta {
                    beta = v;
                }
            }
            if alpha >= beta {
                let weight = position.hands.count_ones() as i64; // tiles still in hands
                self.history[move_class(m) as usize] += weight * weight;
                break;
            }
        }
        let flag = if best <= a0 {
            2
        } else if best >= b0 {
            1
        } else {
            0
        };
        self.table.insert(key, (flag, best, best_move as u16));
        Ok(best)
    }

    /// Max^n: the seat to act picks the move best for its own side (three sides).
    fn max_n(&mut self, position: &Position) -> Result<Values, SearchLimit> {
        self.count()?;
        let key = position.search_key().packed();
        if let Some(&(values, _)) = self.table_n.get(&key) {
            return Ok(values);
        }
        let side = side_of(self.players, position.to_act as usize);
        let mut best: Option<Values> = None;
        let mut best_move = u16::MAX;
        let children: Vec<(u16, Played)> = self
            .ordered_moves(position, -1)
            .into_iter()
            .map(|m| (m, self.play(position, m)))
            .collect();
        for (m, played) in children {
            let v = match played {
                Played::Ended(values) => values,
                Played::Goes(child) => self.max_n(&child)?,
            };
            if best.is_none_or(|b| v[side] > b[side]) {
                best = Some(v);
                best_move = move_class(m);
                if v[side] >= 1.0 {
                    break;
                }
            }
        }
        let best = best.expect("a move");
        self.table_n.insert(key, (best, best_move));
        Ok(best)
    }

    /// Each side's chance to win the match from `position`, with best play to the round's end.
    pub fn value_of(&mut self, position: &Position) -> Result<Values, SearchLimit> {
        if self.sides == 2 {
            let v = self.alpha_beta(position, -1.0, 2.0)?;
            let mut out = [0.0; 4];
            (out[0], out[1]) = (v, 1.0 - v);
            return Ok(out);
        }
        self.max_n(position)
    }

    /// The class of the best move of the seat to act and the position's value.
    pub fn best_move(&mut self) -> Result<(u16, Values), SearchLimit> {
        let position = self.root.clone();
        let key = position.search_key().packed();
        if self.sides != 2 {
            let value = self.max_n(&position)?;
            return Ok((self.table_n[&key].1, value));
        }
        let v = self.alpha_beta(&position, -1.0, 2.0)?;
        let mut out = [0.0; 4];
        (out[0], out[1]) = (v, 1.0 - v);
        Ok((self.table[&key].2, out))
    }

    /// Each distinct move of the seat to act (its class) with its exact value, by class.
    pub fn move_values(&mut self) -> Result<Vec<(u16, Values)>, SearchLimit> {
        let root = self.root.clone();
        let children: Vec<(u16, Played)> = self
            .ordered_moves(&root, -1)
            .into_iter()
            .map(|m| (m, self.play(&root, m)))
            .collect();
        let mut out = Vec::new();
        for (m, played) in children {
            let values = match played {
                Played::Ended(values) => values,
                Played::Goes(child) => self.value_of(&child)?,
            };
            out.push((move_class(m), values));
        }
        out.sort_by_key(|&(class, _)| class);
        Ok(out)
    }
}
