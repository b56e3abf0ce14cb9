//! Each move's match equity from what a seat may know, by perfect-information Monte Carlo:
//! the twin of `exact61.search.evaluate.evaluate_moves` (what `pimc` plays by), deal for deal
//! and float for float. Deals consistent with the view are sampled; on each, every move is
//! solved exactly when it fits a node budget, else valued by rollouts. 2 players with an empty
//! boneyard are solved outright first (`solve`, as Python's `solve_exactly` asks); what this
//! gets of them is the one deal there is, too large to solve, to roll out.

use std::time::Instant;

use crate::engine::Position;
use crate::equity::{EquityTable, Values};
use crate::rng::PyRandom;
use crate::sampler::{Knowledge, Sample};
use crate::solver::{Leaf, Played, Solver};
use crate::tables::move_class;

/// Rollouts of the one deal there is, with a time budget, as if this many deals
/// (`ESTIMATE_DEALS`).
const ESTIMATE_DEALS: u64 = 64;

/// `evaluate_moves`'s settings.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub deals: u64,
    pub node_limit: u64,
    pub solve_tiles: usize,
    pub rollouts: u64,
    pub epsilon: f64,
    pub seconds: Option<f64>,
}

/// What the deals gave: each root class's values, one a deal, in the order of `classes`; the
/// deals counted, and how many (deal, move) values were solved of those tried; `estimate`: the
/// one deal of an exact position, rolled out.
pub struct Valued {
    pub per_move: Vec<(u16, Vec<Values>)>,
    pub deals: u64,
    pub solved: u64,
    pub tried: u64,
    pub estimate: bool,
}

/// `evaluate_moves` up to its summary: `template` is the round as the seat sees it (a
/// search's position), `classes` the root's move classes in the order of the legal actions,
/// `tiles_left` the tiles in every hand and the boneyard (`solve_tiles` is compared with it),
/// `exact_hands` the hands when nothing is hidden (2 players, an empty boneyard) and the
/// position is too large to solve.
#[allow(clippy::too_many_arguments)]
pub fn evaluate(
    template: &Position,
    exact_hands: Option<Vec<Vec<u8>>>,
    knowledge: &Knowledge,
    seat: usize,
    own: &[u8],
    classes: &[u16],
    tiles_left: usize,
    table: &EquityTable,
    mut settings: Settings,
    rng: &mut PyRandom,
) -> Valued {
    let started = Instant::now();
    let late = |n: u64| {
        settings
            .seconds
            .is_some_and(|s| n >= 2 && started.elapsed().as_secs_f64() >= s)
    };
    let players = template.players as usize;
    if let Some(seconds) = settings.seconds {
        let nodes = (seconds * 100_000.0) as u64; // SOLVER_NODES_PER_SECOND
        let per = nodes / (4 * classes.len() as u64);
        settings.node_limit = settings.node_limit.min(per.max(200));
    }
    let mut first_moves = Vec::new();
    template.for_search().distinct_moves(&mut first_moves);
    let root_move = |class: u16| {
        *first_moves
            .iter()
            .find(|&&m| move_class(m) == class)
            .expect("a distinct move of every class")
    };
    let exact_case = exact_hands.is_some();
    let mut samples: Vec<Sample> = Vec::new();
    let mut drawn_lazily = false;
    if let Some(hands) = exact_hands {
        // solved outright before (`solve`) unless too large: the one deal there is, rolled out
        samples.push((hands, Vec::new()));
    } else if settings.seconds.is_none() {
        // all drawn first, so a seed gives the same deals as ever
        for _ in 0..settings.deals {
            samples.push(deal_for(knowledge, rng, seat, own));
        }
    } else {
        drawn_lazily = true;
    }
    let mut per_move: Vec<(u16, Vec<Values>)> = classes.iter().map(|&k| (k, Vec::new())).collect();
    let (mut solved, mut tried, mut n) = (0u64, 0u64, 0u64);
    let mut give_up = tiles_left > settings.solve_tiles;
    let total_deals = if drawn_lazily {
        settings.deals
    } else {
        samples.len() as u64
    };
    for d in 0..total_deals {
        let (hidden, bone) = if drawn_lazily {
            deal_for(knowledge, rng, seat, own) // drawn as it is wanted, before the clock
        } else {
            samples[d as usize].clone()
        };
        if late(n) {
            break;
        }
        let position = template.redeal(&hidden, &bone);
        let mut solver = Solver::new(&position, Leaf::new(table, players), None);
        let root = solver.root.clone();
        let mut deal: Vec<Values> = Vec::new();
        for &k in classes {
            if late(n) {
                break; // this deal is not counted
            }
            tried += 1;
            let child = match solver.play(&root, root_move(k)) {
                Played::Ended(values) => {
                    deal.push(values);
                    solved += 1;
                    continue;
                }
                Played::Goes(child) => child,
            };
            let mut value = None;
            if !give_up && !exact_case {
                solver.nodes = 0;
                solver.node_limit = Some(settings.node_limit);
                match solver.value_of(&child) {
                    Ok(v) => {
                        value = Some(v);
                        solved += 1;
                    }
                    Err(_) => give_up = true, // the other deals are as large: roll them out
                }
            }
            let value = value.unwrap_or_else(|| {
                let runs = if exact_case && settings.seconds.is_none() {
                    settings.rollouts * settings.deals
                } else if exact_case {
                    settings.rollouts * settings.deals.min(ESTIMATE_DEALS)
                } else {
                    settings.rollouts
                };
                let mut total = [0.0; 4];
                for _ in 0..runs {
                    let values = solver.rollout(&child, rng, settings.epsilon);
                    for (t, v) in total.iter_mut().zip(values) {
                        *t += v;
                    }
                }
                total.map(|t| t / runs as f64)
            });
            deal.push(value);
        }
        if deal.len() < classes.len() {
            break;
        }
        n += 1;
        for ((_, values), value) in per_move.iter_mut().zip(deal) {
            values.push(value);
        }
    }
    Valued {
        per_move,
        deals: n,
        solved,
        tried,
        estimate: exact_case,
    }
}

/// One deal consistent with the view, the seat's own tiles in its hand (`evaluate._sampled`).
fn deal_for(knowledge: &Knowledge, rng: &mut PyRandom, seat: usize, own: &[u8]) -> Sample {
    let (mut hidden, boneyard) = knowledge.sample(rng);
    hidden[seat] = own.to_vec();
    (hidden, boneyard)
}
