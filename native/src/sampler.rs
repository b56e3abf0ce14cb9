//! Deals of the tiles a seat cannot see, consistent with its view: the twin of
//! `exact61.search.sampler.sample_indices`, draw for draw from the same random source.
//!
//! What the view reveals (`Knowledge`) is read in Python (`sampler.knowledge_of`): the unseen
//! tiles, and for every hidden tile of another seat the pip values it cannot show (R10: that
//! seat drew or passed while those values were open).

use crate::rng::PyRandom;
use crate::tables::value_mask;

/// What a view reveals about the hidden tiles (`sampler.Knowledge`).
#[derive(Clone, Debug)]
pub struct Knowledge {
    pub players: usize,
    /// The unseen tiles, in the set's order.
    pub pool: Vec<u8>,
    /// Every hidden slot as (seat, mask of forbidden pip values), tightest first.
    pub order: Vec<(usize, u8)>,
}

/// Each hidden hand (the viewing seat's left empty) and the boneyard in draw order.
pub type Sample = (Vec<Vec<u8>>, Vec<u8>);

impl Knowledge {
    /// `sample_indices`: slots filled tightest first from a shuffled pool; a slot nothing
    /// constrains takes the pool's next tile. A dead end restarts (20 tries), then one
    /// matching over all slots at once, which always succeeds for a real view.
    pub fn sample(&self, rng: &mut PyRandom) -> Sample {
        for _ in 0..20 {
            let mut left = self.pool.clone();
            rng.shuffle(&mut left);
            let mut hands: Vec<Vec<u8>> = vec![Vec::new(); self.players];
            let mut dead_end = false;
            for &(seat, mask) in &self.order {
                if mask == 0 {
                    let t = left.pop().expect("a tile for every slot");
                    hands[seat].push(t);
                    continue;
                }
                let fits: Vec<usize> = (0..left.len())
                    .filter(|&j| value_mask(left[j] as usize) & mask == 0)
                    .collect();
                if fits.is_empty() {
                    dead_end = true;
                    break;
                }
                let j = fits[rng.randrange(fits.len() as u64) as usize];
                hands[seat].push(left.remove(j));
            }
            if !dead_end {
                return (hands, left);
            }
        }
        self.matched(rng)
    }

    /// The rare case: a matching over all hidden slots at once (`sampler._matching`).
    fn matched(&self, rng: &mut PyRandom) -> Sample {
        let mut pool = self.pool.clone();
        rng.shuffle(&mut pool);
        let candidates: Vec<Vec<usize>> = self
            .order
            .iter()
            .map(|&(_, mask)| {
                (0..pool.len())
                    .filter(|&i| value_mask(pool[i] as usize) & mask == 0)
                    .collect()
            })
            .collect();
        let chosen = assignment(&candidates).expect("a deal consistent with the view");
        let mut hands: Vec<Vec<u8>> = vec![Vec::new(); self.players];
        for (&(seat, _), &i) in self.order.iter().zip(&chosen) {
            hands[seat].push(pool[i]);
        }
        let boneyard = (0..pool.len())
            .filter(|i| !chosen.contains(i))
            .map(|i| pool[i])
            .collect();
        (hands, boneyard)
    }
}

/// `sampler.assignment`: for each slot one of its candidate items (tried in the order given),
/// no item twice, by augmenting paths; None when there is no such choice.
pub fn assignment(candidates: &[Vec<usize>]) -> Option<Vec<usize>> {
    let items = candidates
        .iter()
        .flatten()
        .copied()
        .max()
        .map_or(0, |m| m + 1);
    let mut owner: Vec<Option<usize>> = vec![None; items];
    for slot in 0..candidates.len() {
        let mut seen = vec![false; items];
        if !augment(candidates, slot, &mut seen, &mut owner) {
            return None;
        }
    }
    let mut chosen = vec![0; candidates.len()];
    for (item, slot) in owner.iter().enumerate() {
        if let Some(slot) = slot {
            chosen[*slot] = item;
        }
    }
    Some(chosen)
}

fn augment(
    candidates: &[Vec<usize>],
    slot: usize,
    seen: &mut [bool],
    owner: &mut [Option<usize>],
) -> bool {
    for &item in &candidates[slot] {
        if seen[item] {
            continue;
        }
        seen[item] = true;
        let free = match owner[item] {
            None => true,
            Some(other) => augment(candidates, other, seen, owner),
        };
        if free {
            owner[item] = Some(slot);
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_slot_gets_a_tile_it_may_hold() {
        // Seat 1 holds two tiles showing no 0 (mask bit 0), seat 0 is the viewer.
        let know = Knowledge {
            players: 2,
            pool: (7..28).collect(),
            order: vec![(1, 0b1), (1, 0b1), (1, 0)],
        };
        let mut rng = PyRandom::from_u64(3);
        for _ in 0..50 {
            let (hands, boneyard) = know.sample(&mut rng);
            assert_eq!(hands[1].len(), 3);
            assert!(hands[1][..2]
                .iter()
                .all(|&t| value_mask(t as usize) & 1 == 0));
            assert_eq!(hands[1].len() + boneyard.len(), 21);
        }
    }

    #[test]
    fn a_matching_is_found_where_greed_fails() {
        assert_eq!(assignment(&[vec![0, 1], vec![0]]), Some(vec![1, 0]));
        assert_eq!(assignment(&[vec![0], vec![0]]), None);
    }
}
