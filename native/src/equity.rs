//! The match equity table (`exact61.search.equity.EquityTable`): each side's chance to win the
//! match from the scores at the start of a round and its opener, which the solver and the
//! expert value a round's end by. The numbers come from Python (the shipped `.npz`); the
//! lookups are the Python table's, operation for operation, so the values are equal.

use crate::engine::{side_count, side_of, TARGET_RAW};

/// A won match's display score (R3: 305 raw).
const TARGET: i32 = 61;
const SCALE: f64 = 65535.0;

/// Each side's chance to win, one value a side (the first `side_count` are used).
pub type Values = [f64; 4];

/// The table's numbers, as `EquityTable` loads them.
#[derive(Clone, Debug)]
pub struct EquityTable {
    /// 2 players: the opener's side's chance, by (opener's display score, the other's), from
    /// `low[2]` up; 4 players likewise from `low[4]`.
    pub w2: Vec<Vec<f64>>,
    pub w4: Vec<Vec<f64>>,
    /// 3 players: for each triple of display scores from the opener on (61 each), the first
    /// two sides' chances as 16-bit fractions.
    pub w3: Vec<u16>,
    /// The lowest display score each player count's table keeps (by player count).
    pub low: [i32; 5],
}

impl EquityTable {
    fn index(&self, players: usize, display: i32) -> usize {
        let low = self.low[players];
        (display.max(low).min(TARGET - 1) - low) as usize
    }

    /// Each side's chance when `opener_side` opens (display scores below 61).
    fn opening(&self, players: usize, display: &[i32; 4], opener_side: usize) -> Values {
        let mut out = [0.0; 4];
        if side_count(players) == 2 {
            let table = if players == 2 { &self.w2 } else { &self.w4 };
            let mine = self.index(players, display[opener_side]);
            let theirs = self.index(players, display[1 - opener_side]);
            let p = table[mine][theirs];
            out[opener_side] = p;
            out[1 - opener_side] = 1.0 - p;
            return out;
        }
        let rel: Vec<usize> = (0..3)
            .map(|j| self.index(3, display[(opener_side + j) % 3]))
            .collect();
        let at = ((rel[0] * 61 + rel[1]) * 61 + rel[2]) * 2;
        let first = self.w3[at] as f64 / SCALE;
        let second = self.w3[at + 1] as f64 / SCALE;
        let rest = 1.0 - first - second;
        let rel_p = [first, second, if rest > 0.0 { rest } else { 0.0 }];
        for (side, value) in out.iter_mut().enumerate().take(3) {
            *value = rel_p[(side + 3 - opener_side) % 3];
        }
        out
    }

    /// Each side's chance to win from raw `scores` at the start of a round opened by seat
    /// `opener` (None: by a lot over the seats, R6/R8). A side at 305 has won (R30).
    pub fn win_probabilities(
        &self,
        players: usize,
        scores: &[i32],
        opener: Option<usize>,
    ) -> Values {
        let sides = side_count(players);
        let mut out = [0.0; 4];
        if let Some(won) = (0..sides).find(|&s| scores[s] == TARGET_RAW) {
            out[won] = 1.0;
            return out;
        }
        let mut display = [0; 4];
        for s in 0..sides {
            display[s] = scores[s].div_euclid(5);
        }
        if let Some(opener) = opener {
            return self.opening(players, &display, side_of(players, opener));
        }
        for seat in 0..players {
            let p = self.opening(players, &display, side_of(players, seat));
            for side in 0..sides {
                out[side] += p[side] / players as f64;
            }
        }
        out
    }
}
