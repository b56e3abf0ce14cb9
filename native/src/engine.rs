//! The rules engine: the twin of `exact61.core.engine`, move for move.
//!
//! The Python engine defines what the rules do; this one does the same on the same
//! representation (moves as small ints, hands and free attach points as bit masks), and
//! `tests/core/test_lockstep.py` holds the two equal action by action. A position here is a
//! plain value: copying one is a copy of a few hundred bytes, which is what a search does
//! before every move it tries.
//!
//! A match's position keeps an `Order` (the Python engine's `Book`, less the logs): the order
//! the match lists legal moves in, each hand's tiles as they came and each value's free points
//! as they opened, which a seeded bot's choice depends on. A search's position has none and
//! lists its moves in canonical order.

use crate::tables::{
    bits, bits32, high, is_double, low, pips, shape_of, value_mask, Placement, ACCEPTS,
    CLASS_POINTS, DRAW, FITS, FITS_ANY_SEAT, HAND, HAND_BITS, MOVE_STRIDE, OPENING, PASS,
    PLACEMENTS, POINTS, TILE_COUNT, VALUE_POINTS,
};

/// R3: exactly 61 display points.
pub const TARGET_RAW: i32 = 305;

/// How a round ended (`Position::end`); `IN_PLAY` while it goes on.
pub const IN_PLAY: u8 = 0;
pub const DOMINO: u8 = 1;
pub const BLOCK: u8 = 2;
pub const TARGET: u8 = 3;

/// R2: with 4 players two partnerships; otherwise every seat is its own side.
pub const fn side_count(players: usize) -> usize {
    if players == 4 {
        2
    } else {
        players
    }
}

/// R2: the side a seat scores for (partners sit opposite).
pub const fn side_of(players: usize, seat: usize) -> usize {
    if players == 4 {
        seat % 2
    } else {
        seat
    }
}

/// R17: to the nearest multiple of 5; remainders 1, 2 go down, 3, 4 go up.
pub const fn round5(pips: i32) -> i32 {
    (pips + 2) / 5 * 5
}

/// R4: an event is accepted unless it would take the side above 305 raw.
pub const fn accepts(score: i32, raw: i32) -> bool {
    score + raw <= TARGET_RAW
}

/// R15: a positive multiple of 5 credits that many raw points; any other sum credits 0.
pub const fn credit_for(end_sum: i32) -> i32 {
    if end_sum > 0 && end_sum % 5 == 0 {
        end_sum
    } else {
        0
    }
}

/// A scoring event, as the Python engine's `PlayEvent`, `DominoEvent` and `BlockEvent`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// R16: the credit of an ordinary placement.
    Play {
        seat: u8,
        side: u8,
        raw: i32,
        accepted: bool,
    },
    /// R19: the last placement, the opponents' pips and the partner's deduction as one event.
    Domino {
        seat: u8,
        side: u8,
        raw: i32,
        accepted: bool,
        play_raw: i32,
        opponents_raw: i32,
        partner_raw: i32,
        opponents_pips: i32,
        partner_pips: i32,
    },
    /// R21-R22: one hand's credit in a blocked round's settlement.
    Block {
        seat: u8,
        side: u8,
        raw: i32,
        accepted: bool,
        pips: i32,
        difference: i32,
    },
}

/// An event's fields in the order of the Python event's (`PlayEvent`, `DominoEvent`,
/// `BlockEvent`): the four every event has, then its own. The lockstep digest pushes them in
/// this order and the Python event is made from them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventFields {
    /// 1 play, 2 domino, 3 block: the digest's number for the kind.
    pub kind: u8,
    pub seat: u8,
    pub side: u8,
    pub raw: i32,
    pub accepted: bool,
    own: [i32; 5],
    own_count: usize,
}

impl EventFields {
    /// The fields after `accepted`: none for a play, a domino's five, a block's two.
    pub fn own(&self) -> &[i32] {
        &self.own[..self.own_count]
    }
}

impl Event {
    /// The event's fields, in the Python event's order.
    pub fn fields(&self) -> EventFields {
        let (kind, seat, side, raw, accepted, own, own_count) = match *self {
            Event::Play {
                seat,
                side,
                raw,
                accepted,
            } => (1, seat, side, raw, accepted, [0; 5], 0),
            Event::Domino {
                seat,
                side,
                raw,
                accepted,
                play_raw,
                opponents_raw,
                partner_raw,
                opponents_pips,
                partner_pips,
            } => (
                2,
                seat,
                side,
                raw,
                accepted,
                [
                    play_raw,
                    opponents_raw,
                    partner_raw,
                    opponents_pips,
                    partner_pips,
                ],
                5,
            ),
            Event::Block {
                seat,
                side,
                raw,
                accepted,
                pips,
                difference,
            } => (3, seat, side, raw, accepted, [pips, difference, 0, 0, 0], 2),
        };
        EventFields {
            kind,
            seat,
            side,
            raw,
            accepted,
            own,
            own_count,
        }
    }

    pub fn raw(&self) -> i32 {
        match *self {
            Event::Play { raw, .. } | Event::Domino { raw, .. } | Event::Block { raw, .. } => raw,
        }
    }

    pub fn accepted(&self) -> bool {
        match *self {
            Event::Play { accepted, .. }
            | Event::Domino { accepted, .. }
            | Event::Block { accepted, .. } => accepted,
        }
    }
}

/// Where `play` puts the events it causes: a match keeps them, a search has no use for them.
pub trait Events {
    fn push(&mut self, event: Event);
}

/// Events thrown away (a search's).
pub struct Quiet;

impl Events for Quiet {
    #[inline]
    fn push(&mut self, _: Event) {}
}

impl Events for Vec<Event> {
    fn push(&mut self, event: Event) {
        Vec::push(self, event);
    }
}

/// The order a match lists its legal moves in (the Python engine's `Book`, less the logs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Order {
    /// Each hand's tiles in the order they came.
    hands: [[u8; TILE_COUNT]; 4],
    hand_len: [u8; 4],
    /// Per pip value, the free points in the order they opened (at most 10 accept a value).
    free: [[u8; 10]; 7],
    free_len: [u8; 7],
}

impl Order {
    fn new<H: AsRef<[u8]>>(hands: &[H]) -> Self {
        let mut order = Order {
            hands: [[0; TILE_COUNT]; 4],
            hand_len: [0; 4],
            free: [[0; 10]; 7],
            free_len: [0; 7],
        };
        for (seat, hand) in hands.iter().enumerate() {
            for &t in hand.as_ref() {
                order.add_tile(seat, t);
            }
        }
        order
    }

    /// An order from its lists: each hand's tiles, each value's free points.
    pub fn from_lists(hands: &[Vec<u8>], free: &[Vec<u8>]) -> Self {
        let mut order = Order::new(hands);
        for points in free {
            for &p in points {
                order.open_point(p as usize);
            }
        }
        order
    }

    /// Seat `seat`'s tiles in the order they came.
    pub fn hand(&self, seat: usize) -> &[u8] {
        &self.hands[seat][..self.hand_len[seat] as usize]
    }

    /// The free points accepting `value`, in the order they opened.
    pub fn free_points(&self, value: usize) -> &[u8] {
        &self.free[value][..self.free_len[value] as usize]
    }

    fn add_tile(&mut self, seat: usize, t: u8) {
        self.hands[seat][self.hand_len[seat] as usize] = t;
        self.hand_len[seat] += 1;
    }

    fn remove_tile(&mut self, seat: usize, t: u8) {
        let len = self.hand_len[seat] as usize;
        let hand = &mut self.hands[seat];
        if let Some(i) = hand[..len].iter().position(|&x| x == t) {
            hand.copy_within(i + 1..len, i);
            self.hand_len[seat] -= 1;
        }
    }

    fn open_point(&mut self, point: usize) {
        let value = POINTS[point].value as usize;
        let len = self.free_len[value] as usize;
        if !self.free[value][..len].contains(&(point as u8)) {
            self.free[value][len] = point as u8;
            self.free_len[value] += 1;
        }
    }

    fn close_point(&mut self, point: usize) {
        let value = POINTS[point].value as usize;
        let len = self.free_len[value] as usize;
        let free = &mut self.free[value];
        if let Some(i) = free[..len].iter().position(|&x| x == point as u8) {
            free.copy_within(i + 1..len, i);
            self.free_len[value] -= 1;
        }
    }
}

/// A placement on a layout's free points, end sum and open values, at a free point it fits or
/// opening the round (R13, R14); whether it joined both line sides of a double, which opens the
/// double's side arms. What a placement does to the layout, for `Layout::place` and a
/// position's `play` and `lay`.
#[inline]
fn lay_placement(placement: &Placement, free: &mut u128, end_sum: &mut i32, open: &mut u8) -> bool {
    *free ^= placement.flip();
    *end_sum += placement.delta as i32;
    let opened_arms = placement.arms() != 0 && *free & placement.other_line() == 0;
    if opened_arms {
        // both line sides joined: the double is interior (R13, R14)
        *end_sum -= 2 * placement.value as i32;
        *free |= placement.arms();
    }
    if *free & VALUE_POINTS[placement.value as usize] == 0 {
        *open &= !(1 << placement.value);
    }
    *open |= placement.new_values;
    opened_arms
}

/// The layout alone, as far as scoring goes: its free attach points, end sum and open values
/// (what the Python engine's `Layout` keeps besides its tiles).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub free: u128,
    pub end_sum: i32,
    pub open: u8,
}

impl Layout {
    /// The layout after placement `m`, which must fit a free point or open the round (R13, R14).
    pub fn place(&mut self, m: u16) {
        let placement = PLACEMENTS[m as usize]
            .as_ref()
            .expect("a placement some tile can make");
        lay_placement(placement, &mut self.free, &mut self.end_sum, &mut self.open);
    }

    /// The credit (R15) placement `m` would earn; 0 for a draw or a pass.
    pub fn credit_of(&self, m: u16) -> i32 {
        if m >= DRAW {
            return 0;
        }
        let placement = PLACEMENTS[m as usize]
            .as_ref()
            .expect("a placement some tile can make");
        let mut end_sum = self.end_sum + placement.delta as i32;
        if placement.arms() != 0 && self.free & placement.other_line() == 0 {
            end_sum -= 2 * placement.value as i32;
        }
        credit_for(end_sum)
    }

    /// The free points tile `t` could be placed at, as moves (canonical order; none on an
    /// empty layout).
    pub fn placements_of(&self, t: usize) -> impl Iterator<Item = u16> {
        let here = if self.free == 0 {
            0
        } else {
            self.free & ACCEPTS[t]
        };
        bits(here).map(move |p| (t * MOVE_STRIDE + p) as u16)
    }

    /// The best credit tile `t` could take here (0 if it fits nowhere).
    pub fn best_credit(&self, t: usize) -> i32 {
        self.placements_of(t)
            .map(|m| self.credit_of(m))
            .max()
            .unwrap_or(0)
    }
}

/// A round as the rules see it: the twin of the Python engine's position list. A search's
/// position (no order) is about a hundred bytes, copied before every move a search tries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub players: u8,
    /// Every hand: seat s's tiles at bits `28 * s` up (bit t: tile t).
    pub hands: u128,
    /// The free attach points (bit p: point p).
    pub free: u128,
    /// A search's: how many free points of each value and kind; 0 in a match's position.
    pub shape: u64,
    /// R15: the sum of the scored contributions (R14).
    pub end_sum: i32,
    /// The values some free point accepts (bit v: pip v).
    pub open: u8,
    /// Raw, per side (R3).
    pub scores: [i32; 4],
    /// The seat to act; -1 once the round is over.
    pub to_act: i8,
    pub opener: u8,
    /// The round's whole boneyard in draw order, and how many tiles it has.
    pub boneyard: [u8; TILE_COUNT],
    pub boneyard_len: u8,
    /// How many tiles have been drawn from it.
    pub drawn: u8,
    /// R10: a drawn tile the seat must place at once, else -1.
    pub pending: i8,
    /// How the round ended (`IN_PLAY`, `DOMINO`, `BLOCK`, `TARGET`).
    pub end: u8,
    /// A match's move order; None for a search's.
    pub order: Option<Box<Order>>,
}

/// A seat's tiles within a position's hands.
#[inline]
pub fn seat_hand(seat: usize) -> u128 {
    HAND << (HAND_BITS as usize * seat)
}

#[inline]
fn tile_bit(seat: usize, t: usize) -> u128 {
    1 << (t + HAND_BITS as usize * seat)
}

impl Position {
    /// A dealt round before its first placement: each seat's tiles in the order dealt, the
    /// boneyard in draw order; the opener acts (R6-R8). With `ordered`, a match's position.
    pub fn start<H: AsRef<[u8]>>(
        hands: &[H],
        boneyard: &[u8],
        opener: usize,
        scores: &[i32],
        ordered: bool,
    ) -> Self {
        let mut packed = 0u128;
        for (seat, hand) in hands.iter().enumerate() {
            for &t in hand.as_ref() {
                packed |= tile_bit(seat, t as usize);
            }
        }
        let mut bone = [0u8; TILE_COUNT];
        bone[..boneyard.len()].copy_from_slice(boneyard);
        let mut kept = [0i32; 4];
        kept[..scores.len()].copy_from_slice(scores);
        Position {
            players: hands.len() as u8,
            hands: packed,
            free: 0,
            shape: 0,
            end_sum: 0,
            open: 0,
            scores: kept,
            to_act: opener as i8,
            opener: opener as u8,
            boneyard: bone,
            boneyard_len: boneyard.len() as u8,
            drawn: 0,
            pending: -1,
            end: IN_PLAY,
            order: ordered.then(|| Box::new(Order::new(hands))),
        }
    }

    /// A round in the middle: the tiles each seat holds (in the order received), the
    /// placements that made the layout, the boneyard still to draw, the seat to act and the
    /// drawn tile it must place (R10), if any.
    #[allow(clippy::too_many_arguments)]
    pub fn resume(
        hands: &[Vec<u8>],
        placements: &[u16],
        boneyard: &[u8],
        to_act: usize,
        opener: usize,
        scores: &[i32],
        pending: i8,
        ordered: bool,
    ) -> Self {
        let mut position = Position::start(hands, boneyard, opener, scores, ordered);
        for &m in placements {
            position.lay(m);
        }
        position.shape = shape_of(position.free);
        position.to_act = to_act as i8;
        position.pending = pending;
        position
    }

    /// A copy with other hidden tiles: every hand (in the order received) and the boneyard
    /// still to draw. A match's position gives one that lists its moves as a match does.
    pub fn redeal(&self, hands: &[Vec<u8>], boneyard: &[u8]) -> Self {
        let mut new = self.clone();
        new.hands = 0;
        for (seat, hand) in hands.iter().enumerate() {
            for &t in hand {
                new.hands |= tile_bit(seat, t as usize);
            }
        }
        new.boneyard = [0; TILE_COUNT];
        new.boneyard[..boneyard.len()].copy_from_slice(boneyard);
        new.boneyard_len = boneyard.len() as u8;
        new.drawn = 0;
        if let Some(order) = &mut new.order {
            order.hands = [[0; TILE_COUNT]; 4];
            order.hand_len = [0; 4];
            for (seat, hand) in hands.iter().enumerate() {
                for &t in hand {
                    order.add_tile(seat, t);
                }
            }
        }
        new
    }

    /// A copy to play on for a search: no order, and its shape worked out.
    pub fn for_search(&self) -> Self {
        let mut new = self.clone();
        if new.order.is_some() {
            new.order = None;
            new.shape = shape_of(new.free);
        }
        new
    }

    /// A search's position from items read one by one: no order, its shape worked out.
    pub fn for_search_with_shape(&self) -> Self {
        let mut new = self.clone();
        new.order = None;
        new.shape = shape_of(new.free);
        new
    }

    /// Placement `m` on the layout alone, its free points kept in order (how `resume` rebuilds
    /// a layout).
    fn lay(&mut self, m: u16) {
        let placement = PLACEMENTS[m as usize]
            .as_ref()
            .expect("a placement some tile can make");
        let before = self.free;
        lay_placement(placement, &mut self.free, &mut self.end_sum, &mut self.open);
        if let Some(order) = &mut self.order {
            if !placement.is_opening() {
                order.close_point(placement.point as usize);
            }
            for q in bits(self.free & !before) {
                order.open_point(q);
            }
        }
    }

    pub fn sides(&self) -> usize {
        side_count(self.players as usize)
    }

    pub fn boneyard_left(&self) -> usize {
        (self.boneyard_len - self.drawn) as usize
    }

    /// The tiles seat `seat` holds, as a mask (bit t: tile t).
    pub fn hand_of(&self, seat: usize) -> u32 {
        ((self.hands >> (HAND_BITS as usize * seat)) & HAND) as u32
    }

    /// Each seat's pips left in hand (R19-R21).
    pub fn hand_pips(&self) -> [i32; 4] {
        let mut out = [0; 4];
        for (seat, total) in out.iter_mut().enumerate().take(self.players as usize) {
            *total = bits32(self.hand_of(seat)).map(|t| pips(t) as i32).sum();
        }
        out
    }

    /// The side that reached exactly 305 raw (R30), if any.
    pub fn won_by(&self) -> Option<usize> {
        (0..self.sides()).find(|&s| self.scores[s] == TARGET_RAW)
    }

    /// The tiles the seat to act may place now, as a mask (R7, R9, R10); 0 if it must draw
    /// or pass, or the round is over.
    pub fn playable(&self) -> u32 {
        if self.end != IN_PLAY {
            return 0;
        }
        if self.pending >= 0 {
            return 1 << self.pending;
        }
        let hand = self.hand_of(self.to_act as usize);
        if self.free != 0 {
            hand & FITS[self.open as usize]
        } else {
            hand
        }
    }

    fn draw_or_pass(&self) -> u16 {
        if self.drawn < self.boneyard_len {
            DRAW
        } else {
            PASS
        }
    }

    /// Every move the seat to act may make (R7, R9-R10, R13), in the order the Python engine
    /// lists them: a match's as the match lists them (see `Order`), a search's in canonical
    /// order (by tile, then point). Nothing once the round is over.
    pub fn legal_moves(&self, out: &mut Vec<u16>) {
        out.clear();
        if self.end != IN_PLAY {
            return;
        }
        let seat = self.to_act as usize;
        if let Some(order) = &self.order {
            if self.free == 0 {
                // R7
                out.extend(
                    order
                        .hand(seat)
                        .iter()
                        .map(|&t| (t as usize * MOVE_STRIDE + OPENING) as u16),
                );
                return;
            }
            let pending = [self.pending as u8];
            let tiles: &[u8] = if self.pending >= 0 {
                &pending
            } else {
                order.hand(seat)
            };
            for &t in tiles {
                let t = t as usize;
                if value_mask(t) & self.open == 0 {
                    continue; // R9
                }
                let values: &[u8] = if is_double(t) {
                    &[low(t)][..]
                } else {
                    &[low(t), high(t)][..]
                };
                for &v in values {
                    for &p in order.free_points(v as usize) {
                        out.push((t * MOVE_STRIDE + p as usize) as u16);
                    }
                }
            }
            if out.is_empty() {
                out.push(self.draw_or_pass()); // R10
            }
            return;
        }
        let tiles = self.playable();
        if tiles == 0 {
            out.push(self.draw_or_pass());
            return;
        }
        for t in bits32(tiles) {
            let base = t * MOVE_STRIDE;
            if self.free == 0 {
                out.push((base + OPENING) as u16);
                continue;
            }
            for p in bits(self.free & ACCEPTS[t]) {
                out.push((base + p) as u16);
            }
        }
    }

    /// The legal moves with one placement for each set of equivalent ones (`move_class`):
    /// what a search needs to try; the one kept is at the lowest free point.
    pub fn distinct_moves(&self, out: &mut Vec<u16>) {
        out.clear();
        if self.end != IN_PLAY {
            return;
        }
        let tiles = self.playable();
        if tiles == 0 {
            out.push(self.draw_or_pass());
            return;
        }
        if self.free == 0 {
            out.extend(bits32(tiles).map(|t| (t * MOVE_STRIDE + OPENING) as u16));
            return;
        }
        for t in bits32(tiles) {
            let base = t * MOVE_STRIDE;
            let (lo, hi) = (low(t), high(t));
            let values: &[u8] = if lo == hi { &[lo][..] } else { &[lo, hi][..] };
            for &v in values {
                for points in CLASS_POINTS[v as usize] {
                    let here = self.free & points;
                    if here != 0 {
                        out.push((base + here.trailing_zeros() as usize) as u16);
                    }
                }
            }
        }
    }

    /// The credit (R15) placement `m` would earn; 0 for a draw or a pass.
    pub fn credit_of(&self, m: u16) -> i32 {
        self.layout().credit_of(m)
    }

    /// The layout as far as scoring goes.
    pub fn layout(&self) -> Layout {
        Layout {
            free: self.free,
            end_sum: self.end_sum,
            open: self.open,
        }
    }

    /// The tiles on the table, as a mask: those in no hand and not left in the boneyard.
    pub fn on_table(&self) -> u32 {
        let mut elsewhere = 0u32;
        for seat in 0..self.players as usize {
            elsewhere |= self.hand_of(seat);
        }
        for &t in &self.boneyard[self.drawn as usize..self.boneyard_len as usize] {
            elsewhere |= 1 << t;
        }
        !elsewhere & ((1 << TILE_COUNT) - 1)
    }

    /// Make `m`, which must be legal, for the seat to act; push the scoring events it caused,
    /// in order (R4, R10, R11, R14-R23, R30).
    pub fn play<E: Events>(&mut self, m: u16, events: &mut E) {
        if m == DRAW {
            self.draw();
            return;
        }
        if m == PASS {
            self.pass(events);
            return;
        }
        let placement = PLACEMENTS[m as usize]
            .as_ref()
            .expect("a placement some tile can make");
        let seat = self.to_act as usize;
        let opened_arms =
            lay_placement(placement, &mut self.free, &mut self.end_sum, &mut self.open);
        match &mut self.order {
            None => {
                let mut shape = self.shape as i64 + placement.shape();
                if opened_arms {
                    shape += placement.arms_shape();
                }
                self.shape = shape as u64;
            }
            Some(order) => {
                order.remove_tile(seat, placement.tile);
                if !placement.is_opening() {
                    order.close_point(placement.point as usize);
                }
                for &q in &placement.opens[..placement.open_count as usize] {
                    order.open_point(q as usize);
                }
                if opened_arms {
                    for q in placement.arm_points {
                        order.open_point(q as usize);
                    }
                }
            }
        }
        // The tile leaves the hand. Written as a subtraction (the bit is set, so it clears it)
        // so the compiler cannot narrow it to a 32-bit write into the 128-bit mask: the wide
        // reads of `hands` just after then stalled on store forwarding, a sixth of a solver's
        // time (docs/figures/speed.md).
        let hands = self.hands - tile_bit(seat, placement.tile as usize);
        self.hands = hands;
        self.pending = -1;
        let credit = if self.end_sum % 5 == 0 {
            self.end_sum
        } else {
            0
        }; // R15 (a sum of 0 credits 0 either way)
        if hands & seat_hand(seat) == 0 {
            self.settle_domino(seat, credit, events); // R18
            return;
        }
        if credit != 0 {
            // R16: its own event, target-checked (R4)
            let side = side_of(self.players as usize, seat);
            let accepted = accepts(self.scores[side], credit);
            events.push(Event::Play {
                seat: seat as u8,
                side: side as u8,
                raw: credit,
                accepted,
            });
            if accepted {
                self.scores[side] += credit;
                if self.scores[side] == TARGET_RAW {
                    // R30: the match is won at once
                    self.to_act = -1;
                    self.end = TARGET;
                    return;
                }
            }
        }
        if self.drawn >= self.boneyard_len && hands & FITS_ANY_SEAT[self.open as usize] == 0 {
            self.settle_block(events); // R11: blocked
            return;
        }
        self.to_act = self.next_seat(seat);
    }

    fn next_seat(&self, seat: usize) -> i8 {
        if seat + 1 < self.players as usize {
            seat as i8 + 1
        } else {
            0
        }
    }

    /// R10: the seat takes the boneyard's next tile; a playable one must be placed at once.
    fn draw(&mut self) {
        let seat = self.to_act as usize;
        let t = self.boneyard[self.drawn as usize];
        self.hands |= tile_bit(seat, t as usize);
        self.drawn += 1;
        self.pending = if value_mask(t as usize) & self.open != 0 {
            t as i8
        } else {
            -1
        };
        if let Some(order) = &mut self.order {
            order.add_tile(seat, t);
        }
    }

    /// R10: the seat passes; R11: the round is blocked once nobody can place.
    fn pass<E: Events>(&mut self, events: &mut E) {
        if self.hands & FITS_ANY_SEAT[self.open as usize] == 0 {
            self.settle_block(events);
            return;
        }
        self.to_act = self.next_seat(self.to_act as usize);
    }

    /// R18-R19: the last placement, the opponents' pips and the partner's deduction as one
    /// event, applied or rejected whole (R4); recorded even when its net is 0.
    fn settle_domino<E: Events>(&mut self, seat: usize, credit: i32, events: &mut E) {
        let players = self.players as usize;
        let hand_pips = self.hand_pips();
        let (opponents_pips, partner_pips) = domino_pips(players, seat, &hand_pips);
        let (opponents_raw, partner_raw) = (round5(opponents_pips), round5(partner_pips));
        let side = side_of(players, seat);
        let net = credit + opponents_raw - partner_raw;
        let accepted = accepts(self.scores[side], net);
        if accepted {
            self.scores[side] += net;
        }
        self.to_act = -1;
        self.end = DOMINO;
        events.push(Event::Domino {
            seat: seat as u8,
            side: side as u8,
            raw: net,
            accepted,
            play_raw: credit,
            opponents_raw,
            partner_raw,
            opponents_pips,
            partner_pips,
        });
    }

    /// R20-R22: each hand's credit, lightest first, each its own target-checked event; none
    /// after one reaches exactly 305 (R30).
    fn settle_block<E: Events>(&mut self, events: &mut E) {
        let players = self.players as usize;
        let hand_pips = self.hand_pips();
        for credit in block_credits(players, self.opener as usize, &hand_pips) {
            let Some(credit) = credit else { continue };
            if credit.raw <= 0 {
                continue;
            }
            let side = side_of(players, credit.seat);
            let accepted = accepts(self.scores[side], credit.raw);
            events.push(Event::Block {
                seat: credit.seat as u8,
                side: side as u8,
                raw: credit.raw,
                accepted,
                pips: credit.pips,
                difference: credit.difference,
            });
            if accepted {
                self.scores[side] += credit.raw;
                if self.scores[side] == TARGET_RAW {
                    break;
                }
            }
        }
        self.to_act = -1;
        self.end = BLOCK;
        self.pending = -1;
    }

    /// What decides the rest of the round, for a search's table of the positions it has
    /// valued: equal for positions that differ only in which of equivalent points are free.
    pub fn search_key(&self) -> SearchKey {
        SearchKey {
            hands: self.hands,
            shape: self.shape,
            scores: self.scores,
            to_act: self.to_act,
            drawn: self.drawn,
            pending: self.pending,
        }
    }
}

/// `Position::search_key`'s value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchKey {
    pub hands: u128,
    pub shape: u64,
    pub scores: [i32; 4],
    pub to_act: i8,
    pub drawn: u8,
    pub pending: i8,
}

impl SearchKey {
    /// The key in two words, as a search's table keeps it (a smaller table misses the cache
    /// less): the hands, then the shape (63 bits), the sides' scores in fives (16 bits each; a
    /// round has at most 3 sides), the seat to act, the tiles drawn and the pending tile.
    pub fn packed(&self) -> (u128, u128) {
        let mut rest = self.shape as u128;
        for (i, &score) in self.scores[..3].iter().enumerate() {
            rest |= ((score / 5) as i16 as u16 as u128) << (64 + 16 * i);
        }
        rest |= ((self.to_act + 1) as u128) << 112;
        rest |= (self.drawn as u128) << 115;
        rest |= ((self.pending + 1) as u128) << 120;
        (self.hands, rest)
    }
}

/// The seats on other sides than `seat`'s.
pub fn opponents_of(players: usize, seat: usize) -> impl Iterator<Item = usize> {
    let side = side_of(players, seat);
    (0..players).filter(move |&s| side_of(players, s) != side)
}

/// R19: the opponents' pips added together, and the partner's (0 without one).
pub fn domino_pips(players: usize, seat: usize, hand_pips: &[i32; 4]) -> (i32, i32) {
    let opponents = opponents_of(players, seat).map(|o| hand_pips[o]).sum();
    let partner = if players == 4 {
        hand_pips[(seat + 2) % 4]
    } else {
        0
    };
    (opponents, partner)
}

/// One hand's line in a blocked round's settlement (R21).
#[derive(Clone, Copy, Debug)]
pub struct BlockCredit {
    pub seat: usize,
    pub pips: i32,
    /// Sum over heavier opponent hands of (their pips - these pips).
    pub difference: i32,
    pub raw: i32,
}

/// R20-R22: every hand's credit, lightest hand first, equal sums clockwise from the opener.
pub fn block_credits(
    players: usize,
    opener: usize,
    hand_pips: &[i32; 4],
) -> [Option<BlockCredit>; 4] {
    let mut order: Vec<usize> = (0..players).collect();
    order.sort_by_key(|&s| (hand_pips[s], (s + players - opener) % players));
    let mut out = [None; 4];
    for (slot, &seat) in out.iter_mut().zip(order.iter()) {
        let own = hand_pips[seat];
        let difference = opponents_of(players, seat)
            .filter(|&o| hand_pips[o] > own)
            .map(|o| hand_pips[o] - own)
            .sum();
        *slot = Some(BlockCredit {
            seat,
            pips: own,
            difference,
            raw: round5(difference),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::{point_of, TileEnd, TILES};

    fn tile(lo: u8, hi: u8) -> u8 {
        TILES.iter().position(|&t| t == (lo, hi)).unwrap() as u8
    }

    #[test]
    fn a_searchs_position_is_small_enough_to_copy_at_every_node() {
        assert!(std::mem::size_of::<Position>() <= 128);
    }

    #[test]
    fn r17_rounds_to_the_nearest_five() {
        assert_eq!(
            [0, 1, 2, 3, 4, 5, 7, 8].map(round5),
            [0, 0, 0, 5, 5, 5, 5, 10]
        );
    }

    #[test]
    fn r14_the_rule_books_first_position_scores_5_then_0_then_10() {
        // [1|4] opens (5), [1|1] on its low end (4 + 2 = 6: nothing), [4|4] on its high end
        // (the two doubles at the ends: 2 + 8 = 10).
        let hands = vec![
            vec![tile(1, 4), tile(1, 1), tile(4, 4), tile(0, 0), tile(0, 1)],
            vec![tile(2, 2), tile(2, 3), tile(3, 3), tile(5, 5), tile(6, 6)],
        ];
        let mut p = Position::start(&hands, &[], 0, &[0, 0], false);
        let opening = (tile(1, 4) as usize * MOVE_STRIDE + OPENING) as u16;
        assert_eq!(p.credit_of(opening), 5);
        p.play(opening, &mut Quiet);
        p.to_act = 0;
        let low = point_of(tile(1, 4) as usize, TileEnd::Low);
        let m = (tile(1, 1) as usize * MOVE_STRIDE + low) as u16;
        assert_eq!(p.credit_of(m), 0);
        p.play(m, &mut Quiet);
        p.to_act = 0;
        let high = point_of(tile(1, 4) as usize, TileEnd::High);
        assert_eq!(
            p.credit_of((tile(4, 4) as usize * MOVE_STRIDE + high) as u16),
            10
        );
    }

    #[test]
    fn r4_an_award_past_305_is_thrown_away_whole() {
        let hands = vec![
            vec![tile(4, 6), tile(1, 1), tile(2, 2), tile(3, 3), tile(4, 4)],
            vec![tile(5, 5), tile(6, 6), tile(0, 0), tile(1, 2), tile(1, 3)],
        ];
        let mut p = Position::start(&hands, &[], 0, &[300, 0], false);
        let mut events = Vec::new();
        p.play(
            (tile(4, 6) as usize * MOVE_STRIDE + OPENING) as u16,
            &mut events,
        );
        assert_eq!(
            events,
            vec![Event::Play {
                seat: 0,
                side: 0,
                raw: 10,
                accepted: false
            }]
        );
        assert_eq!(p.scores[0], 300);
    }
}
