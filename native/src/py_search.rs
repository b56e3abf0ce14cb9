//! The searches for Python (`exact61.bots`): one call a decision, the GIL released while it
//! thinks, the bot's random source handed over and back (`random.Random.getstate()`'s words),
//! so the Python bot's source goes on as if it had searched itself.

use std::collections::HashMap;

use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::engine::{side_count, side_of, Position};
use crate::equity::{EquityTable, Values};
use crate::evaluate;
use crate::expert::{self, Choice};
use crate::ismcts::{search, Settings, Tree};
use crate::py_engine::PyPosition;
use crate::rng::PyRandom;
use crate::sampler::Knowledge;
use crate::solver::{Goal, Leaf, Solver};
use crate::tables::TILE_COUNT;

/// A random source from `random.Random.getstate()[1]` (625 words).
pub fn source(words: &[u32]) -> PyResult<PyRandom> {
    PyRandom::from_state(words).ok_or_else(|| {
        PyValueError::new_err("a random source's state is 625 words (random.Random.getstate)")
    })
}

/// The round a seat sees, as a match's position (`sampler.position_of(view, book=True)`): its
/// own tiles, no one else's (a search deals them), the layout, the seat to act.
#[derive(FromPyObject)]
pub struct Seen {
    players: usize,
    seat: usize,
    own: Vec<u8>,
    placements: Vec<u16>,
    to_act: usize,
    opener: usize,
    scores: Vec<i32>,
    pending: i8,
    /// The unseen tiles and every hidden slot as (seat, forbidden values), tightest first.
    pool: Vec<u8>,
    order: Vec<(usize, u8)>,
}

impl Seen {
    fn check(&self) -> PyResult<()> {
        let fine = (2..=4).contains(&self.players)
            && self.seat < self.players
            && self.to_act < self.players
            && self.opener < self.players
            && self
                .own
                .iter()
                .chain(&self.pool)
                .all(|&t| (t as usize) < TILE_COUNT)
            && self.order.iter().all(|&(s, _)| s < self.players);
        if fine {
            Ok(())
        } else {
            Err(PyValueError::new_err("not a seat's view of a round"))
        }
    }

    fn template(&self) -> Position {
        self.round(&[], true)
    }

    /// The round with `hidden` as the other seat's tiles (2 players; none given: no one's),
    /// as a match lists its moves (`ordered`) or as a search does.
    fn round(&self, hidden: &[u8], ordered: bool) -> Position {
        let hands: Vec<Vec<u8>> = (0..self.players)
            .map(|s| {
                if s == self.seat {
                    self.own.clone()
                } else {
                    hidden.to_vec()
                }
            })
            .collect();
        Position::resume(
            &hands,
            &self.placements,
            &[],
            self.to_act,
            self.opener,
            &self.scores,
            self.pending,
            ordered,
        )
    }

    fn knowledge(&self) -> Knowledge {
        Knowledge {
            players: self.players,
            pool: self.pool.clone(),
            order: self.order.clone(),
        }
    }
}

/// Each root move class's visits, the iterations run, the random source's state after them.
type Searched = (Vec<(u16, u32)>, u64, Vec<u32>);

/// `ISMCTSBot.choose`'s search from what the seat sees: `iterations` (or until `seconds`
/// pass), exploration and epsilon as the bot's. Returns each root move class's visits, the
/// iterations run, and the random source's state after them.
#[pyfunction]
#[pyo3(signature = (seen, rng_state, iterations, seconds, exploration, epsilon))]
fn ismcts_search(
    py: Python<'_>,
    seen: Seen,
    rng_state: Vec<u32>,
    iterations: u64,
    seconds: Option<f64>,
    exploration: f64,
    epsilon: f64,
) -> PyResult<Searched> {
    seen.check()?;
    let mut rng = source(&rng_state)?;
    let template = seen.template();
    let knowledge = seen.knowledge();
    let settings = Settings {
        iterations,
        seconds,
        exploration,
        epsilon,
    };
    let found = py.detach(|| {
        search(
            &template, &knowledge, seen.seat, &seen.own, settings, &mut rng,
        )
    });
    Ok((found.visits, found.iterations, rng.state().to_vec()))
}

/// The match equity table in the native core: the numbers of `EquityTable` (its arrays `w2`,
/// `w4`, `w3` and each player count's lowest display score), looked up as it does.
#[pyclass(module = "exact61.core._native", name = "EquityTable", frozen)]
pub struct PyEquityTable {
    table: EquityTable,
}

#[pymethods]
impl PyEquityTable {
    #[new]
    fn new(
        w2: Vec<Vec<f64>>,
        w4: Vec<Vec<f64>>,
        w3: Vec<u16>,
        low: HashMap<usize, i32>,
    ) -> PyResult<Self> {
        let mut lows = [0; 5];
        for (players, lowest) in lows.iter_mut().enumerate().skip(2) {
            *lowest = *low
                .get(&players)
                .ok_or_else(|| PyValueError::new_err(format!("no lowest score for {players}")))?;
        }
        let rows = |t: &Vec<Vec<f64>>, players: usize| {
            let size = (61 - lows[players]) as usize;
            t.len() == size && t.iter().all(|row| row.len() == size)
        };
        if !rows(&w2, 2) || !rows(&w4, 4) || w3.len() != 61 * 61 * 61 * 2 {
            return Err(PyValueError::new_err(
                "an equity table's arrays have the wrong shape",
            ));
        }
        Ok(PyEquityTable {
            table: EquityTable {
                w2,
                w4,
                w3,
                low: lows,
            },
        })
    }

    /// Each side's chance to win from raw `scores` at the start of a round opened by seat
    /// `opener` (None: by a lot), as `EquityTable.win_probabilities`.
    fn win_probabilities(
        &self,
        players: usize,
        scores: Vec<i32>,
        opener: Option<usize>,
    ) -> PyResult<Vec<f64>> {
        let sides = side_count(players);
        if !(2..=4).contains(&players) || scores.len() != sides {
            return Err(PyValueError::new_err("R2: a score for each side"));
        }
        let values = self.table.win_probabilities(players, &scores, opener);
        Ok(values[..sides].to_vec())
    }
}

/// A position of either engine as the native searches take it (a search's copy).
fn position_from(position: &Bound<'_, PyAny>) -> PyResult<Position> {
    if let Ok(native) = position.cast::<PyPosition>() {
        return Ok(native.borrow().position.for_search());
    }
    let item = |i: usize| position.get_item(i);
    let players: usize = item(0)?.extract()?;
    let scores: Vec<i32> = item(6)?.extract()?;
    let bone: Vec<u8> = item(9)?.extract()?;
    if !(2..=4).contains(&players) || scores.len() != side_count(players) || bone.len() > 28 {
        return Err(PyValueError::new_err("not an engine position"));
    }
    let mut position = Position::start(&vec![Vec::new(); players], &bone, 0, &scores, false);
    position.hands = item(1)?.extract()?;
    position.free = item(2)?.extract()?;
    position.end_sum = item(4)?.extract()?;
    position.open = item(5)?.extract()?;
    position.to_act = item(7)?.extract()?;
    position.opener = item(8)?.extract()?;
    position.drawn = item(10)?.extract()?;
    position.pending = item(11)?.extract()?;
    position.end = item(12)?.extract()?;
    Ok(position.for_search_with_shape())
}

fn values_tuple<'py>(
    py: Python<'py>,
    values: &Values,
    sides: usize,
) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, &values[..sides])
}

/// Values by move class, and the nodes searched.
type Solved<'py> = (Vec<(u16, Bound<'py, PyTuple>)>, u64);

/// The exact solver (`search.solver.Solver` over the equity table) from an engine position:
/// every distinct move's values by class (`every_move`), or the best move's class and the
/// position's values; and the nodes searched. None when it needs more than `node_limit` nodes.
#[pyfunction]
#[pyo3(signature = (position, table, node_limit = None, *, every_move = true))]
fn solve<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyAny>,
    table: PyRef<'py, PyEquityTable>,
    node_limit: Option<u64>,
    every_move: bool,
) -> PyResult<Option<Solved<'py>>> {
    let position = position_from(position)?;
    if position.end != 0 {
        return Err(PyValueError::new_err("the round is over: nothing to solve"));
    }
    let sides = position.sides();
    let players = position.players as usize;
    let table = &table.table;
    let leaf = Leaf::new(table, players);
    solved(py, &position, leaf, node_limit, every_move, sides)
}

/// A solver's search from `position` with the GIL released: every distinct move's values by
/// class (`every_move`) or the best move's, as Python reads them, and the nodes searched; None
/// past `node_limit` nodes. `solve` and `solve_goal` differ only in their leaf.
fn solved<'py>(
    py: Python<'py>,
    position: &Position,
    leaf: Leaf,
    node_limit: Option<u64>,
    every_move: bool,
    sides: usize,
) -> PyResult<Option<Solved<'py>>> {
    let (found, nodes) = py.detach(|| {
        let mut solver = Solver::new(position, leaf, node_limit);
        let found = if every_move {
            solver.move_values()
        } else {
            solver.best_move().map(|best| vec![best])
        };
        (found, solver.nodes)
    });
    match found {
        Err(_) => Ok(None),
        Ok(values) => {
            let out = values
                .iter()
                .map(|(class, v)| Ok((*class, values_tuple(py, v, sides)?)))
                .collect::<PyResult<Vec<_>>>()?;
            Ok(Some((out, nodes)))
        }
    }
}

/// The goal solver (`search.solver.GoalSolver`) from an engine position: every distinct
/// move's values by class (`every_move`), or the best move's class and the position's values;
/// and the nodes searched. None when it needs more than `node_limit` nodes.
#[pyfunction]
#[pyo3(signature = (position, seat, values, node_limit = None, most = None, *, every_move = true))]
fn solve_goal<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyAny>,
    seat: usize,
    values: Vec<f64>,
    node_limit: Option<u64>,
    most: Option<u32>,
    every_move: bool,
) -> PyResult<Option<Solved<'py>>> {
    let position = position_from(position)?;
    if position.end != 0 {
        return Err(PyValueError::new_err("the round is over: nothing to solve"));
    }
    let players = position.players as usize;
    if position.sides() != 2 || seat >= players {
        return Err(PyValueError::new_err(
            "a goal is searched for a seat of one of two sides",
        ));
    }
    let values: [f64; 5] = values
        .try_into()
        .map_err(|_| PyValueError::new_err("a value for each of the 5 outcomes"))?;
    let goal = Goal {
        seat,
        side: side_of(players, seat),
        values,
        floor: most.map(|most| position.hand_of(seat).count_ones().saturating_sub(most)),
    };
    solved(
        py,
        &position,
        Leaf::goal(goal, players),
        node_limit,
        every_move,
        2,
    )
}

/// `ExpertBot`'s settings as it keeps them.
#[derive(FromPyObject)]
struct ExpertSettings {
    iterations: u64,
    seconds: Option<f64>,
    exploration: f64,
    epsilon: f64,
    tries: u32,
    opponent_visits: u32,
}

/// A tree as Python reads it: each node's visits, availability, summed reward and children
/// (class, index), node 0 the root.
type TreeRows = Vec<(u32, u32, f64, Vec<(u16, usize)>)>;

/// A native search's tree, kept in the native core until it is asked for: a search of
/// thousands of iterations has thousands of nodes, and making each a Python object took a
/// quarter of the expert's move (most of it in the garbage collector).
#[pyclass(module = "exact61.core._native", name = "SearchTree", frozen)]
pub struct PySearchTree {
    tree: Tree,
}

#[pymethods]
impl PySearchTree {
    /// Every node's visits, availability, summed reward and children (class, index); node 0
    /// is the root.
    fn rows(&self) -> TreeRows {
        self.tree
            .nodes
            .iter()
            .map(|n| (n.visits, n.available, n.reward, n.children.clone()))
            .collect()
    }

    /// The root's children: each one's move class, visits, availability and summed reward.
    fn root(&self) -> Vec<(u16, u32, u32, f64)> {
        self.tree.nodes[0]
            .children
            .iter()
            .map(|&(class, i)| {
                let n = &self.tree.nodes[i];
                (class, n.visits, n.available, n.reward)
            })
            .collect()
    }
}

/// Values a deal as numpy holds them: shape (deals, classes, sides), the classes in the order
/// `rows` give them.
fn deal_values<'py>(
    py: Python<'py>,
    rows: &[Vec<Values>],
    sides: usize,
) -> PyResult<Bound<'py, PyArray3<f64>>> {
    let classes = rows.first().map_or(0, Vec::len);
    let flat: Vec<f64> = rows
        .iter()
        .flat_map(|deal| deal.iter().flat_map(|v| v[..sides].iter().copied()))
        .collect();
    PyArray1::from_vec(py, flat).reshape([rows.len(), classes, sides])
}

/// What `expert_evaluate` returns: the tree, every complete deal's values (`deal_values`, the
/// classes in the order asked), the iterations, and the random source's state after it.
type ExpertFound<'py> = (PySearchTree, Bound<'py, PyArray3<f64>>, u64, Vec<u32>);

/// `ExpertBot.evaluate`'s search from what the seat sees: `classes` are the root's move classes
/// in the order of the legal actions, `choices` the others' placements to weigh deals by
/// (`sampler.choices_of`: seat, base, alt by tile). A round with nothing hidden is solved
/// before (`solve`).
#[pyfunction]
#[pyo3(signature = (seen, choices, classes, table, settings, rng_state))]
fn expert_evaluate<'py>(
    py: Python<'py>,
    seen: Seen,
    choices: Vec<(usize, f64, Vec<f64>)>,
    classes: Vec<u16>,
    table: PyRef<'py, PyEquityTable>,
    settings: ExpertSettings,
    rng_state: Vec<u32>,
) -> PyResult<ExpertFound<'py>> {
    seen.check()?;
    let mut rng = source(&rng_state)?;
    let choices = choices
        .into_iter()
        .map(|(seat, base, alt)| {
            let alt: [f64; TILE_COUNT] = alt
                .try_into()
                .map_err(|_| PyValueError::new_err("a choice weighs every tile"))?;
            Ok(Choice { seat, base, alt })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let template = seen.round(&[], false);
    let knowledge = seen.knowledge();
    let settings = expert::Settings {
        iterations: settings.iterations,
        seconds: settings.seconds,
        exploration: settings.exploration,
        epsilon: settings.epsilon,
        tries: settings.tries,
        opponent_visits: settings.opponent_visits,
    };
    let table = &table.table;
    let found = py.detach(|| {
        expert::evaluate(
            &template, &knowledge, &choices, seen.seat, &seen.own, &classes, table, settings,
            &mut rng,
        )
    });
    let rows: Vec<Vec<Values>> = found
        .deals
        .iter()
        .map(|deal| deal.iter().map(|(_, v)| *v).collect())
        .collect();
    let deals = deal_values(py, &rows, template.sides())?;
    let tree = PySearchTree { tree: found.tree };
    Ok((tree, deals, found.iterations, rng.state().to_vec()))
}

/// `evaluate_moves`'s settings.
#[derive(FromPyObject)]
struct EvaluateSettings {
    deals: u64,
    node_limit: u64,
    solve_tiles: usize,
    rollouts: u64,
    epsilon: f64,
    seconds: Option<f64>,
}

/// What `evaluate_moves` returns: every deal's values (`deal_values`, the classes in the order
/// asked), the (deal, move) values solved and tried, and the random source's state.
type Evaluated<'py> = (Bound<'py, PyArray3<f64>>, u64, u64, Vec<u32>);

/// `evaluate_moves` (perfect-information Monte Carlo, what `pimc` plays by) from what the seat
/// sees, up to its summary: `hidden` is the other hand when nothing is hidden and the round
/// is too large to solve (`solve` first), `tiles_left` the tiles in every hand and the boneyard.
#[pyfunction]
#[pyo3(signature = (seen, hidden, classes, tiles_left, table, settings, rng_state))]
#[allow(clippy::too_many_arguments)]
fn evaluate_moves<'py>(
    py: Python<'py>,
    seen: Seen,
    hidden: Option<Vec<u8>>,
    classes: Vec<u16>,
    tiles_left: usize,
    table: PyRef<'py, PyEquityTable>,
    settings: EvaluateSettings,
    rng_state: Vec<u32>,
) -> PyResult<Evaluated<'py>> {
    seen.check()?;
    let mut rng = source(&rng_state)?;
    let template = seen.round(&[], false);
    let exact_hands = hidden.map(|hidden| {
        (0..seen.players)
            .map(|s| {
                if s == seen.seat {
                    seen.own.clone()
                } else {
                    hidden.clone()
                }
            })
            .collect()
    });
    let knowledge = seen.knowledge();
    let settings = evaluate::Settings {
        deals: settings.deals,
        node_limit: settings.node_limit,
        solve_tiles: settings.solve_tiles,
        rollouts: settings.rollouts,
        epsilon: settings.epsilon,
        seconds: settings.seconds,
    };
    let table = &table.table;
    let valued = py.detach(|| {
        evaluate::evaluate(
            &template,
            exact_hands,
            &knowledge,
            seen.seat,
            &seen.own,
            &classes,
            tiles_left,
            table,
            settings,
            &mut rng,
        )
    });
    let rows: Vec<Vec<Values>> = (0..valued.deals as usize)
        .map(|d| valued.per_move.iter().map(|(_, v)| v[d]).collect())
        .collect();
    Ok((
        deal_values(py, &rows, template.sides())?,
        valued.solved,
        valued.tried,
        rng.state().to_vec(),
    ))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEquityTable>()?;
    m.add_class::<PySearchTree>()?;
    m.add_function(wrap_pyfunction!(ismcts_search, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_goal, m)?)?;
    m.add_function(wrap_pyfunction!(expert_evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_moves, m)?)?;
    Ok(())
}
