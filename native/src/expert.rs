//! `expert`: information-set MCTS valued by the match equity table, the twin of
//! `exact61.bots.expert.ExpertBot.evaluate`, iteration for iteration (the same deals, weighted
//! by the others' choices, the same paired root, the same opponent policy and UCB, the same
//! rollouts and the same floats from the same random source). Where nothing is hidden the
//! round is solved outright before (`solve`, as `search.evaluate.solve_exactly` asks).

use std::time::Instant;

use crate::engine::{side_of, Position};
use crate::equity::{EquityTable, Values};
use crate::ismcts::Tree;
use crate::rng::PyRandom;
use crate::sampler::{Knowledge, Sample};
use crate::solver::{Leaf, Played, Solver};
use crate::tables::{move_class, TILE_COUNT};

/// UCB's exploration prior spread, until the search has seen 30 rewards (`PRIOR_SPREAD`).
const PRIOR_SPREAD: f64 = 0.15;

/// A placement another seat chose (`sampler.Choice`): deals are weighted by how likely they
/// make it.
#[derive(Clone, Debug)]
pub struct Choice {
    pub seat: usize,
    pub base: f64,
    pub alt: [f64; TILE_COUNT],
}

/// `sampler.choice_weight`: how likely a deal makes every choice, relative to the likeliest.
fn choice_weight(choices: &[Choice], hands: &[Vec<u8>]) -> f64 {
    let mut weight = 1.0;
    for choice in choices {
        let mut extra = 0.0;
        for &t in &hands[choice.seat] {
            extra += choice.alt[t as usize];
        }
        weight *= choice.base / (choice.base + extra);
    }
    weight
}

/// `sampler.sample_weighted`: a sample kept with chance `weight`; after `tries`
/// rejections, the likeliest seen.
pub fn sample_weighted(
    knowledge: &Knowledge,
    choices: &[Choice],
    rng: &mut PyRandom,
    tries: u32,
) -> Sample {
    let mut best: Option<Sample> = None;
    let mut best_weight = -1.0;
    for _ in 0..tries {
        let deal = knowledge.sample(rng);
        if choices.is_empty() {
            return deal;
        }
        let weight = choice_weight(choices, &deal.0);
        if rng.random() < weight {
            return deal;
        }
        if weight > best_weight {
            (best, best_weight) = (Some(deal), weight);
        }
    }
    best.expect("at least one try")
}

/// The expert's settings (`ExpertBot`'s).
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub iterations: u64,
    pub seconds: Option<f64>,
    pub exploration: f64,
    pub epsilon: f64,
    pub tries: u32,
    pub opponent_visits: u32,
}

/// What a search found: the tree, every complete deal's values by root class (paired), the
/// iterations run.
pub struct Found {
    pub tree: Tree,
    pub deals: Vec<Vec<(u16, Values)>>,
    pub iterations: u64,
}

struct Search<'s, 'a> {
    settings: Settings,
    solver: &'s mut Solver<'a>,
    tree: Tree,
    rng: &'s mut PyRandom,
    /// Rewards seen: count, mean, sum of squared deviations (Welford).
    spread: (u64, f64, f64),
}

/// `ExpertBot.evaluate`'s search: `template` is the round as the seat sees it (a search's
/// position).
#[allow(clippy::too_many_arguments)]
pub fn evaluate(
    template: &Position,
    knowledge: &Knowledge,
    choices: &[Choice],
    seat: usize,
    own: &[u8],
    classes: &[u16],
    table: &EquityTable,
    settings: Settings,
    rng: &mut PyRandom,
) -> Found {
    let started = Instant::now();
    let players = template.players as usize;
    let mut solver = Solver::new(template, Leaf::new(table, players), None);
    let mut first_moves = Vec::new();
    template.for_search().distinct_moves(&mut first_moves);
    let mut search = Search {
        settings,
        solver: &mut solver,
        tree: Tree::default(),
        rng,
        spread: (0, 0.0, 0.0),
    };
    let late = |n: u64| {
        settings
            .seconds
            .is_some_and(|s| n > 0 && started.elapsed().as_secs_f64() >= s)
    };
    let mut n = 0;
    let mut deals = Vec::new();
    while n < settings.iterations && !late(n) {
        let (mut hidden, boneyard) = if !choices.is_empty() {
            sample_weighted(knowledge, choices, search.rng, settings.tries)
        } else {
            knowledge.sample(search.rng)
        };
        hidden[seat] = own.to_vec();
        let position = template.redeal(&hidden, &boneyard);
        // every root move on this deal: their differences lose its luck
        let mut deal = Vec::new();
        for &first in classes {
            if n > 0 && late(n) {
                break;
            }
            let m = *first_moves
                .iter()
                .find(|&&m| move_class(m) == first)
                .expect("a distinct move of every class");
            deal.push((first, search.iterate(&position, Some(m))));
            n += 1;
        }
        if deal.len() == classes.len() {
            deals.push(deal);
        }
    }
    Found {
        tree: search.tree,
        deals,
        iterations: n,
    }
}

impl Search<'_, '_> {
    /// UCB's exploration, scaled by the spread of the rewards seen so far.
    fn exploration(&self) -> f64 {
        let (count, _, squares) = self.spread;
        let spread = if count >= 30 {
            (squares / count as f64).sqrt()
        } else {
            PRIOR_SPREAD
        };
        self.settings.exploration * if spread >= 0.01 { spread } else { 0.01 }
    }

    /// One descent from the root (through its move `first` when given) and one rollout;
    /// every side's reward.
    fn iterate(&mut self, start: &Position, mut first: Option<u16>) -> Values {
        let players = start.players as usize;
        let root_side = side_of(players, start.to_act as usize);
        let mut node = 0;
        let mut path: Vec<(usize, usize)> = Vec::new();
        let mut moves = Vec::new();
        let mut position = start.clone();
        let rewards = loop {
            position.distinct_moves(&mut moves);
            if moves.len() == 1 {
                match self.solver.play(&position, moves[0]) {
                    Played::Ended(values) => break values,
                    Played::Goes(next) => {
                        position = next;
                        continue;
                    }
                }
            }
            let side = side_of(players, position.to_act as usize);
            let (m, child, expanded) = if let Some(m) = first.take() {
                let key = move_class(m);
                match self.tree.child(node, key) {
                    Some(child) => (m, child, false),
                    None => (m, self.tree.add_child(node, key, 0), true),
                }
            } else if side != root_side {
                self.reply(node, &position, &moves)
            } else {
                let keys: Vec<u16> = moves.iter().map(|&m| move_class(m)).collect();
                let c = self.exploration();
                let (key, child, expanded) = self.tree.step(node, &keys, self.rng, c);
                let at = keys.iter().position(|&k| k == key).expect("a key");
                (moves[at], child, expanded)
            };
            node = child;
            path.push((node, side));
            let played = self.solver.play(&position, m);
            if expanded {
                break match played {
                    Played::Ended(values) => values,
                    Played::Goes(next) => {
                        self.solver.rollout(&next, self.rng, self.settings.epsilon)
                    }
                };
            }
            match played {
                Played::Ended(values) => break values,
                Played::Goes(next) => position = next,
            }
        };
        for &(n, side) in &path {
            self.tree.nodes[n].visits += 1;
            self.tree.nodes[n].reward += rewards[side];
        }
        if let Some(&(_, side)) = path.first() {
            let (count, mean, squares) = &mut self.spread;
            *count += 1;
            let x = rewards[side];
            let delta = x - *mean;
            *mean += delta / *count as f64;
            *squares += delta * (x - *mean);
        }
        rewards
    }

    /// The other side's move at `node` (`ExpertBot._reply`): the rollout policy's on their
    /// sampled hand until the node has `opponent_visits` visits, then UCB's over their replies,
    /// the untried first in the policy's order.
    fn reply(&mut self, node: usize, position: &Position, moves: &[u16]) -> (u16, usize, bool) {
        let learns = self.settings.opponent_visits > 0;
        if learns {
            for &m in moves {
                if let Some(child) = self.tree.child(node, move_class(m)) {
                    self.tree.nodes[child].available += 1;
                }
            }
        }
        if learns && self.tree.nodes[node].visits >= self.settings.opponent_visits {
            let ranked = self.solver.ranked_moves(position, moves);
            for &m in &ranked {
                let key = move_class(m);
                if self.tree.child(node, key).is_none() {
                    let new = self.tree.add_child(node, key, 1);
                    return (m, new, true);
                }
            }
            let c = self.exploration();
            let (mut best_score, mut chosen) = (f64::NEG_INFINITY, ranked[0]);
            for &m in &ranked {
                let child = &self.tree.nodes[self.tree.child(node, move_class(m)).expect("tried")];
                let visits = child.visits as f64;
                let mut score =
                    child.reward / visits + c * ((child.available as f64).ln() / visits).sqrt();
                score += self.rng.random() * 1e-9; // ties at random
                if score > best_score {
                    (best_score, chosen) = (score, m);
                }
            }
            let child = self.tree.child(node, move_class(chosen)).expect("tried");
            return (chosen, child, false);
        }
        let m = if self.rng.random() < self.settings.epsilon {
            moves[self.rng.randrange(moves.len() as u64) as usize]
        } else {
            self.solver.greedy_move(position, moves)
        };
        let key = move_class(m);
        match self.tree.child(node, key) {
            Some(child) => (m, child, false),
            None => (m, self.tree.add_child(node, key, learns as u32), true),
        }
    }
}
