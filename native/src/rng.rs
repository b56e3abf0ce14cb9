//! A bit-for-bit port of CPython 3.11's `random.Random`.
//!
//! The native engine must draw deals, lots and bot choices exactly as the
//! Python engine's `random.Random` does, so that the same seed gives
//! byte-identical match records in both. This module therefore reproduces
//! the Mersenne Twister of `Modules/_randommodule.c` (seeding, `random()`,
//! `getrandbits()`, `getstate()`/`setstate()`) and the pure-Python parts of
//! `Lib/random.py` that the engine uses (string seeds of version 2,
//! `_randbelow_with_getrandbits`, `randrange(n)` and `shuffle`).
//!
//! Only the operations listed above are ported; anything else (`choice`,
//! `sample`, `gauss`, ...) must be built from them the way `random.py` does
//! to stay in step with Python.

use sha2::{Digest, Sha512};

/// Number of 32-bit words in the Mersenne Twister state.
const N: usize = 624;
/// The twister's middle word offset.
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// A Mersenne Twister generator that draws exactly what CPython 3.11's
/// `random.Random` draws from the same seed.
#[derive(Clone, PartialEq, Eq)]
pub struct PyRandom {
    /// The 624 state words, as in `RandomObject.state`.
    mt: [u32; N],
    /// Position of the next word to temper; `N` means "regenerate first".
    index: usize,
}

impl std::fmt::Debug for PyRandom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PyRandom")
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

impl PyRandom {
    /// `random.Random(n)` for a Python int `n` given as its absolute value's
    /// little-endian bytes (any length; empty or all-zero means 0).
    ///
    /// Python seeds with `abs(n)`, split into 32-bit words least significant
    /// first, with high zero words dropped (but at least one word).
    pub fn from_int_bytes(le_bytes: &[u8]) -> Self {
        Self::from_key(&int_key(le_bytes))
    }

    /// `random.Random(n)` for a non-negative int `n`.
    pub fn from_u64(n: u64) -> Self {
        Self::from_int_bytes(&n.to_le_bytes())
    }

    /// `random.Random(n)` for any int `n` that fits in an `i128`; like
    /// Python it seeds with `abs(n)`, so `n` and `-n` give the same stream.
    pub fn from_i128(n: i128) -> Self {
        Self::from_int_bytes(&n.unsigned_abs().to_le_bytes())
    }

    /// `random.Random(s)` for a str `s` (seed version 2): the int read
    /// big-endian from `s.encode() + sha512(s.encode()).digest()`, seeded
    /// as an int.
    #[allow(clippy::should_implement_trait)] // infallible, unlike FromStr
    pub fn from_str(s: &str) -> Self {
        let bytes = s.as_bytes();
        let mut big_endian = bytes.to_vec();
        big_endian.extend_from_slice(&Sha512::digest(bytes));
        big_endian.reverse();
        Self::from_int_bytes(&big_endian)
    }

    /// `random.random()`: a float in `[0, 1)` with 53 random bits, built
    /// from two 32-bit draws (27 high bits, then 26 low bits).
    #[inline]
    pub fn random(&mut self) -> f64 {
        let a = self.next_u32() >> 5;
        let b = self.next_u32() >> 6;
        (f64::from(a) * 67_108_864.0 + f64::from(b)) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `random.getrandbits(k)` for `k <= 64` (`k == 0` gives 0 and draws
    /// nothing, as in Python). For `k > 32` the first draw is the least
    /// significant word and the second is cut to its top `k - 32` bits.
    ///
    /// # Panics
    /// If `k > 64`.
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        assert!(k <= 64, "getrandbits supports at most 64 bits, got {k}");
        match k {
            0 => 0,
            1..=32 => u64::from(self.next_u32() >> (32 - k)),
            _ => {
                let low = u64::from(self.next_u32());
                let high = u64::from(self.next_u32() >> (64 - k));
                low | (high << 32)
            }
        }
    }

    /// `Random._randbelow_with_getrandbits(n)`: a uniform int in `[0, n)`
    /// by rejection sampling with `n.bit_length()` bits per try.
    ///
    /// # Panics
    /// If `n == 0` (Python 3.11 would loop forever there).
    pub fn randbelow(&mut self, n: u64) -> u64 {
        assert!(n >= 1, "randbelow needs n >= 1");
        let k = u64::BITS - n.leading_zeros();
        loop {
            let r = self.getrandbits(k);
            if r < n {
                return r;
            }
        }
    }

    /// `random.randrange(n)`: a uniform int in `[0, n)`.
    ///
    /// # Panics
    /// If `n == 0` (Python raises `ValueError: empty range`).
    pub fn randrange(&mut self, n: u64) -> u64 {
        assert!(n >= 1, "empty range for randrange(0)");
        self.randbelow(n)
    }

    /// `random.shuffle(items)` as in Python 3.11: Fisher-Yates from the
    /// back, swapping `items[i]` with `items[randbelow(i + 1)]`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.randbelow(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// The state as Python's `Random.getstate()[1]`: 625 ints, the 624
    /// state words followed by the index.
    pub fn state(&self) -> [u32; N + 1] {
        let mut words = [0; N + 1];
        words[..N].copy_from_slice(&self.mt);
        words[N] = self.index as u32;
        words
    }

    /// The inverse of [`PyRandom::state`], as `Random.setstate`: `None`
    /// when `words` is not 625 long or its last entry (the index) is over
    /// 624.
    pub fn from_state(words: &[u32]) -> Option<Self> {
        let (index, state) = words.split_last()?;
        let mt: [u32; N] = state.try_into().ok()?;
        let index = usize::try_from(*index).ok().filter(|&i| i <= N)?;
        Some(Self { mt, index })
    }

    /// `init_by_array`: seeds from a key of 32-bit words (never empty).
    fn from_key(key: &[u32]) -> Self {
        let mut rng = Self::from_word(19_650_218);
        let i = rng.mix_in_key(key);
        rng.scramble(i);
        rng.mt[0] = 0x8000_0000;
        rng
    }

    /// `init_genrand`: fills the state from a single word.
    fn from_word(seed: u32) -> Self {
        let mut mt = [0; N];
        mt[0] = seed;
        for i in 1..N {
            let prev = mt[i - 1];
            mt[i] = 1_812_433_253_u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        Self { mt, index: N }
    }

    /// First loop of `init_by_array`: folds the key into the state and
    /// returns the position where the second loop starts.
    fn mix_in_key(&mut self, key: &[u32]) -> usize {
        let (mut i, mut j) = (1, 0);
        for _ in 0..N.max(key.len()) {
            let prev = self.mt[i - 1];
            self.mt[i] = (self.mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i = self.advance(i);
            j = (j + 1) % key.len();
        }
        i
    }

    /// Second loop of `init_by_array`, starting at position `i`.
    fn scramble(&mut self, mut i: usize) {
        for _ in 1..N {
            let prev = self.mt[i - 1];
            self.mt[i] = (self.mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i = self.advance(i);
        }
    }

    /// Steps the seeding position, wrapping from `N` back to 1 and copying
    /// the last word to the first, as `init_by_array` does.
    fn advance(&mut self, i: usize) -> usize {
        if i + 1 < N {
            return i + 1;
        }
        self.mt[0] = self.mt[N - 1];
        1
    }

    /// `genrand_uint32`: the next tempered 32-bit output.
    #[inline]
    fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.regenerate();
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// Generates the next 624 state words at once (`genrand_uint32`'s loops: word k mixes
    /// words k, k + 1 and k + M, the indices wrapping past the end).
    fn regenerate(&mut self) {
        let twist = |this: u32, next: u32, far: u32| {
            let y = (this & UPPER_MASK) | (next & LOWER_MASK);
            far ^ (y >> 1) ^ if y & 1 == 0 { 0 } else { MATRIX_A }
        };
        for k in 0..N - M {
            self.mt[k] = twist(self.mt[k], self.mt[k + 1], self.mt[k + M]);
        }
        for k in N - M..N - 1 {
            self.mt[k] = twist(self.mt[k], self.mt[k + 1], self.mt[k + M - N]);
        }
        self.mt[N - 1] = twist(self.mt[N - 1], self.mt[0], self.mt[M - 1]);
        self.index = 0;
    }
}

/// The `init_by_array` key for an int given as little-endian bytes: 32-bit
/// little-endian words without high zero words, and `[0]` for zero.
fn int_key(le_bytes: &[u8]) -> Vec<u32> {
    let used = le_bytes.iter().rposition(|&b| b != 0).map_or(0, |p| p + 1);
    let mut key: Vec<u32> = le_bytes[..used]
        .chunks(4)
        .map(|chunk| {
            let mut word = [0; 4];
            word[..chunk.len()].copy_from_slice(chunk);
            u32::from_le_bytes(word)
        })
        .collect();
    if key.is_empty() {
        key.push(0);
    }
    key
}

#[cfg(test)]
mod tests {
    //! Vectors generated with CPython 3.11.7: for each seed, a fresh
    //! `random.Random(seed)` is probed, then draws 10 `random()`,
    //! `getrandbits(k)` for k in 1, 5, 31, 32, 33, 64, `randrange(n)` for n in
    //! 1, 2, 3, 7, 28, 1000, 2**40, shuffles `list(range(28))`, is probed,
    //! draws 1300 `getrandbits(32)` (summed), is probed, and draws one more
    //! `random()`. A probe is the sum of `getstate()[1]`, its words 0, 1, 311
    //! and 623, and its index.

    use super::*;

    enum Seed {
        U64(u64),
        Bytes(&'static [u8]),
        Str(&'static str),
    }

    struct Probe {
        sum: u64,
        words: [u32; 4],
        index: u32,
    }

    struct Case {
        seed: Seed,
        seeded: Probe,
        random_bits: [u64; 10],
        getrandbits: [u64; 6],
        randrange: [u64; 7],
        shuffled: [u8; 28],
        drawn: Probe,
        many_sum: u64,
        many: Probe,
        after_many_bits: u64,
    }

    const KS: [u32; 6] = [1, 5, 31, 32, 33, 64];
    const NS: [u64; 7] = [1, 2, 3, 7, 28, 1000, 1 << 40];
    const MANY: usize = 1300;

    impl Seed {
        fn rng(&self) -> PyRandom {
            match *self {
                Seed::U64(n) => PyRandom::from_u64(n),
                Seed::Bytes(bytes) => PyRandom::from_int_bytes(bytes),
                Seed::Str(s) => PyRandom::from_str(s),
            }
        }
    }

    fn check_probe(rng: &PyRandom, probe: &Probe, what: &str) {
        let state = rng.state();
        let sum: u64 = state.iter().map(|&w| u64::from(w)).sum();
        assert_eq!(sum, probe.sum, "{what}: state sum");
        let words = [state[0], state[1], state[311], state[623]];
        assert_eq!(words, probe.words, "{what}: state words");
        assert_eq!(state[624], probe.index, "{what}: index");
    }

    fn check_draws(rng: &mut PyRandom, case: &Case, what: &str) {
        let bits: Vec<u64> = (0..10).map(|_| rng.random().to_bits()).collect();
        assert_eq!(bits, case.random_bits, "{what}: random()");
        let got: Vec<u64> = KS.iter().map(|&k| rng.getrandbits(k)).collect();
        assert_eq!(got, case.getrandbits, "{what}: getrandbits");
        let got: Vec<u64> = NS.iter().map(|&n| rng.randrange(n)).collect();
        assert_eq!(got, case.randrange, "{what}: randrange");
        let mut deck: Vec<u8> = (0..28).collect();
        rng.shuffle(&mut deck);
        assert_eq!(deck, case.shuffled, "{what}: shuffle");
    }

    fn check_many(rng: &mut PyRandom, case: &Case, what: &str) {
        let sum: u64 = (0..MANY).map(|_| rng.getrandbits(32)).sum();
        assert_eq!(sum, case.many_sum, "{what}: getrandbits(32) sum");
        check_probe(rng, &case.many, what);
        assert_eq!(rng.random().to_bits(), case.after_many_bits, "{what}");
    }

    #[test]
    fn matches_cpython_vectors() {
        for (n, case) in CASES.iter().enumerate() {
            let what = format!("case {n}");
            let mut rng = case.seed.rng();
            check_probe(&rng, &case.seeded, &what);
            check_draws(&mut rng, case, &what);
            check_probe(&rng, &case.drawn, &what);
            check_many(&mut rng, case, &what);
        }
    }

    #[test]
    fn state_round_trips_mid_stream() {
        for case in CASES {
            let mut rng = case.seed.rng();
            check_draws(&mut rng, case, "round trip");
            let restored = PyRandom::from_state(&rng.state()).expect("valid state");
            assert_eq!(restored, rng);
            let mut restored = restored;
            check_many(&mut restored, case, "restored");
        }
    }

    #[test]
    fn from_state_matches_python_setstate() {
        let mut words: Vec<u32> = (0..624_u32)
            .map(|i| i.wrapping_mul(2_654_435_761).wrapping_add(12_345))
            .collect();
        words.push(SYNTHETIC_INDEX);
        let mut rng = PyRandom::from_state(&words).expect("valid state");
        let bits: Vec<u64> = (0..5).map(|_| rng.random().to_bits()).collect();
        assert_eq!(bits, SYNTHETIC_RANDOM_BITS);
    }

    #[test]
    fn from_state_rejects_bad_input() {
        let mut words = PyRandom::from_u64(61).state().to_vec();
        assert!(PyRandom::from_state(&words[..624]).is_none());
        assert!(PyRandom::from_state(&[]).is_none());
        words[624] = 625;
        assert!(PyRandom::from_state(&words).is_none());
        words[624] = 624;
        assert!(PyRandom::from_state(&words).is_some());
        words[624] = 0;
        assert!(PyRandom::from_state(&words).is_some());
        words.push(0);
        assert!(PyRandom::from_state(&words).is_none());
    }

    #[test]
    fn int_seed_forms_agree() {
        assert_eq!(PyRandom::from_int_bytes(&[]), PyRandom::from_u64(0));
        assert_eq!(
            PyRandom::from_int_bytes(&[0, 0, 0, 0, 0]),
            PyRandom::from_u64(0)
        );
        assert_eq!(
            PyRandom::from_int_bytes(&[61, 0, 0, 0, 0, 0, 0]),
            PyRandom::from_u64(61)
        );
        assert_eq!(PyRandom::from_i128(-61), PyRandom::from_u64(61));
        assert_eq!(PyRandom::from_i128(1 << 40), PyRandom::from_u64(1 << 40));
        let big = (1_i128 << 100) + 7;
        let mut bytes = big.to_le_bytes().to_vec();
        bytes.truncate(13);
        assert_eq!(PyRandom::from_i128(-big), PyRandom::from_int_bytes(&bytes));
        // Python: Random(-61).random() == Random(61).random()
        assert_eq!(
            PyRandom::from_i128(-61).random().to_bits(),
            NEG_61_FIRST_BITS
        );
        assert!(PyRandom::from_i128(i128::MIN).random() < 1.0);
    }

    #[test]
    fn getrandbits_zero_draws_nothing() {
        let mut a = PyRandom::from_u64(7);
        let b = a.clone();
        assert_eq!(a.getrandbits(0), 0);
        assert_eq!(a, b);
    }

    #[test]
    #[should_panic(expected = "randbelow needs n >= 1")]
    fn randbelow_zero_panics() {
        PyRandom::from_u64(1).randbelow(0);
    }

    #[test]
    fn shuffle_of_short_slices_draws_nothing() {
        let mut rng = PyRandom::from_u64(3);
        let before = rng.clone();
        rng.shuffle::<u8>(&mut []);
        rng.shuffle(&mut [1]);
        assert_eq!(rng, before);
    }

    // The ~200-bit seed is 2**199 + 3**100 + 0xDEADBEEF =
    // 803469022130010515291713057501617762390867118164102261101248.
    #[rustfmt::skip]
    const CASES: &[Case] = &[
        Case {
            seed: Seed::U64(0),
            seeded: Probe { sum: 1289886633205, words: [2147483648, 766982754, 652504502, 2902720905], index: 624 },
            random_bits: [0x3feb0580f98a7dbe, 0x3fe84129978f9c1a, 0x3fdaeaa51052e978, 0x3fd092178fb945a6, 0x3fe05c5ccdf19707, 0x3fd9ea70df588b3c, 0x3fe914e0c751c4f5, 0x3fd36979c7be0dec, 0x3fde809082dd48fc, 0x3fe2ab10cf910f7d],
            getrandbits: [1, 6, 1083806779, 598176026, 1210484339, 1749318759610081913],
            randrange: [0, 0, 1, 0, 23, 75, 728787161642],
            shuffled: [4, 23, 25, 5, 22, 2, 9, 7, 24, 21, 1, 16, 18, 12, 0, 8, 14, 27, 26, 6, 20, 19, 10, 13, 11, 3, 17, 15],
            drawn: Probe { sum: 1346922376598, words: [1372342863, 3221959423, 3386540377, 418789356], index: 92 },
            many_sum: 2746762607900,
            many: Probe { sum: 1337049070114, words: [836265224, 2977765386, 902325662, 2754414139], index: 144 },
            after_many_bits: 0x3fcdf4abba217cf0,
        },
        Case {
            seed: Seed::U64(1),
            seeded: Probe { sum: 1309933779574, words: [2147483648, 163610392, 3857516299, 1781494222], index: 624 },
            random_bits: [0x3fc132d8f91b7584, 0x3feb1e2d5b3584f8, 0x3fe870d778409f13, 0x3fd0530d08f17f5c, 0x3fdfb5355e16737a, 0x3fdcc4762bc72882, 0x3fe4d9d98184b9da, 0x3fe93d38c0d6fe64, 0x3fb8072e8f9c8590, 0x3f9d071ef2583660],
            getrandbits: [1, 12, 929360195, 2608926326, 7568935301, 12835850853227824550],
            randrange: [0, 1, 2, 6, 7, 605, 227398206114],
            shuffled: [4, 9, 1, 22, 2, 14, 19, 11, 27, 5, 3, 8, 18, 15, 23, 7, 16, 21, 13, 6, 12, 24, 17, 20, 25, 26, 0, 10],
            drawn: Probe { sum: 1336020984484, words: [2145931878, 2812664348, 2814764156, 3656373148], index: 78 },
            many_sum: 2820509343156,
            many: Probe { sum: 1314904876940, words: [1486069943, 568529562, 1699215668, 661311021], index: 130 },
            after_many_bits: 0x3f9c492cbff4ed00,
        },
        Case {
            seed: Seed::U64(61),
            seeded: Probe { sum: 1327513078022, words: [2147483648, 2608628801, 1990029795, 832882937], index: 624 },
            random_bits: [0x3fdfa5aea17421d8, 0x3fe1d06b2cddf9bf, 0x3fe9e969a3a0cdef, 0x3fd484f72a58bb28, 0x3fd48abb2e6e8b9e, 0x3fe62e6c381c6306, 0x3fdf1d5ceadc0266, 0x3fd6ff81a0855ffe, 0x3fd9f3b673b0c8d8, 0x3fd51b6f8fcb066e],
            getrandbits: [0, 10, 1356774074, 27144463, 8133720441, 1693152595819239000],
            randrange: [0, 1, 0, 3, 25, 147, 650271642478],
            shuffled: [1, 26, 4, 3, 27, 16, 21, 6, 12, 15, 22, 18, 0, 24, 2, 7, 17, 13, 8, 5, 20, 11, 19, 25, 14, 10, 23, 9],
            drawn: Probe { sum: 1339409633373, words: [2970129456, 2749255108, 3985915754, 3908459844], index: 79 },
            many_sum: 2745173363021,
            many: Probe { sum: 1306360848635, words: [4124800981, 3457264608, 551395832, 732774906], index: 131 },
            after_many_bits: 0x3fb05a145c8b6928,
        },
        Case {
            seed: Seed::U64(4294967295),
            seeded: Probe { sum: 1335658544711, words: [2147483648, 2159790430, 3298412812, 2300076184], index: 624 },
            random_bits: [0x3fe454d9227a7013, 0x3fca0274a3720bf8, 0x3fe36f8c1616ef77, 0x3fd2a53dc4d30c46, 0x3fd5c30407b15d96, 0x3fd864354560fc68, 0x3fe608c8bb7ed6e8, 0x3fec180ac38e7d9d, 0x3fd1e5e79ad736e8, 0x3fecb7caa5fd2890],
            getrandbits: [0, 2, 465955573, 4171368493, 8410016936, 15841111591912891712],
            randrange: [0, 1, 0, 5, 27, 719, 726117651467],
            shuffled: [22, 9, 16, 5, 20, 13, 26, 4, 19, 11, 7, 15, 10, 3, 27, 6, 24, 21, 0, 2, 25, 17, 8, 18, 14, 23, 12, 1],
            drawn: Probe { sum: 1348409488590, words: [1466195243, 54264915, 2465586900, 2591367280], index: 73 },
            many_sum: 2706213734001,
            many: Probe { sum: 1307264961402, words: [957631744, 1590902817, 3133391148, 1405902922], index: 125 },
            after_many_bits: 0x3f850b14bcc58180,
        },
        Case {
            seed: Seed::U64(4294967296),
            seeded: Probe { sum: 1301646149908, words: [2147483648, 3247729875, 2204960721, 2855728268], index: 624 },
            random_bits: [0x3fbced31cb3df170, 0x3fdabdb5477a4f26, 0x3f91139c02ebd380, 0x3fe39338e3811e8e, 0x3fe9c7dc430ca10d, 0x3fd5377abeb3e742, 0x3fe1759ef3fa9935, 0x3fdcea8c101cab24, 0x3fc1acc2f1365e84, 0x3fea30d0abc2f4cc],
            getrandbits: [1, 13, 1076069606, 1349299654, 5766835170, 8838597201322953830],
            randrange: [0, 0, 2, 0, 21, 909, 774298758062],
            shuffled: [25, 14, 13, 10, 15, 8, 23, 9, 6, 7, 22, 17, 2, 3, 21, 20, 11, 1, 12, 0, 19, 26, 5, 24, 27, 18, 4, 16],
            drawn: Probe { sum: 1327257927210, words: [2459513802, 119634792, 2043922678, 585929550], index: 78 },
            many_sum: 2774458123085,
            many: Probe { sum: 1323568642161, words: [1395384198, 1944782652, 1573087533, 2247836196], index: 130 },
            after_many_bits: 0x3fe8d8a4c9b77371,
        },
        Case {
            seed: Seed::U64(4611686018427400249),
            seeded: Probe { sum: 1364647919579, words: [2147483648, 2696283423, 1068440576, 1190252335], index: 624 },
            random_bits: [0x3fdf5a4bfe0cf8a0, 0x3fedbc1a8912fb5a, 0x3fe6130ba8874b8a, 0x3fef05755227cf60, 0x3feef56cf5a60297, 0x3feb0d1681828d89, 0x3fe4c6e33de4be79, 0x3fe2f4ecb05e8f1f, 0x3fddab6e5c7b5932, 0x3feda8e63b4ef66b],
            getrandbits: [1, 2, 191778715, 3178076684, 5488769999, 2069334476569275997],
            randrange: [0, 0, 0, 6, 5, 646, 462436937058],
            shuffled: [15, 5, 25, 20, 9, 10, 17, 4, 21, 14, 8, 23, 0, 12, 1, 13, 11, 18, 27, 26, 22, 24, 6, 2, 3, 7, 19, 16],
            drawn: Probe { sum: 1381006622359, words: [3761447001, 3752235527, 2344661717, 303815327], index: 85 },
            many_sum: 2770365041680,
            many: Probe { sum: 1313760712139, words: [934582154, 2738293722, 2161386210, 83583768], index: 137 },
            after_many_bits: 0x3fc30eca616bce14,
        },
        Case {
            seed: Seed::U64(9223372036854775807),
            seeded: Probe { sum: 1330588436223, words: [2147483648, 2514297873, 1480116029, 1194457675], index: 624 },
            random_bits: [0x3fd443e8e5409ca6, 0x3fe43346b887de9d, 0x3fe9b6b765f6b847, 0x3fdd058d20dfba84, 0x3fde83c5ee300a8a, 0x3fe6e0f31372536f, 0x3fe7d6abe25ae208, 0x3fd1a2def9541236, 0x3fe6a3a08570c754, 0x3fe3c53b5b10f303],
            getrandbits: [0, 26, 1164703477, 2702520618, 3402687524, 14364908005923839519],
            randrange: [0, 0, 2, 3, 5, 853, 886523356640],
            shuffled: [18, 13, 25, 0, 14, 9, 8, 5, 21, 26, 20, 7, 1, 27, 3, 24, 4, 22, 16, 17, 11, 6, 19, 2, 10, 12, 23, 15],
            drawn: Probe { sum: 1313351482638, words: [2331029449, 4217803806, 2604256135, 3156369975], index: 75 },
            many_sum: 2843058362667,
            many: Probe { sum: 1261450921774, words: [1645687953, 786321419, 3420352359, 4097183], index: 127 },
            after_many_bits: 0x3fdc5554b9b034b8,
        },
        Case {
            seed: Seed::Bytes(&[0xc0, 0xd2, 0xe5, 0xad, 0x56, 0x7d, 0x94, 0xd6, 0x75, 0xf7, 0x41, 0x5b, 0x56, 0x68, 0x37, 0x67, 0xca, 0x53, 0x46, 0x5a, 0x00, 0x00, 0x00, 0x00, 0x80]),
            seeded: Probe { sum: 1329466671997, words: [2147483648, 4183876700, 594023256, 1317251832], index: 624 },
            random_bits: [0x3fd0faad7614c60c, 0x3fd7285052109dc4, 0x3fdd0b1c15167404, 0x3fe64372425ddb34, 0x3fe8f03a1812afd0, 0x3fdb4b806da521fe, 0x3fefa0d773be9c68, 0x3fd1a7b019379b96, 0x3fefdd92297aa3b0, 0x3fe54b76cdc8e034],
            getrandbits: [0, 22, 1148200441, 2334538500, 4500659320, 16808017823904939694],
            randrange: [0, 0, 2, 3, 18, 107, 241496129864],
            shuffled: [20, 10, 14, 17, 19, 25, 18, 23, 4, 9, 2, 6, 8, 24, 22, 27, 13, 16, 0, 3, 15, 5, 7, 1, 26, 11, 21, 12],
            drawn: Probe { sum: 1373593044111, words: [4390396, 926416956, 3639152138, 1269809765], index: 82 },
            many_sum: 2747656738044,
            many: Probe { sum: 1335433022676, words: [969031289, 2093453994, 948126018, 1934182477], index: 134 },
            after_many_bits: 0x3fbe22197c7d5030,
        },
        Case {
            seed: Seed::Str(""),
            seeded: Probe { sum: 1390372581749, words: [2147483648, 3998504632, 3293619162, 1946200131], index: 624 },
            random_bits: [0x3feeba2b25d163e4, 0x3fe30d9d60d3da22, 0x3fd8d52f16ea3076, 0x3fe7797eef02ec3e, 0x3fcc44402db32d80, 0x3fd5fafb06317e42, 0x3fe3f21e5c07701d, 0x3feefa4b3667d531, 0x3fe42efffd4e44d3, 0x3fd76644a6e48692],
            getrandbits: [0, 14, 837658549, 1318543954, 5125003197, 9412541591502902404],
            randrange: [0, 1, 2, 0, 7, 646, 695443067191],
            shuffled: [27, 1, 8, 16, 24, 15, 9, 13, 4, 17, 21, 2, 19, 25, 23, 22, 11, 3, 0, 14, 18, 20, 12, 26, 10, 5, 7, 6],
            drawn: Probe { sum: 1394940353302, words: [1325054211, 242564749, 2688711819, 426434188], index: 79 },
            many_sum: 2807963259991,
            many: Probe { sum: 1302290697477, words: [457021002, 1001293716, 1144061669, 3225720588], index: 131 },
            after_many_bits: 0x3fee04c46f156b1a,
        },
        Case {
            seed: Seed::Str("7:seat:0"),
            seeded: Probe { sum: 1370966663646, words: [2147483648, 3771554397, 2857372862, 3819391796], index: 624 },
            random_bits: [0x3fe668b8434e32e1, 0x3febdae0cc9390e2, 0x3fee46258e3b9da7, 0x3fe78a087ff5a5a6, 0x3fd8926e6124a868, 0x3fea5ea709c25918, 0x3fdea6293dc9a58a, 0x3fecfa547f39310e, 0x3fcc4c06ba9792f4, 0x3fed8acd76ca9816],
            getrandbits: [0, 26, 327091458, 1989054455, 6841351174, 10250503270410954349],
            randrange: [0, 0, 1, 6, 20, 854, 516303667804],
            shuffled: [17, 23, 27, 0, 25, 6, 2, 24, 7, 4, 5, 18, 20, 15, 10, 3, 12, 14, 9, 1, 16, 11, 22, 26, 8, 13, 21, 19],
            drawn: Probe { sum: 1368319708581, words: [1410019255, 2230731894, 1917218224, 4112660112], index: 73 },
            many_sum: 2774178932973,
            many: Probe { sum: 1310563289946, words: [3691816501, 1304230450, 3206829781, 1697856608], index: 125 },
            after_many_bits: 0x3fd1c4b786311916,
        },
        Case {
            seed: Seed::Str("1234567890123:seat:3"),
            seeded: Probe { sum: 1365026004972, words: [2147483648, 2999532724, 3178421390, 3631096831], index: 624 },
            random_bits: [0x3fd984d4a8bff8fc, 0x3fe747b714d43f56, 0x3fda4d0a0b032e9a, 0x3fd821516a7c1374, 0x3fdba35ffdb0eea4, 0x3feb0f2b18fe25da, 0x3fdca45da229e83c, 0x3fdb8c85c355a052, 0x3feee31afbd2a3fa, 0x3fed1710ca050061],
            getrandbits: [1, 12, 684628639, 1344507988, 3753144526, 17753435809818771294],
            randrange: [0, 0, 2, 2, 3, 454, 509066370948],
            shuffled: [18, 17, 19, 25, 4, 21, 14, 12, 8, 7, 26, 27, 13, 23, 16, 22, 1, 9, 5, 2, 3, 10, 24, 15, 11, 0, 6, 20],
            drawn: Probe { sum: 1423784472367, words: [1605808115, 2263471436, 1245038922, 1453838540], index: 76 },
            many_sum: 2792954706377,
            many: Probe { sum: 1330182217526, words: [943047113, 631647793, 485118934, 2458473653], index: 128 },
            after_many_bits: 0x3fdca976a67a4fde,
        },
        Case {
            seed: Seed::Str("x:hint:2"),
            seeded: Probe { sum: 1342052908231, words: [2147483648, 3990284392, 602412666, 237603245], index: 624 },
            random_bits: [0x3fc60ff9bb7e2a18, 0x3fd1ee1a94407aba, 0x3fe62ff0dda6a8f3, 0x3fed8c25b816cccf, 0x3fd81719d938dd8c, 0x3fd5eb870917fdca, 0x3fe57e2da8fe2aff, 0x3fe1599b26cdbbe4, 0x3feb7c31997f40e4, 0x3fe6cab8112853c8],
            getrandbits: [1, 10, 1999435539, 916007040, 4050416413, 4978526380582512848],
            randrange: [0, 0, 1, 4, 23, 942, 36770652930],
            shuffled: [26, 14, 13, 10, 18, 1, 15, 20, 2, 22, 8, 12, 19, 16, 9, 21, 17, 7, 6, 23, 4, 3, 0, 27, 25, 5, 11, 24],
            drawn: Probe { sum: 1345669171942, words: [3422563056, 3774518034, 4074291925, 970797844], index: 89 },
            many_sum: 2895041929075,
            many: Probe { sum: 1347476225705, words: [2605177025, 3411963563, 3432768439, 1319677684], index: 141 },
            after_many_bits: 0x3fedf47d2e3ee41c,
        },
        Case {
            seed: Seed::Str("żółw"),
            seeded: Probe { sum: 1305878328018, words: [2147483648, 593100619, 929356445, 901069531], index: 624 },
            random_bits: [0x3fbfab9676e31c88, 0x3fa243e0fe58bbe0, 0x3feca7092ba915a5, 0x3fe360f7f4da5362, 0x3fca9c7ac361b080, 0x3fd0387ff9edcca2, 0x3fdccf7dc266a1b4, 0x3fe82fe56f1f0ddd, 0x3fee376f3fd68b1d, 0x3fc1b89b6bb98cd0],
            getrandbits: [0, 3, 483619588, 3925901120, 4146426557, 10939482574679345170],
            randrange: [0, 0, 0, 4, 11, 622, 16579827892],
            shuffled: [2, 15, 20, 17, 27, 18, 0, 6, 14, 10, 3, 4, 5, 19, 9, 24, 8, 16, 21, 13, 12, 23, 1, 11, 26, 22, 25, 7],
            drawn: Probe { sum: 1295725982678, words: [1464548065, 1541399134, 2515486705, 2122261311], index: 74 },
            many_sum: 2827016465298,
            many: Probe { sum: 1368388559356, words: [3644362774, 2213316320, 10741909, 48250753], index: 126 },
            after_many_bits: 0x3fe1ded07df54109,
        },
        Case {
            seed: Seed::Str("\0\0\0\0\0"),
            seeded: Probe { sum: 1303966263851, words: [2147483648, 1051662267, 1959135568, 760485174], index: 624 },
            random_bits: [0x3fe8c355279eb7bc, 0x3fe34964b2475274, 0x3febd597f7fa8cea, 0x3fc3f052f4e061cc, 0x3fda6d76e09aa45a, 0x3fdfe6392f3a7ae0, 0x3fd70a8122aa9246, 0x3fd93404d63422c6, 0x3fe41f8ceccc763c, 0x3fed35445827efb7],
            getrandbits: [0, 1, 480536110, 1684891019, 7875034458, 4448250630018789640],
            randrange: [0, 1, 0, 6, 23, 634, 275211873173],
            shuffled: [6, 9, 1, 7, 20, 25, 11, 18, 21, 12, 13, 4, 3, 23, 27, 14, 24, 0, 19, 10, 22, 5, 26, 16, 8, 15, 17, 2],
            drawn: Probe { sum: 1337653774311, words: [123626479, 213928530, 3801202547, 3993237509], index: 72 },
            many_sum: 2783512869478,
            many: Probe { sum: 1311404294886, words: [3486686961, 3652078136, 2230514739, 1548795820], index: 124 },
            after_many_bits: 0x3fee163cea4d185a,
        },
    ];
    const SYNTHETIC_INDEX: u32 = 5;
    #[rustfmt::skip]
    const SYNTHETIC_RANDOM_BITS: [u64; 5] = [0x3fca1cbc8d29dc14, 0x3fe39cd276bf1edd, 0x3fd6582655d30862, 0x3fb05fa600631c78, 0x3fc0db2570b12628];
    const NEG_61_FIRST_BITS: u64 = 0x3fdfa5aea17421d8;
}
