//! The observation tensor and the action mask of one seat, the twins of
//! `exact61.bots.observation.observe` and `action_mask` (with the credits block): the same
//! float32 values, bit for bit, from the engine's position instead of a `SeatView`.
//!
//! The layout is not defined here. Python's `OBSERVATION_SLICES` is the one definition of
//! where each block lies, and `exact61.research.vector` hands it over (with the action space,
//! `encoding.ACTIONS` as engine moves) when it builds a batch; `ObservationLayout::new` checks
//! that every block is one this module writes, at the size the rules give it, and refuses
//! anything else rather than leave a block unwritten.

use crate::engine::{side_count, side_of, Position, IN_PLAY, TARGET_RAW};
use crate::tables::{bits, bits32, pips, DRAW, MOVE_COUNT, PASS, PLACEMENTS, POINT_COUNT};
use crate::tables::{MOVE_STRIDE, TILE_COUNT};

/// Seats the observation has room for (`MAX_PLAYERS`).
const MAX_PLAYERS: usize = 4;

/// Where each block of the observation lies in a row (`OBSERVATION_SLICES`' starts), its
/// size, and the scale of a seat's passes (`MAX_PASSES`).
#[derive(Clone, Debug, PartialEq)]
pub struct ObservationLayout {
    pub size: usize,
    players: usize,
    hand: usize,
    pending_draw: usize,
    table: usize,
    free_points: usize,
    open_values: usize,
    end_sum: usize,
    to_act: usize,
    opener: usize,
    hand_sizes: usize,
    boneyard: usize,
    draws: usize,
    passes: usize,
    played: usize,
    scores: usize,
    credits: usize,
    max_passes: f64,
    pips_in_set: f64,
}

impl ObservationLayout {
    /// The layout from its blocks, `(name, start, stop)` as `OBSERVATION_SLICES` has them, in a
    /// row of `size` floats; `actions` is the size of the action space (the credits block).
    /// Err names the first block that is unknown, missing, of the wrong size or out of the row.
    pub fn new(
        blocks: &[(String, usize, usize)],
        size: usize,
        max_passes: f64,
        actions: usize,
    ) -> Result<Self, String> {
        let expected: [(&str, usize); 16] = [
            ("players", 3),
            ("hand", TILE_COUNT),
            ("pending_draw", TILE_COUNT),
            ("table", TILE_COUNT),
            ("free_points", POINT_COUNT),
            ("open_values", 7),
            ("end_sum", 1),
            ("to_act", MAX_PLAYERS),
            ("opener", MAX_PLAYERS),
            ("hand_sizes", MAX_PLAYERS),
            ("boneyard", 1),
            ("draws", MAX_PLAYERS),
            ("passes", MAX_PLAYERS),
            ("played", MAX_PLAYERS * TILE_COUNT),
            ("scores", 3),
            ("credits", actions),
        ];
        let mut starts = [usize::MAX; 16];
        for (name, start, stop) in blocks {
            let Some(k) = expected.iter().position(|(known, _)| known == name) else {
                return Err(format!(
                    "the native environment does not write the observation's block '{name}'"
                ));
            };
            let want = expected[k].1;
            if stop < start || stop - start != want || *stop > size {
                return Err(format!(
                    "the observation's block '{name}' is {start}..{stop} of {size}: the native \
                     environment writes it as {want} floats within the row"
                ));
            }
            starts[k] = *start;
        }
        if let Some(k) = starts.iter().position(|&s| s == usize::MAX) {
            return Err(format!(
                "the observation has no block '{}', which the native environment writes",
                expected[k].0
            ));
        }
        if max_passes.is_nan() || max_passes <= 0.0 {
            return Err(format!(
                "the scale of passes must be positive, not {max_passes}"
            ));
        }
        let pips_in_set = (0..TILE_COUNT).map(|t| pips(t) as u32).sum::<u32>();
        Ok(ObservationLayout {
            size,
            players: starts[0],
            hand: starts[1],
            pending_draw: starts[2],
            table: starts[3],
            free_points: starts[4],
            open_values: starts[5],
            end_sum: starts[6],
            to_act: starts[7],
            opener: starts[8],
            hand_sizes: starts[9],
            boneyard: starts[10],
            draws: starts[11],
            passes: starts[12],
            played: starts[13],
            scores: starts[14],
            credits: starts[15],
            max_passes,
            pips_in_set: f64::from(pips_in_set),
        })
    }
}

/// The action space: each action number's engine move (`encoding.ACTIONS`), and back.
#[derive(Clone, Debug)]
pub struct ActionSpace {
    moves: Vec<u16>,
    /// By engine move, its action number (`u16::MAX` for none).
    numbers: Vec<u16>,
}

impl ActionSpace {
    /// The space whose action k is engine move `moves[k]`. Err unless every move is a real one
    /// and listed once, and every placement, the draw and the pass are there (so every legal
    /// move has a number).
    pub fn new(moves: &[u16]) -> Result<Self, String> {
        let mut numbers = vec![u16::MAX; MOVE_COUNT];
        for (k, &m) in moves.iter().enumerate() {
            let real =
                m == DRAW || m == PASS || PLACEMENTS.get(m as usize).is_some_and(|p| p.is_some());
            if !real || k >= u16::MAX as usize {
                return Err(format!("action {k} is no move of the engine ({m})"));
            }
            if numbers[m as usize] != u16::MAX {
                return Err(format!("move {m} is listed twice in the action space"));
            }
            numbers[m as usize] = k as u16;
        }
        let every = (0..MOVE_COUNT).all(|m| {
            let real = m == DRAW as usize || m == PASS as usize || PLACEMENTS[m].is_some();
            !real || numbers[m] != u16::MAX
        });
        if !every {
            return Err("the action space leaves out a move the engine can make".into());
        }
        Ok(ActionSpace {
            moves: moves.to_vec(),
            numbers,
        })
    }

    /// How many actions there are.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Action `k`'s engine move (`k` must be below `len()`).
    pub fn move_of(&self, k: usize) -> u16 {
        self.moves[k]
    }

    /// The action number of an engine move the space has.
    pub fn number_of(&self, m: u16) -> usize {
        self.numbers[m as usize] as usize
    }
}

/// What a seat saw of its round besides the position: each seat's draws and passes this round
/// and the tiles it placed (the public history, as counts and tiles).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundCounts {
    pub draws: [u16; MAX_PLAYERS],
    pub passes: [u16; MAX_PLAYERS],
    pub played: [u32; MAX_PLAYERS],
}

impl RoundCounts {
    /// Count move `m`, which `seat` is about to make.
    pub fn count(&mut self, seat: usize, m: u16) {
        if m == DRAW {
            self.draws[seat] += 1;
        } else if m == PASS {
            self.passes[seat] += 1;
        } else {
            self.played[seat] |= 1 << (m as usize / MOVE_STRIDE);
        }
    }
}

/// `x` as numpy stores a Python float in a float32 array: the double rounded to nearest.
#[inline]
fn f32_of(x: f64) -> f32 {
    x as f32
}

/// Write `observe(match.view(seat))` into `row` and `action_mask(view.legal_actions)` into
/// `mask`, for the round `position` (the one in play, or the last one once it is over: then
/// the hands are put away, as between rounds) after the moves `counts` counted. `legal` is the
/// legal moves of the seat to act, as the match lists them.
#[allow(clippy::too_many_arguments)]
pub fn write(
    layout: &ObservationLayout,
    actions: &ActionSpace,
    seat: usize,
    position: &Position,
    legal: &[u16],
    counts: &RoundCounts,
    row: &mut [f32],
    mask: &mut [i8],
) {
    row.fill(0.0);
    mask.fill(0);
    let players = position.players as usize;
    let rel = |s: usize| (s + players - seat) % players;
    let tiles = TILE_COUNT as f64;
    let in_play = position.end == IN_PLAY;
    if in_play {
        for t in bits32(position.hand_of(seat)) {
            row[layout.hand + t] = 1.0;
        }
        if position.to_act as usize == seat {
            if position.pending >= 0 {
                row[layout.pending_draw + position.pending as usize] = 1.0;
            }
            let layout_now = position.layout();
            for &m in legal {
                let k = actions.number_of(m);
                mask[k] = 1;
                if m < DRAW {
                    let credit = layout_now.credit_of(m);
                    row[layout.credits + k] = f32_of(f64::from(credit) / f64::from(TARGET_RAW));
                }
            }
        }
    }
    row[layout.players + players - 2] = 1.0;
    let mut on_table = 0u32;
    for (s, &placed) in counts.played.iter().enumerate().take(players) {
        on_table |= placed;
        let base = layout.played + rel(s) * TILE_COUNT;
        for t in bits32(placed) {
            row[base + t] = 1.0;
        }
    }
    for t in bits32(on_table) {
        row[layout.table + t] = 1.0;
    }
    for p in bits(position.free) {
        row[layout.free_points + p] = 1.0;
    }
    for v in 0..7 {
        if position.open >> v & 1 != 0 {
            row[layout.open_values + v] = 1.0;
        }
    }
    row[layout.end_sum] = f32_of(f64::from(position.end_sum) / layout.pips_in_set);
    if in_play {
        row[layout.to_act + rel(position.to_act as usize)] = 1.0;
    }
    row[layout.opener + rel(position.opener as usize)] = 1.0;
    for s in 0..players {
        // between rounds every hand is put away: all sizes 0, and no boneyard
        let size = if in_play {
            position.hand_of(s).count_ones()
        } else {
            0
        };
        row[layout.hand_sizes + rel(s)] = f32_of(f64::from(size) / tiles);
        row[layout.draws + rel(s)] = f32_of(f64::from(counts.draws[s]) / tiles);
        row[layout.passes + rel(s)] = f32_of(f64::from(counts.passes[s]) / layout.max_passes);
    }
    let boneyard = if in_play { position.boneyard_left() } else { 0 };
    row[layout.boneyard] = f32_of(boneyard as f64 / tiles);
    let sides = side_count(players);
    let own = side_of(players, seat);
    for side in 0..sides {
        let raw = f64::from(position.scores[side]) / f64::from(TARGET_RAW);
        row[layout.scores + (side + sides - own) % sides] = f32_of(raw.clamp(-1.0, 1.0));
    }
}
