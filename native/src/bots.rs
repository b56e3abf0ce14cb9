//! The simple bots, twins of `exact61.bots.simple` and `exact61.bots.heuristic`: the same
//! choice from the same legal list and the same random source, float for float, so a match of
//! them is the same match on either engine (`tests/table/test_records_kept.py`).

use crate::engine::{accepts, round5, side_of, Position, TARGET_RAW};
use crate::rng::PyRandom;
use crate::tables::{bits32, pips, PLACEMENTS, TILE_COUNT};

/// A bot that plays whole matches natively.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bot {
    /// `random`: any legal action, uniformly.
    Random,
    /// `greedy`: the highest credit that does not pass 61 (R4), then the heavier tile.
    Greedy,
    /// `heuristic`: greedy plus the habits of a careful player (`exact61.bots.heuristic`).
    Heuristic,
}

impl Bot {
    /// The bot a canonical spec names (`exact61.bots.check_bot_spec`), if it plays natively.
    pub fn named(name: &str) -> Option<Bot> {
        match name {
            "random" => Some(Bot::Random),
            "greedy" => Some(Bot::Greedy),
            "heuristic" => Some(Bot::Heuristic),
            _ => None,
        }
    }

    /// The index in `legal` (two or more moves, as a match lists them) of the bot's choice
    /// for the seat to act.
    pub fn choose(self, position: &Position, legal: &[u16], rng: &mut PyRandom) -> usize {
        match self {
            // floor(random() * n), as `RandomBot.pick`
            Bot::Random => (rng.random() * legal.len() as f64) as usize,
            Bot::Greedy => greedy(position, legal, rng),
            Bot::Heuristic => heuristic(position, legal, rng),
        }
    }
}

/// How greedy ranks a move: its credit (0 when R4 would reject it), then the tile's pips.
pub fn greedy_rank(position: &Position, m: u16, score: i32) -> (i32, i32) {
    match PLACEMENTS.get(m as usize).copied().flatten() {
        Some(placement) => {
            let credit = position.credit_of(m);
            let kept = if accepts(score, credit) { credit } else { 0 };
            (kept, pips(placement.tile as usize) as i32)
        }
        None => (0, 0), // a draw or a pass
    }
}

fn own_score(position: &Position) -> i32 {
    let seat = position.to_act as usize;
    position.scores[side_of(position.players as usize, seat)]
}

/// `GreedyBot.choose`: the best rank; equal ranks by lot.
fn greedy(position: &Position, legal: &[u16], rng: &mut PyRandom) -> usize {
    let score = own_score(position);
    let mut best: Vec<usize> = Vec::new();
    let mut best_rank = (-1, -1);
    for (i, &m) in legal.iter().enumerate() {
        let rank = greedy_rank(position, m, score);
        if rank > best_rank {
            best.clear();
            best.push(i);
            best_rank = rank;
        } else if rank == best_rank {
            best.push(i);
        }
    }
    pick(&best, rng)
}

fn pick(tied: &[usize], rng: &mut PyRandom) -> usize {
    if tied.len() > 1 {
        tied[rng.randrange(tied.len() as u64) as usize]
    } else {
        tied[0]
    }
}

const WIN: f64 = 1000.0;

/// C(n, k), 0 when k > n.
fn comb(n: i64, k: i64) -> f64 {
    if k < 0 || k > n {
        return 0.0;
    }
    let k = k.min(n - k);
    let mut out: u128 = 1;
    for i in 0..k {
        out = out * (n - i) as u128 / (i + 1) as u128;
    }
    out as f64
}

/// `heuristic.expected_best`: the expected best credit of a hand of `hand` tiles drawn from
/// `pool` unseen tiles, of which `credits` lists those that score.
fn expected_best(credits: &[i32], pool: i64, hand: i64) -> f64 {
    if hand <= 0 || pool <= 0 || credits.is_empty() {
        return 0.0;
    }
    let hand = hand.min(pool);
    let total = comb(pool, hand);
    let mut ordered = credits.to_vec();
    ordered.sort_unstable_by(|a, b| b.cmp(a));
    let (mut expected, mut previous) = (0.0, 0);
    for i in (0..ordered.len()).rev() {
        let c = ordered[i];
        if c <= previous {
            continue;
        }
        let at_least = i as i64 + 1;
        let p = 1.0 - comb(pool - at_least, hand) / total;
        expected += p * (c - previous) as f64;
        previous = c;
    }
    expected
}

/// `HeuristicBot.choose`: each placement's worth (`heuristic_worth`), the best by lot among
/// those within 1e-9 of it.
fn heuristic(position: &Position, legal: &[u16], rng: &mut PyRandom) -> usize {
    let plays: Vec<usize> = (0..legal.len())
        .filter(|&i| {
            PLACEMENTS
                .get(legal[i] as usize)
                .copied()
                .flatten()
                .is_some()
        })
        .collect();
    if plays.is_empty() {
        return 0;
    }
    let seen = position.hand_of(position.to_act as usize) | position.on_table();
    let unseen: Vec<usize> = (0..TILE_COUNT).filter(|&t| seen >> t & 1 == 0).collect();
    let worths: Vec<f64> = plays
        .iter()
        .map(|&i| heuristic_worth(position, legal[i], &unseen))
        .collect();
    let best = worths.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let top: Vec<usize> = plays
        .iter()
        .zip(&worths)
        .filter(|&(_, &w)| w >= best - 1e-9)
        .map(|(&i, _)| i)
        .collect();
    pick(&top, rng)
}

/// `HeuristicBot._worth`, term for term in the same order (the sums are floats).
fn heuristic_worth(position: &Position, m: u16, unseen: &[usize]) -> f64 {
    let players = position.players as usize;
    let seat = position.to_act as usize;
    let tile = m as usize / crate::tables::MOVE_STRIDE;
    let mut layout = position.layout();
    let credit = layout.credit_of(m);
    layout.place(m);
    let score = own_score(position);
    let mut worth = 0.0;
    if score + credit == TARGET_RAW {
        return WIN;
    }
    if score + credit < TARGET_RAW {
        worth += credit as f64;
    }
    let sizes: Vec<i64> = (0..players)
        .map(|s| position.hand_of(s).count_ones() as i64)
        .collect();
    let hand = position.hand_of(seat);
    let rest = hand & !(1 << tile);
    let partner = (players == 4).then_some((seat + 2) % 4);
    if rest == 0 {
        // domino: estimate the whole event (R19)
        let mean_pips = if unseen.is_empty() {
            0.0
        } else {
            unseen.iter().map(|&t| pips(t) as i64).sum::<i64>() as f64 / unseen.len() as f64
        };
        let opponents: i64 = (0..players)
            .filter(|&s| s != seat && Some(s) != partner)
            .map(|s| sizes[s])
            .sum();
        let opp = round5((mean_pips * opponents as f64).round_ties_even() as i32);
        let mate = match partner {
            Some(p) => round5((mean_pips * sizes[p] as f64).round_ties_even() as i32),
            None => 0,
        };
        let kept = if score + credit <= TARGET_RAW {
            credit
        } else {
            0
        };
        let net = kept + opp - mate;
        if score + net == TARGET_RAW {
            return WIN;
        }
        if score + net > TARGET_RAW {
            return worth - 40.0; // likely rejected whole: avoid going out if there is a choice
        }
        return worth + 20.0 + opp as f64 - mate as f64;
    }
    let next = (seat + 1) % players;
    let credits: Vec<i32> = unseen
        .iter()
        .map(|&t| layout.best_credit(t))
        .filter(|&c| c > 0)
        .collect();
    let pool = unseen.len() as i64;
    worth -= expected_best(&credits, pool, sizes[next]);
    if let Some(p) = partner {
        worth += 0.25 * expected_best(&credits, pool, sizes[p]);
    }
    let fits = bits32(rest)
        .filter(|&t| layout.placements_of(t).next().is_some())
        .count();
    worth += 1.5 * fits as f64;
    if position.boneyard_left() == 0 {
        worth += 0.5 * pips(tile) as f64;
    }
    worth
}
