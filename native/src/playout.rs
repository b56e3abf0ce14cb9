//! Whole matches of the simple bots, the fast twin of `Table.play_out` for a table of bots
//! that keeps one bot a seat (`simulate`, `tournament`): the same deals from the same seed
//! (`round_chance`: the lot, then 28 keys to shuffle by), the same forced actions played
//! without asking, the same bot choices from the same sources (`"{seed}:seat:{seat}"`), and
//! the same record, byte for byte (`record_text`).

use std::fmt::Write;
use std::sync::LazyLock;
use std::time::Instant;

use crate::bots::Bot;
use crate::engine::{side_count, side_of, Event, Position, BLOCK, DOMINO, IN_PLAY, TARGET};
use crate::rng::PyRandom;
use crate::tables::{high, low, DRAW, DRAWN_TILE, MOVE_STRIDE, OPENING, PASS, POINTS, TILE_COUNT};

/// R5: five tiles to each seat.
pub const HAND_SIZE: usize = 5;

/// How a round ended (`RoundEnd`).
#[derive(Clone, Debug)]
pub struct RoundEnd {
    pub kind: u8,
    /// The round winner's side: the domino maker's, the lightest hand's (None for a tie,
    /// R23), the match winner's on `target`.
    pub winner: Option<usize>,
    /// Each hand's pips, shown at settlement (None when the match ended mid-round).
    pub pips: Option<Vec<i32>>,
}

/// One round as its record keeps it.
#[derive(Clone, Debug)]
pub struct RoundLog {
    pub opener: usize,
    /// Every tile: the hands in seat order, then the boneyard in draw order.
    pub deal: [u8; TILE_COUNT],
    /// Each action as the log codes it: `move * 4 + seat`, a draw `(DRAWN_TILE + tile) * 4 + seat`.
    pub steps: Vec<u16>,
    pub events: Vec<Event>,
    pub end: Option<RoundEnd>,
}

/// A running FNV-1a digest of every action's ordered legal moves, choice, events, scores and
/// next seat: what the lockstep test compares with the Python engine's (`tests/core`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Digest(pub u64);

impl Digest {
    pub const START: Digest = Digest(0xcbf2_9ce4_8422_2325);

    pub fn push(&mut self, value: i64) {
        self.0 = (self.0 ^ value as u64).wrapping_mul(0x0100_0000_01b3);
    }

    /// An event's fields in the Python event's order (`Event::fields`): its kind (1 play,
    /// 2 domino, 3 block), seat, side, raw, acceptance, then a domino's or a block's own.
    pub fn push_event(&mut self, event: &Event) {
        let fields = event.fields();
        self.push_all(&[
            fields.kind as i64,
            fields.seat as i64,
            fields.side as i64,
            fields.raw as i64,
            fields.accepted as i64,
        ]);
        fields.own().iter().for_each(|&v| self.push(v as i64));
    }

    fn push_all(&mut self, values: &[i64]) {
        for &v in values {
            self.push(v);
        }
    }
}

/// A whole match, and how long each seat's bot thought (when asked to time them).
#[derive(Clone, Debug)]
pub struct MatchLog {
    pub players: usize,
    pub rounds: Vec<RoundLog>,
    pub scores: [i32; 4],
    pub winner: Option<usize>,
    pub decisions: [u32; 4],
    pub nanos: [u128; 4],
    /// Every action's digest, chained (`Digest`).
    pub digest: Digest,
}

/// `round_chance`: the lot (R6, R8), then the deal (R5), from `rng`: always the same share.
pub fn round_chance(rng: &mut PyRandom, players: usize) -> (usize, [u8; TILE_COUNT]) {
    let lot = rng.randrange(players as u64) as usize;
    // Sorting the tiles by random keys, as `Deal.shuffled` does. A key is k / 2**53 for a
    // 53-bit k, so the tiles sort as the numbers k * 32 + tile: equal keys keep the tiles'
    // order, as Python's stable sort does.
    let mut keyed = [0u64; TILE_COUNT];
    for (t, key) in keyed.iter_mut().enumerate() {
        let k = (rng.random() * 9_007_199_254_740_992.0) as u64; // exact: random() is k / 2**53
        *key = k << 5 | t as u64;
    }
    keyed.sort_unstable();
    (lot, keyed.map(|key| (key & 31) as u8))
}

/// R23: the side of the lightest single hand, or None when opposing sides share it.
pub fn block_winner(players: usize, pips: &[i32]) -> Option<usize> {
    let lightest = *pips[..players].iter().min()?;
    let mut sides = (0..players)
        .filter(|&s| pips[s] == lightest)
        .map(|s| side_of(players, s));
    let first = sides.next()?;
    sides.all(|side| side == first).then_some(first)
}

/// Play a match of `bots` (one a seat) to its end from `seed`: `chance` is
/// `random.Random(seed)`, `seed_text` is `str(seed)` (the bots' sources are named by it).
pub fn play_match(
    players: usize,
    mut chance: PyRandom,
    seed_text: &str,
    bots: &[Bot],
    timed: bool,
) -> MatchLog {
    let mut sources: Vec<PyRandom> = (0..players)
        .map(|seat| PyRandom::from_str(&format!("{seed_text}:seat:{seat}")))
        .collect();
    let mut log = MatchLog {
        players,
        rounds: Vec::new(),
        scores: [0; 4],
        winner: None,
        decisions: [0; 4],
        nanos: [0; 4],
        digest: Digest::START,
    };
    let sides = side_count(players);
    let mut required_opener: Option<usize> = None;
    let mut legal = Vec::new();
    loop {
        let (lot, deal) = round_chance(&mut chance, players);
        let opener = required_opener.unwrap_or(lot);
        let hands: Vec<Vec<u8>> = (0..players)
            .map(|s| deal[HAND_SIZE * s..HAND_SIZE * (s + 1)].to_vec())
            .collect();
        let boneyard = &deal[HAND_SIZE * players..];
        let mut position = Position::start(&hands, boneyard, opener, &log.scores[..sides], true);
        let mut round = RoundLog {
            opener,
            deal,
            steps: Vec::new(),
            events: Vec::new(),
            end: None,
        };
        let mut last_seat = opener;
        loop {
            position.legal_moves(&mut legal);
            if legal.is_empty() {
                break;
            }
            let seat = position.to_act as usize;
            let m = if legal.len() == 1 {
                legal[0]
            } else {
                let started = timed.then(Instant::now);
                let choice = bots[seat].choose(&position, &legal, &mut sources[seat]);
                if let Some(started) = started {
                    log.decisions[seat] += 1;
                    log.nanos[seat] += started.elapsed().as_nanos();
                }
                legal[choice]
            };
            let code = if m == DRAW {
                let tile = position.boneyard[position.drawn as usize] as u16;
                (DRAWN_TILE + tile) * 4 + seat as u16
            } else {
                m * 4 + seat as u16
            };
            round.steps.push(code);
            let before = round.events.len();
            position.play(m, &mut round.events);
            last_seat = seat;
            let digest = &mut log.digest;
            digest.push(seat as i64);
            digest.push(legal.len() as i64);
            legal.iter().for_each(|&l| digest.push(l as i64));
            digest.push(m as i64);
            round.events[before..]
                .iter()
                .for_each(|e| digest.push_event(e));
            position.scores[..sides]
                .iter()
                .for_each(|&s| digest.push(s as i64));
            digest.push(position.to_act as i64);
        }
        log.scores = position.scores;
        log.winner = position.won_by();
        let pips = position.hand_pips();
        let end = match position.end {
            DOMINO => RoundEnd {
                kind: DOMINO,
                winner: Some(side_of(players, last_seat)),
                pips: Some(pips[..players].to_vec()),
            },
            BLOCK => RoundEnd {
                kind: BLOCK,
                winner: block_winner(players, &pips),
                pips: Some(pips[..players].to_vec()),
            },
            _ => RoundEnd {
                kind: TARGET,
                winner: log.winner,
                pips: None,
            },
        };
        debug_assert!(position.end != IN_PLAY);
        let domino = end.kind == DOMINO;
        round.end = Some(end);
        log.rounds.push(round);
        if log.winner.is_some() {
            return log;
        }
        required_opener = domino.then_some(last_seat); // R8
    }
}

/// A match of uniformly random moves on search positions (moves listed in canonical order),
/// deals, lots and moves all drawn from `rng`: the engine's own playouts, with nothing kept.
/// Returns the actions played. `benchmarks/bench_selfplay.py` plays the same loop on the
/// Python engine, which makes the same moves.
pub fn random_playout(players: usize, rng: &mut PyRandom) -> u64 {
    let sides = side_count(players);
    let mut scores = [0; 4];
    let mut required_opener = None;
    let mut legal = Vec::new();
    let mut actions = 0;
    loop {
        let (lot, deal) = round_chance(rng, players);
        let hands: [&[u8]; 4] = std::array::from_fn(|s| &deal[HAND_SIZE * s..HAND_SIZE * (s + 1)]);
        let opener = required_opener.unwrap_or(lot);
        let mut position = Position::start(
            &hands[..players],
            &deal[HAND_SIZE * players..],
            opener,
            &scores[..sides],
            false,
        );
        let mut last = opener;
        while position.end == IN_PLAY {
            position.legal_moves(&mut legal);
            last = position.to_act as usize;
            let m = legal[(rng.random() * legal.len() as f64) as usize];
            position.play(m, &mut crate::engine::Quiet);
            actions += 1;
        }
        scores = position.scores;
        if position.won_by().is_some() {
            return actions;
        }
        required_opener = (position.end == DOMINO).then_some(last); // R8
    }
}

/// A match's totals, as `simulate`'s summary counts them (`MatchTotals`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub rounds: usize,
    pub actions: usize,
    pub domino: usize,
    pub block: usize,
    pub target: usize,
    pub rejected: usize,
}

impl MatchLog {
    pub fn totals(&self) -> Totals {
        let mut totals = Totals {
            rounds: self.rounds.len(),
            ..Totals::default()
        };
        for round in &self.rounds {
            totals.actions += round.steps.len();
            match round.end.as_ref().map(|end| end.kind) {
                Some(DOMINO) => totals.domino += 1,
                Some(BLOCK) => totals.block += 1,
                Some(TARGET) => totals.target += 1,
                _ => {}
            }
            totals.rejected += round.events.iter().filter(|e| !e.accepted()).count();
        }
        totals
    }

    /// The match as one line of `exact61-match/1` JSON, after `head` (the record's text up to
    /// its rounds, `records.record_head`): as `records.record_text` writes it, byte for byte.
    pub fn record_text(&self, head: &str) -> String {
        let mut out = String::with_capacity(16_384);
        out.push_str(head);
        out.push_str(",\"rounds\":[");
        for (r, round) in self.rounds.iter().enumerate() {
            if r > 0 {
                out.push(',');
            }
            write_round(&mut out, self.players, round);
        }
        out.push_str("],\"scores\":[");
        let sides = side_count(self.players);
        write_list(&mut out, self.scores[..sides].iter());
        out.push_str("],\"winner\":");
        write_option(&mut out, self.winner);
        out.push('}');
        out
    }
}

fn write_list<T: std::fmt::Display>(out: &mut String, items: impl Iterator<Item = T>) {
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{item}");
    }
}

fn write_option(out: &mut String, value: Option<usize>) {
    match value {
        Some(v) => {
            let _ = write!(out, "{v}");
        }
        None => out.push_str("null"),
    }
}

/// Each tile's text, `[low,high]`, made once (a record writes hundreds).
static TILE_TEXTS: LazyLock<Vec<String>> = LazyLock::new(|| {
    (0..TILE_COUNT)
        .map(|t| format!("[{},{}]", low(t), high(t)))
        .collect()
});

/// Each step code's action text, made once (`records._ActionTexts`).
static ACTION_TEXTS: LazyLock<Vec<String>> = LazyLock::new(|| {
    (0..(DRAWN_TILE as usize + TILE_COUNT) * 4)
        .map(|code| {
            let mut text = String::new();
            write_action(&mut text, code as u16);
            text
        })
        .collect()
});

/// Each ordinary placement's event text, by seat, side, raw / 5 and acceptance, made once.
static PLAY_EVENT_TEXTS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let mut out = Vec::new();
    for seat in 0..4u8 {
        for side in 0..4u8 {
            for fives in 0..=PLAY_RAW_MAX / 5 {
                for accepted in [false, true] {
                    let mut text = String::new();
                    let raw = fives * 5;
                    write_event(
                        &mut text,
                        &Event::Play {
                            seat,
                            side,
                            raw,
                            accepted,
                        },
                    );
                    out.push(text);
                }
            }
        }
    }
    out
});

/// No ordinary placement's credit exceeds all the tiles' pips (R14).
const PLAY_RAW_MAX: i32 = 170;

fn play_event_text(seat: u8, side: u8, raw: i32, accepted: bool) -> &'static str {
    let at = ((seat as usize * 4 + side as usize) * (PLAY_RAW_MAX as usize / 5 + 1)
        + raw as usize / 5)
        * 2
        + accepted as usize;
    &PLAY_EVENT_TEXTS[at]
}

fn write_tile(out: &mut String, t: usize) {
    out.push_str(&TILE_TEXTS[t]);
}

fn write_tiles(out: &mut String, tiles: &[u8]) {
    for (i, &t) in tiles.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_tile(out, t as usize);
    }
}

fn write_round(out: &mut String, players: usize, round: &RoundLog) {
    let _ = write!(out, "{{\"opener\":{},\"hands\":[", round.opener);
    for seat in 0..players {
        if seat > 0 {
            out.push(',');
        }
        out.push('[');
        write_tiles(out, &round.deal[HAND_SIZE * seat..HAND_SIZE * (seat + 1)]);
        out.push(']');
    }
    out.push_str("],\"boneyard\":[");
    write_tiles(out, &round.deal[HAND_SIZE * players..]);
    out.push_str("],\"actions\":[");
    for (i, &code) in round.steps.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&ACTION_TEXTS[code as usize]);
    }
    out.push_str("],\"events\":[");
    for (i, event) in round.events.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        match *event {
            Event::Play {
                seat,
                side,
                raw,
                accepted,
            } if (0..=PLAY_RAW_MAX).contains(&raw) && raw % 5 == 0 => {
                out.push_str(play_event_text(seat, side, raw, accepted));
            }
            _ => write_event(out, event),
        }
    }
    out.push_str("],\"end\":");
    match &round.end {
        None => out.push_str("null"),
        Some(end) => {
            let kind = match end.kind {
                DOMINO => "domino",
                BLOCK => "block",
                _ => "target",
            };
            let _ = write!(out, "{{\"kind\":\"{kind}\",\"round_winner\":");
            write_option(out, end.winner);
            if let Some(pips) = &end.pips {
                out.push_str(",\"hand_pips\":[");
                write_list(out, pips.iter());
                out.push(']');
            }
            out.push('}');
        }
    }
    out.push('}');
}

/// An action as the format writes it (`records.action_to_json`): a draw names its tile.
fn write_action(out: &mut String, code: u16) {
    let (m, seat) = (code / 4, code % 4);
    let _ = write!(out, "{{\"seat\":{seat},\"type\":");
    if m >= DRAWN_TILE {
        out.push_str("\"draw\",\"tile\":");
        write_tile(out, (m - DRAWN_TILE) as usize);
    } else if m == PASS {
        out.push_str("\"pass\"");
    } else if m == DRAW {
        out.push_str("\"draw\""); // as every seat saw it: a record's draws name their tile
    } else {
        let (t, p) = (m as usize / MOVE_STRIDE, m as usize % MOVE_STRIDE);
        out.push_str("\"play\",\"tile\":");
        write_tile(out, t);
        out.push_str(",\"at\":");
        if p == OPENING {
            out.push_str("null");
        } else {
            let point = POINTS[p];
            out.push('[');
            write_tile(out, point.tile);
            let _ = write!(out, ",\"{}\"]", point.end.name());
        }
    }
    out.push('}');
}

/// An event as the format writes it (`records.event_to_json`).
fn write_event(out: &mut String, event: &Event) {
    let (kind, seat, side, raw, accepted) = match *event {
        Event::Play {
            seat,
            side,
            raw,
            accepted,
        } => ("play", seat, side, raw, accepted),
        Event::Domino {
            seat,
            side,
            raw,
            accepted,
            ..
        } => ("domino", seat, side, raw, accepted),
        Event::Block {
            seat,
            side,
            raw,
            accepted,
            ..
        } => ("block", seat, side, raw, accepted),
    };
    let _ = write!(
        out,
        "{{\"kind\":\"{kind}\",\"seat\":{seat},\"side\":{side},\"raw\":{raw},\"accepted\":{accepted}"
    );
    match *event {
        Event::Domino {
            play_raw,
            opponents_raw,
            partner_raw,
            opponents_pips,
            partner_pips,
            ..
        } => {
            let _ = write!(
                out,
                ",\"play_raw\":{play_raw},\"opponents_raw\":{opponents_raw},\"partner_raw\":{partner_raw},\"opponents_pips\":{opponents_pips},\"partner_pips\":{partner_pips}"
            );
        }
        Event::Block {
            pips, difference, ..
        } => {
            let _ = write!(out, ",\"pips\":{pips},\"difference\":{difference}");
        }
        Event::Play { .. } => {}
    }
    out.push('}');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::TARGET_RAW;

    #[test]
    fn a_match_ends_with_a_side_on_exactly_305() {
        let log = play_match(
            3,
            PyRandom::from_u64(7),
            "7",
            &[Bot::Greedy, Bot::Random, Bot::Heuristic],
            false,
        );
        let winner = log.winner.expect("a winner");
        assert_eq!(log.scores[winner], TARGET_RAW);
        assert!(log.scores[..3]
            .iter()
            .all(|&s| s <= TARGET_RAW && s % 5 == 0));
        let totals = log.totals();
        assert_eq!(totals.rounds, log.rounds.len());
        assert_eq!(totals.domino + totals.block + totals.target, totals.rounds);
    }

    #[test]
    fn r23_a_shared_lightest_hand_wins_no_side() {
        assert_eq!(block_winner(2, &[5, 5]), None);
        assert_eq!(block_winner(4, &[5, 9, 5, 7]), Some(0)); // partners share it
        assert_eq!(block_winner(3, &[9, 4, 6]), Some(1));
    }
}
