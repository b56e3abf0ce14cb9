//! The set's numbers, worked out once at compile time: tiles, attach points, and what each
//! placement does to the layout (R1, R9, R13, R14).
//!
//! Every table here is the twin of one in the Python engine (`exact61.core.tiles`,
//! `exact61.core.points`, `exact61.core.engine`), built by the same rules in the same order, so
//! a tile, a point and a move are the same small int in both engines.

/// The highest pip of the double-six set (R1).
pub const MAX_PIP: u8 = 6;
/// Tiles in the set (R1), in the order `[0|0], [0|1] ... [6|6]`.
pub const TILE_COUNT: usize = 28;
/// Attach points in the set: two for each non-double, four for each double (R13).
pub const POINT_COUNT: usize = 70;
/// A placement is `tile * MOVE_STRIDE + point`; `point == OPENING` for a round's first tile.
pub const MOVE_STRIDE: usize = POINT_COUNT + 1;
pub const OPENING: usize = POINT_COUNT;
/// The moves after every placement (R10).
pub const DRAW: u16 = (TILE_COUNT * MOVE_STRIDE) as u16;
pub const PASS: u16 = DRAW + 1;
pub const MOVE_COUNT: usize = PASS as usize + 1;
/// A draw as the log keeps it with its tile: `(DRAWN_TILE + tile) * 4 + seat`.
pub const DRAWN_TILE: u16 = MOVE_COUNT as u16;

/// What an attach point scores (R14): a non-double's free end, a double's line side, a side arm.
pub const END: u8 = 0;
pub const LINE: u8 = 1;
pub const ARM: u8 = 2;

/// The named end of a tile on the table, as the record format spells it (`TileEnd`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TileEnd {
    High,
    Low,
    LineA,
    LineB,
    ArmA,
    ArmB,
}

impl TileEnd {
    /// The end's name, as records and the protocol spell it.
    pub const fn name(self) -> &'static str {
        match self {
            TileEnd::High => "high",
            TileEnd::Low => "low",
            TileEnd::LineA => "lineA",
            TileEnd::LineB => "lineB",
            TileEnd::ArmA => "armA",
            TileEnd::ArmB => "armB",
        }
    }

    const fn kind(self) -> u8 {
        match self {
            TileEnd::High | TileEnd::Low => END,
            TileEnd::LineA | TileEnd::LineB => LINE,
            TileEnd::ArmA | TileEnd::ArmB => ARM,
        }
    }
}

const fn tiles() -> [(u8, u8); TILE_COUNT] {
    let mut out = [(0, 0); TILE_COUNT];
    let (mut low, mut i) = (0, 0);
    while low <= MAX_PIP {
        let mut high = low;
        while high <= MAX_PIP {
            out[i] = (low, high);
            i += 1;
            high += 1;
        }
        low += 1;
    }
    out
}

/// Each tile's pips, low first.
pub const TILES: [(u8, u8); TILE_COUNT] = tiles();

pub const fn low(t: usize) -> u8 {
    TILES[t].0
}

pub const fn high(t: usize) -> u8 {
    TILES[t].1
}

pub const fn pips(t: usize) -> u8 {
    TILES[t].0 + TILES[t].1
}

pub const fn is_double(t: usize) -> bool {
    TILES[t].0 == TILES[t].1
}

/// A tile as the rule documents write it, low pip first: `[1|4]`.
pub fn tile_name(t: usize) -> String {
    match TILES.get(t) {
        Some((low, high)) => format!("[{low}|{high}]"),
        None => format!("tile {t}"),
    }
}

/// Bit v is set when the tile shows pip value v.
pub const fn value_mask(t: usize) -> u8 {
    (1 << TILES[t].0) | (1 << TILES[t].1)
}

/// An attach point: its tile and which end.
#[derive(Clone, Copy, Debug)]
pub struct Point {
    pub tile: usize,
    pub end: TileEnd,
    pub value: u8,
    pub kind: u8,
}

const fn points() -> [Point; POINT_COUNT] {
    let blank = Point {
        tile: 0,
        end: TileEnd::High,
        value: 0,
        kind: END,
    };
    let mut out = [blank; POINT_COUNT];
    let (mut t, mut p) = (0, 0);
    while t < TILE_COUNT {
        let ends: &[TileEnd] = if is_double(t) {
            &[TileEnd::LineA, TileEnd::LineB, TileEnd::ArmA, TileEnd::ArmB]
        } else {
            &[TileEnd::High, TileEnd::Low]
        };
        let mut e = 0;
        while e < ends.len() {
            let end = ends[e];
            let value = if matches!(end, TileEnd::Low) {
                low(t)
            } else {
                high(t)
            };
            out[p] = Point {
                tile: t,
                end,
                value,
                kind: end.kind(),
            };
            p += 1;
            e += 1;
        }
        t += 1;
    }
    out
}

/// The 70 attach points in canonical order: by tile, then high, low, lineA, lineB, armA, armB.
pub const POINTS: [Point; POINT_COUNT] = points();

/// The index of `tile`'s end `end` (which it must have).
pub const fn point_of(tile: usize, end: TileEnd) -> usize {
    let mut p = 0;
    while p < POINT_COUNT {
        if POINTS[p].tile == tile && POINTS[p].end as u8 == end as u8 {
            return p;
        }
        p += 1;
    }
    panic!("no such attach point")
}

/// By pip value: the points accepting it.
pub const VALUE_POINTS: [u128; 7] = {
    let mut out = [0u128; 7];
    let mut p = 0;
    while p < POINT_COUNT {
        out[POINTS[p].value as usize] |= 1 << p;
        p += 1;
    }
    out
};

/// By pip value and kind: the points of that value and kind (`END`, `LINE`, `ARM`).
pub const CLASS_POINTS: [[u128; 3]; 7] = {
    let mut out = [[0u128; 3]; 7];
    let mut p = 0;
    while p < POINT_COUNT {
        out[POINTS[p].value as usize][POINTS[p].kind as usize] |= 1 << p;
        p += 1;
    }
    out
};

/// A layout's shape counts its free points of each value and kind, three bits a count.
pub const SHAPE_UNIT: [u64; POINT_COUNT] = {
    let mut out = [0u64; POINT_COUNT];
    let mut p = 0;
    while p < POINT_COUNT {
        out[p] = 1 << (3 * (POINTS[p].value as u32 * 3 + POINTS[p].kind as u32));
        p += 1;
    }
    out
};

/// The shape of a layout with these free points.
pub fn shape_of(free: u128) -> u64 {
    bits(free).map(|p| SHAPE_UNIT[p]).sum()
}

/// By tile: the points that accept one of its values (R9).
pub const ACCEPTS: [u128; TILE_COUNT] = {
    let mut out = [0u128; TILE_COUNT];
    let mut t = 0;
    while t < TILE_COUNT {
        out[t] = VALUE_POINTS[low(t) as usize] | VALUE_POINTS[high(t) as usize];
        t += 1;
    }
    out
};

/// By mask of open values: the tiles showing one of them (R9).
pub const FITS: [u32; 128] = {
    let mut out = [0u32; 128];
    let mut open = 0;
    while open < 128 {
        let mut t = 0;
        while t < TILE_COUNT {
            if value_mask(t) & open as u8 != 0 {
                out[open] |= 1 << t;
            }
            t += 1;
        }
        open += 1;
    }
    out
};

/// Each seat's share of a position's hands: seat s's tiles at bits `HAND_BITS * s` up.
pub const HAND_BITS: u32 = TILE_COUNT as u32;
pub const HAND: u128 = (1 << HAND_BITS) - 1;

/// `FITS` for every seat at once, as a position's hands hold them.
pub const FITS_ANY_SEAT: [u128; 128] = {
    let mut out = [0u128; 128];
    let mut open = 0;
    while open < 128 {
        let fits = FITS[open] as u128;
        out[open] = fits | fits << HAND_BITS | fits << (2 * HAND_BITS) | fits << (3 * HAND_BITS);
        open += 1;
    }
    out
};

/// What placing a tile does to the layout (R13, R14), worked out once per move. Kept small
/// (a dozen bytes; the masks are made from the indices when asked), so the whole table stays
/// in the cache beside a search's table of positions.
#[derive(Clone, Copy, Debug)]
pub struct Placement {
    pub tile: u8,
    /// The point it joins (`OPENING` for a round's first tile).
    pub point: u8,
    /// That point's pip value (for the opening, the tile's low pip).
    pub value: u8,
    /// The values the tile's new free ends accept.
    pub new_values: u8,
    /// The end sum's change: a joined free end stops scoring, the new ends score.
    pub delta: i8,
    /// The tile's ends that become free, lowest index first (two at the opening).
    pub opens: [u8; 2],
    pub open_count: u8,
    /// Joining a line side: the double's other line side (else `NONE`) and its side arms,
    /// which open with the second join (R13).
    pub other_line_point: u8,
    pub arm_points: [u8; 2],
}

impl Placement {
    /// No point: `other_line_point` of a placement that joins no line side.
    pub const NONE: u8 = u8::MAX;

    /// Whether it opens the round (R7).
    #[inline]
    pub const fn is_opening(&self) -> bool {
        self.point as usize == OPENING
    }

    /// The free points it changes: the one it joins and the tile's ends, now free.
    #[inline]
    pub const fn flip(&self) -> u128 {
        let mut flip = 1u128 << self.opens[0];
        if self.open_count == 2 {
            flip |= 1 << self.opens[1];
        }
        if !self.is_opening() {
            flip |= 1 << self.point;
        }
        flip
    }

    /// Joining a line side: the double's other line side, else 0.
    #[inline]
    pub const fn other_line(&self) -> u128 {
        if self.other_line_point == Self::NONE {
            0
        } else {
            1 << self.other_line_point
        }
    }

    /// Joining a line side: the double's side arms, else 0.
    #[inline]
    pub const fn arms(&self) -> u128 {
        if self.other_line_point == Self::NONE {
            0
        } else {
            1 << self.arm_points[0] | 1 << self.arm_points[1]
        }
    }

    /// The layout shape's change, arms left out.
    #[inline]
    pub const fn shape(&self) -> i64 {
        let mut shape = SHAPE_UNIT[self.opens[0] as usize] as i64;
        if self.open_count == 2 {
            shape += SHAPE_UNIT[self.opens[1] as usize] as i64;
        }
        if !self.is_opening() {
            shape -= SHAPE_UNIT[self.point as usize] as i64;
        }
        shape
    }

    /// The layout shape's change when the arms open.
    #[inline]
    pub const fn arms_shape(&self) -> i64 {
        if self.other_line_point == Self::NONE {
            0
        } else {
            (SHAPE_UNIT[self.arm_points[0] as usize] + SHAPE_UNIT[self.arm_points[1] as usize])
                as i64
        }
    }
}

const fn placement(t: usize, p: usize) -> Option<Placement> {
    if p == OPENING {
        // R7; R14: a lone double counts both halves.
        let (a, b) = if is_double(t) {
            (point_of(t, TileEnd::LineA), point_of(t, TileEnd::LineB))
        } else {
            (point_of(t, TileEnd::High), point_of(t, TileEnd::Low))
        };
        let (first, second) = if a < b { (a, b) } else { (b, a) };
        let delta = if is_double(t) { 2 * low(t) } else { pips(t) };
        return Some(Placement {
            tile: t as u8,
            point: OPENING as u8,
            value: low(t),
            new_values: value_mask(t),
            delta: delta as i8,
            opens: [first as u8, second as u8],
            open_count: 2,
            other_line_point: Placement::NONE,
            arm_points: [0, 0],
        });
    }
    let point = POINTS[p];
    let (v, host) = (point.value, point.tile);
    if host == t || value_mask(t) & (1 << v) == 0 {
        return None; // R9: it must show the point's value
    }
    // A double joins by a line side; the other counts both halves (R14).
    let (new_end, adds) = if is_double(t) {
        (point_of(t, TileEnd::LineB), 2 * v as i32)
    } else if low(t) == v {
        (point_of(t, TileEnd::High), high(t) as i32)
    } else {
        (point_of(t, TileEnd::Low), low(t) as i32)
    };
    let (mut other_line_point, mut arm_points) = (Placement::NONE, [0, 0]);
    if point.kind == LINE {
        let (line_a, line_b) = (
            point_of(host, TileEnd::LineA),
            point_of(host, TileEnd::LineB),
        );
        other_line_point = if p == line_a { line_b } else { line_a } as u8;
        arm_points = [
            point_of(host, TileEnd::ArmA) as u8,
            point_of(host, TileEnd::ArmB) as u8,
        ];
    }
    // A free end stops scoring once joined; a line side's double scores until its second join;
    // a side arm never scored.
    let stops = if point.kind == END { v as i32 } else { 0 };
    Some(Placement {
        tile: t as u8,
        point: p as u8,
        value: v,
        new_values: 1 << POINTS[new_end].value,
        delta: (adds - stops) as i8,
        opens: [new_end as u8, 0],
        open_count: 1,
        other_line_point,
        arm_points,
    })
}

/// By move: what the placement does, or None where the tile cannot go.
pub static PLACEMENTS: [Option<Placement>; TILE_COUNT * MOVE_STRIDE] = {
    let mut out = [None; TILE_COUNT * MOVE_STRIDE];
    let mut m = 0;
    while m < TILE_COUNT * MOVE_STRIDE {
        out[m] = placement(m / MOVE_STRIDE, m % MOVE_STRIDE);
        m += 1;
    }
    out
};

/// Equal for equivalent moves: placements of one tile at points of the same value and kind
/// leave positions that play the same (R13, R14). A draw and a pass are their own class.
pub const fn move_class(m: u16) -> u16 {
    if m >= DRAW {
        return m;
    }
    let (t, p) = (m as usize / MOVE_STRIDE, m as usize % MOVE_STRIDE);
    if p == OPENING {
        return (t * 64 + 3) as u16;
    }
    (t * 64 + POINTS[p].value as usize * 4 + POINTS[p].kind as usize) as u16
}

/// A function that walks the set bits of a mask of one width, lowest first: the one walk, for
/// the 128-bit masks (free points) and the 32-bit ones (tiles), each kept in its own width (a
/// tile mask's walk lists the moves, a search's hot path).
macro_rules! set_bits {
    ($(#[$doc:meta])* $name:ident, $mask:ty) => {
        $(#[$doc])*
        pub fn $name(mut mask: $mask) -> impl Iterator<Item = usize> {
            std::iter::from_fn(move || {
                if mask == 0 {
                    return None;
                }
                let low = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                Some(low)
            })
        }
    };
}

set_bits!(
    /// The set bits of `mask`, lowest first.
    bits,
    u128
);
set_bits!(
    /// The set bits of a 32-bit mask (a hand), lowest first.
    bits32,
    u32
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_set_has_28_tiles_and_70_points() {
        assert_eq!(TILES[0], (0, 0));
        assert_eq!(TILES[27], (6, 6));
        assert_eq!(POINTS.iter().filter(|p| p.kind == ARM).count(), 14);
        assert_eq!((0..TILE_COUNT).map(|t| pips(t) as i32).sum::<i32>(), 168);
    }

    #[test]
    fn r9_a_tile_goes_only_where_it_shows_the_value() {
        // [1|4] (tile 8) has no placement on [0|0]'s line side, one on [4|4]'s.
        let t14 = TILES.iter().position(|&t| t == (1, 4)).unwrap();
        let t00 = 0;
        let t44 = TILES.iter().position(|&t| t == (4, 4)).unwrap();
        assert!(PLACEMENTS[t14 * MOVE_STRIDE + point_of(t00, TileEnd::LineA)].is_none());
        let on44 = PLACEMENTS[t14 * MOVE_STRIDE + point_of(t44, TileEnd::LineA)].unwrap();
        assert_eq!(on44.delta, 1); // the [1|4]'s low end now scores; a line side stops nothing
    }
}
