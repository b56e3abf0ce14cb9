//! `ismcts`: single-observer information-set Monte Carlo tree search, the twin of
//! `exact61.bots.ismcts`, iteration for iteration: the same sampled deals, the same tree over
//! move classes, the same UCB and epsilon-greedy rollouts, the same floats, from the same
//! random source. Given an iteration budget it makes the Python bot's choice.

use std::time::Instant;

use crate::engine::{accepts, side_count, side_of, Position, Quiet};
use crate::rng::PyRandom;
use crate::sampler::Knowledge;
use crate::tables::{move_class, pips, DRAW, MOVE_STRIDE};

/// One node of the tree: its children by move class, in the order they were made.
#[derive(Clone, Debug, Default)]
pub struct Node {
    pub children: Vec<(u16, usize)>,
    pub visits: u32,
    pub available: u32,
    /// Summed reward of the side that chose the move leading here.
    pub reward: f64,
}

/// A tree as an arena of nodes; node 0 is the root.
#[derive(Clone, Debug)]
pub struct Tree {
    pub nodes: Vec<Node>,
}

impl Default for Tree {
    fn default() -> Self {
        Tree {
            nodes: vec![Node::default()],
        }
    }
}

impl Tree {
    pub fn child(&self, node: usize, class: u16) -> Option<usize> {
        self.nodes[node]
            .children
            .iter()
            .find(|&&(k, _)| k == class)
            .map(|&(_, c)| c)
    }

    pub fn add_child(&mut self, node: usize, class: u16, available: u32) -> usize {
        let index = self.nodes.len();
        self.nodes.push(Node {
            available,
            ..Node::default()
        });
        self.nodes[node].children.push((class, index));
        index
    }

    /// `Node.step`: each existing child among `classes` counts as available once more; an
    /// untried class is expanded at random (true), else the child with the best UCB score
    /// (exploration `c`) is taken (false).
    pub fn step(
        &mut self,
        node: usize,
        classes: &[u16],
        rng: &mut PyRandom,
        c: f64,
    ) -> (u16, usize, bool) {
        let mut untried = Vec::new();
        for &k in classes {
            match self.child(node, k) {
                Some(child) => self.nodes[child].available += 1,
                None => untried.push(k),
            }
        }
        if !untried.is_empty() {
            let key = untried[rng.randrange(untried.len() as u64) as usize];
            let child = self.add_child(node, key, 1);
            return (key, child, true);
        }
        let (mut best_score, mut chosen) = (-1.0, classes[0]);
        for &k in classes {
            let child = &self.nodes[self.child(node, k).expect("every class tried")];
            let visits = child.visits as f64;
            let score = child.reward / visits + c * ((child.available as f64).ln() / visits).sqrt();
            if score > best_score {
                (best_score, chosen) = (score, k);
            }
        }
        let child = self.child(node, chosen).expect("a child");
        (chosen, child, false)
    }
}

/// One move per class of equivalent moves, the first listed (`ismcts._classes`).
pub fn classes_of(legal: &[u16], out: &mut Vec<(u16, u16)>) {
    out.clear();
    for &m in legal {
        let class = move_class(m);
        if !out.iter().any(|&(k, _)| k == class) {
            out.push((class, m));
        }
    }
}

/// The rollout's move: a random legal move with chance `epsilon` (or when there is one), else
/// the one greedy plays (`ismcts._rollout_move`).
fn rollout_move(position: &Position, legal: &[u16], rng: &mut PyRandom, epsilon: f64) -> u16 {
    if legal.len() == 1 || rng.random() < epsilon {
        return legal[rng.randrange(legal.len() as u64) as usize];
    }
    let seat = position.to_act as usize;
    let score = position.scores[side_of(position.players as usize, seat)];
    let (mut best, mut best_worth) = (legal[0], (-1, -1));
    for &m in legal {
        let tile_pips = if m < DRAW {
            pips(m as usize / MOVE_STRIDE) as i32
        } else {
            0
        };
        let credit = position.credit_of(m);
        let worth = (if accepts(score, credit) { credit } else { 0 }, tile_pips);
        if worth > best_worth {
            (best, best_worth) = (m, worth);
        }
    }
    best
}

/// Each side's reward at a round's end (`ismcts._rewards`): 1 to a side on exactly 305, else
/// by its gain against the best other side's.
fn rewards(position: &Position, start: &[i32]) -> [f64; 4] {
    let sides = side_count(position.players as usize);
    let mut out = [0.0; 4];
    if let Some(winner) = position.won_by() {
        out[winner] = 1.0;
        return out;
    }
    let gains: Vec<i32> = (0..sides).map(|s| position.scores[s] - start[s]).collect();
    for s in 0..sides {
        let others = (0..sides)
            .filter(|&o| o != s)
            .map(|o| gains[o])
            .max()
            .expect("another side");
        out[s] = 0.5 + 0.5 * ((gains[s] - others) as f64 / 60.0).tanh();
    }
    out
}

/// The search's settings (`ISMCTSBot`'s).
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub iterations: u64,
    pub seconds: Option<f64>,
    pub exploration: f64,
    pub epsilon: f64,
}

/// What a search found: each root class's visits, and how many iterations it ran.
pub struct Found {
    pub visits: Vec<(u16, u32)>,
    pub iterations: u64,
}

/// `ISMCTSBot.choose`'s search: iterations on deals sampled from `knowledge`, each on the
/// round `template` (a match's position: it lists moves as a match does) redealt with the
/// viewer's `own` tiles and the sample's.
pub fn search(
    template: &Position,
    knowledge: &Knowledge,
    seat: usize,
    own: &[u8],
    settings: Settings,
    rng: &mut PyRandom,
) -> Found {
    let mut tree = Tree::default();
    let start: Vec<i32> = template.scores[..template.sides()].to_vec();
    let deadline = settings.seconds.map(|s| (Instant::now(), s));
    let mut scratch = Scratch::default();
    let mut n = 0;
    while n < settings.iterations && deadline.is_none_or(|(t, s)| t.elapsed().as_secs_f64() < s) {
        let (mut hidden, boneyard) = knowledge.sample(rng);
        hidden[seat] = own.to_vec();
        let position = template.redeal(&hidden, &boneyard);
        iterate(&mut tree, position, &start, settings, rng, &mut scratch);
        n += 1;
    }
    let visits = tree.nodes[0]
        .children
        .iter()
        .map(|&(k, c)| (k, tree.nodes[c].visits))
        .collect();
    Found {
        visits,
        iterations: n,
    }
}

#[derive(Default)]
struct Scratch {
    legal: Vec<u16>,
    classes: Vec<(u16, u16)>,
    keys: Vec<u16>,
    path: Vec<(usize, usize)>,
}

/// One iteration on a sampled deal: down the tree, one new node, a rollout, back up.
fn iterate(
    tree: &mut Tree,
    mut position: Position,
    start: &[i32],
    settings: Settings,
    rng: &mut PyRandom,
    scratch: &mut Scratch,
) {
    let players = position.players as usize;
    let mut node = 0;
    scratch.path.clear();
    while position.end == 0 {
        position.legal_moves(&mut scratch.legal);
        classes_of(&scratch.legal, &mut scratch.classes);
        if scratch.classes.len() == 1 {
            // forced: no choice to learn
            position.play(scratch.legal[0], &mut Quiet);
            continue;
        }
        let seat = position.to_act as usize;
        scratch.keys.clear();
        scratch.keys.extend(scratch.classes.iter().map(|&(k, _)| k));
        let (key, child, expanded) = tree.step(node, &scratch.keys, rng, settings.exploration);
        node = child;
        scratch.path.push((node, side_of(players, seat)));
        let m = scratch
            .classes
            .iter()
            .find(|&&(k, _)| k == key)
            .expect("a class")
            .1;
        position.play(m, &mut Quiet);
        if expanded {
            break;
        }
    }
    while position.end == 0 {
        position.legal_moves(&mut scratch.legal);
        let m = rollout_move(&position, &scratch.legal, rng, settings.epsilon);
        position.play(m, &mut Quiet);
    }
    let rewards = rewards(&position, start);
    for &(n, side) in &scratch.path {
        tree.nodes[n].visits += 1;
        tree.nodes[n].reward += rewards[side];
    }
}
