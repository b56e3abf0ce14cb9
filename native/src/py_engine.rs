//! The engine as Python sees it: `exact61.core._native`'s positions and the functions on them,
//! the same names, arguments and results as `exact61.core.engine`'s (`exact61.core.engines`
//! says which of the two a match plays on).
//!
//! A position is opaque, but reads as the Python engine's does: `position[i]` is its item
//! `engine.POSITION_FIELDS[i]`, and a match's position has a book whose `steps`, `public`,
//! `draws` and `events` are Python lists that `play` appends to, so a round's log grows with it
//! as it does on the Python engine. Every error is the Python engine's exception, naming the
//! rule.

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyTuple, PyType};
use pyo3::IntoPyObjectExt;

use crate::engine::{side_count, Event, Order, Position, TARGET_RAW};
use crate::tables::{tile_name, DRAW, DRAWN_TILE, MOVE_COUNT, PASS, PLACEMENTS, TILE_COUNT};

static RULE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static ILLEGAL_MOVE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static PLAY_EVENT: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static DOMINO_EVENT: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static BLOCK_EVENT: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `exact61.core.errors.RuleError(rule, message)`.
pub fn rule_error(py: Python<'_>, rule: &str, message: String) -> PyErr {
    error_of(py, &RULE_ERROR, "RuleError", rule, message)
}

/// `exact61.core.errors.IllegalMoveError(rule, message)`.
pub fn illegal_move(py: Python<'_>, rule: &str, message: String) -> PyErr {
    error_of(py, &ILLEGAL_MOVE_ERROR, "IllegalMoveError", rule, message)
}

fn error_of(
    py: Python<'_>,
    cell: &PyOnceLock<Py<PyType>>,
    name: &str,
    rule: &str,
    message: String,
) -> PyErr {
    match cell.import(py, "exact61.core.errors", name) {
        Ok(class) => match class.call1((rule, message)) {
            Ok(error) => PyErr::from_value(error),
            Err(err) => err,
        },
        Err(err) => err,
    }
}

/// An engine event as the Python engine's event object, made from its fields in that object's
/// order (`Event::fields`).
pub fn event_object<'py>(py: Python<'py>, event: &Event) -> PyResult<Bound<'py, PyAny>> {
    let module = "exact61.core.settlement";
    let class = match event {
        Event::Play { .. } => PLAY_EVENT.import(py, module, "PlayEvent")?,
        Event::Domino { .. } => DOMINO_EVENT.import(py, module, "DominoEvent")?,
        Event::Block { .. } => BLOCK_EVENT.import(py, module, "BlockEvent")?,
    };
    let fields = event.fields();
    let mut args = vec![
        fields.seat.into_bound_py_any(py)?,
        fields.side.into_bound_py_any(py)?,
        fields.raw.into_bound_py_any(py)?,
        fields.accepted.into_bound_py_any(py)?,
    ];
    for &value in fields.own() {
        args.push(value.into_bound_py_any(py)?);
    }
    class.call1(PyTuple::new(py, args)?)
}

/// A match's round log, as the Python engine's `Book` keeps it: lists that `play` appends to.
struct Logs {
    steps: Py<PyList>,
    public: Py<PyList>,
    draws: Py<PyList>,
    events: Py<PyList>,
}

impl Logs {
    fn new(py: Python<'_>, players: usize) -> PyResult<Self> {
        let draws = PyList::empty(py);
        for _ in 0..players {
            draws.append(PyList::empty(py))?;
        }
        Ok(Logs {
            steps: PyList::empty(py).unbind(),
            public: PyList::empty(py).unbind(),
            draws: draws.unbind(),
            events: PyList::empty(py).unbind(),
        })
    }

    /// Copies of the lists, to grow apart from these.
    fn copied(&self, py: Python<'_>) -> PyResult<Self> {
        let draws = PyList::empty(py);
        for seat in self.draws.bind(py).iter() {
            draws.append(seat.cast::<PyList>()?.get_slice(0, usize::MAX))?;
        }
        Ok(Logs {
            steps: self.steps.bind(py).get_slice(0, usize::MAX).unbind(),
            public: self.public.bind(py).get_slice(0, usize::MAX).unbind(),
            draws: draws.unbind(),
            events: self.events.bind(py).get_slice(0, usize::MAX).unbind(),
        })
    }
}

/// A round as the native engine plays it: read it as the Python engine's position list
/// (`position[engine.TO_ACT]`, `len(position)`, unpacking), play it with this module's
/// functions.
#[pyclass(module = "exact61.core._native", name = "Position")]
pub struct PyPosition {
    pub position: Position,
    logs: Option<Logs>,
}

/// A match's book, as the Python engine's `Book` shows it: each hand's tiles in the order
/// they came (a copy), and the round's logs (the lists `play` appends to).
#[pyclass(module = "exact61.core._native", name = "Book", frozen)]
pub struct PyBook {
    #[pyo3(get)]
    hands: Py<PyList>,
    #[pyo3(get)]
    steps: Py<PyList>,
    #[pyo3(get)]
    public: Py<PyList>,
    #[pyo3(get)]
    draws: Py<PyList>,
    #[pyo3(get)]
    events: Py<PyList>,
}

const FIELDS: usize = 14;

impl PyPosition {
    fn item<'py>(&self, py: Python<'py>, index: usize) -> PyResult<Bound<'py, PyAny>> {
        let p = &self.position;
        let value = match index {
            0 => p.players.into_pyobject(py)?.into_any(),
            1 => p.hands.into_pyobject(py)?.into_any(),
            2 => p.free.into_pyobject(py)?.into_any(),
            3 => p.shape.into_pyobject(py)?.into_any(),
            4 => p.end_sum.into_pyobject(py)?.into_any(),
            5 => p.open.into_pyobject(py)?.into_any(),
            6 => PyTuple::new(py, &p.scores[..p.sides()])?.into_any(),
            7 => p.to_act.into_pyobject(py)?.into_any(),
            8 => p.opener.into_pyobject(py)?.into_any(),
            9 => PyTuple::new(py, &p.boneyard[..p.boneyard_len as usize])?.into_any(),
            10 => p.drawn.into_pyobject(py)?.into_any(),
            11 => p.pending.into_pyobject(py)?.into_any(),
            12 => p.end.into_pyobject(py)?.into_any(),
            13 => match self.book(py)? {
                Some(book) => Bound::new(py, book)?.into_any(),
                None => py.None().into_bound(py),
            },
            _ => return Err(PyIndexError::new_err("a position has 14 items")),
        };
        Ok(value)
    }

    fn book(&self, py: Python<'_>) -> PyResult<Option<PyBook>> {
        let (Some(order), Some(logs)) = (&self.position.order, &self.logs) else {
            return Ok(None);
        };
        let hands = PyList::empty(py);
        for seat in 0..self.position.players as usize {
            hands.append(PyList::new(py, order.hand(seat))?)?;
        }
        Ok(Some(PyBook {
            hands: hands.unbind(),
            steps: logs.steps.clone_ref(py),
            public: logs.public.clone_ref(py),
            draws: logs.draws.clone_ref(py),
            events: logs.events.clone_ref(py),
        }))
    }

    fn of(py: Python<'_>, position: Position) -> PyResult<Self> {
        let logs = match position.order {
            Some(_) => Some(Logs::new(py, position.players as usize)?),
            None => None,
        };
        Ok(PyPosition { position, logs })
    }
}

#[pymethods]
impl PyPosition {
    fn __len__(&self) -> usize {
        FIELDS
    }

    fn __getitem__<'py>(&self, py: Python<'py>, index: isize) -> PyResult<Bound<'py, PyAny>> {
        let index = if index < 0 {
            index + FIELDS as isize
        } else {
            index
        };
        if !(0..FIELDS as isize).contains(&index) {
            return Err(PyIndexError::new_err("a position has 14 items"));
        }
        self.item(py, index as usize)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let items = (0..FIELDS)
            .map(|i| self.item(py, i))
            .collect::<PyResult<Vec<_>>>()?;
        PyTuple::new(py, items)?
            .as_any()
            .try_iter()
            .map(|it| it.into_any())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyPosition>() {
            Ok(other) => self.position == other.borrow().position,
            Err(_) => false,
        }
    }

    /// Pickles as its items, book and logs included (a match in play pickles with them).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let p = &self.position;
        let order = match &p.order {
            Some(order) => {
                let hands: Vec<Vec<u8>> = (0..4).map(|s| order.hand(s).to_vec()).collect();
                let free: Vec<Vec<u8>> = (0..7).map(|v| order.free_points(v).to_vec()).collect();
                (hands, free).into_pyobject(py)?.into_any()
            }
            None => py.None().into_bound(py),
        };
        let logs = match &self.logs {
            Some(logs) => (&logs.steps, &logs.public, &logs.draws, &logs.events)
                .into_pyobject(py)?
                .into_any(),
            None => py.None().into_bound(py),
        };
        let items = (
            (p.players, p.hands, p.free, p.shape, p.end_sum, p.open),
            (p.scores, p.to_act, p.opener, p.boneyard, p.boneyard_len),
            (p.drawn, p.pending, p.end),
            order,
            logs,
        );
        let restore = py.import("exact61.core._native")?.getattr("_restore")?;
        PyTuple::new(
            py,
            [
                restore,
                PyTuple::new(py, [items.into_pyobject(py)?.into_any()])?.into_any(),
            ],
        )
    }

    fn __repr__(&self) -> String {
        let p = &self.position;
        format!(
            "<native Position players={} to_act={} scores={:?} end={}>",
            p.players,
            p.to_act,
            &p.scores[..p.sides()],
            p.end
        )
    }
}

type Layout = (u8, u128, u128, u64, i32, u8);
type Turn = ([i32; 4], i8, u8, [u8; TILE_COUNT], u8);
type OrderState = Option<(Vec<Vec<u8>>, Vec<Vec<u8>>)>;
type LogState = Option<(Py<PyList>, Py<PyList>, Py<PyList>, Py<PyList>)>;

/// A position from what `Position.__reduce__` pickled.
#[pyfunction]
fn _restore(items: (Layout, Turn, (u8, i8, u8), OrderState, LogState)) -> PyResult<PyPosition> {
    let ((players, hands, free, shape, end_sum, open), turn, rest, order, logs) = items;
    let (scores, to_act, opener, boneyard, boneyard_len) = turn;
    let (drawn, pending, end) = rest;
    let order = order.map(|(hands, free)| Order::from_lists(&hands, &free));
    let position = Position {
        players,
        hands,
        free,
        shape,
        end_sum,
        open,
        scores,
        to_act,
        opener,
        boneyard,
        boneyard_len,
        drawn,
        pending,
        end,
        order: order.map(Box::new),
    };
    let logs = logs.map(|(steps, public, draws, events)| Logs {
        steps,
        public,
        draws,
        events,
    });
    Ok(PyPosition { position, logs })
}

/// Check a deal's numbers before they reach the engine: a seat count, tiles of the set dealt
/// once each, an opener among the seats, one score a side.
fn check_round(
    py: Python<'_>,
    hands: &[Vec<u8>],
    boneyard: &[u8],
    opener: usize,
    scores: &[i32],
) -> PyResult<()> {
    let players = hands.len();
    if !(2..=4).contains(&players) {
        return Err(rule_error(
            py,
            "R2",
            format!("Exact 61 Five Up is for 2, 3 or 4 players, not {players}"),
        ));
    }
    let mut seen = 0u32;
    for &t in hands.iter().flatten().chain(boneyard) {
        if t as usize >= TILE_COUNT {
            return Err(rule_error(py, "R1", format!("no tile {t} in the set")));
        }
        if seen >> t & 1 == 1 {
            let name = tile_name(t as usize);
            return Err(rule_error(py, "R5", format!("{name} is dealt twice")));
        }
        seen |= 1 << t;
    }
    if opener >= players {
        return Err(rule_error(
            py,
            "R2",
            format!("no seat {opener} among {players} players"),
        ));
    }
    let sides = side_count(players);
    if scores.len() != sides || scores.iter().any(|&s| s % 5 != 0 || s > TARGET_RAW) {
        return Err(rule_error(
            py,
            "R3",
            format!("{players} players make {sides} sides, each scoring a multiple of 5 up to 305"),
        ));
    }
    Ok(())
}

/// A dealt round before its first placement: `hands` are each seat's tile indices in the
/// order dealt; the opener acts (R6-R8). With `book`, a match's position (legal moves listed
/// as the match lists them, and the log); without, a search's.
#[pyfunction]
#[pyo3(signature = (hands, boneyard, opener, scores, *, book = true))]
fn start(
    py: Python<'_>,
    hands: Vec<Vec<u8>>,
    boneyard: Vec<u8>,
    opener: usize,
    scores: Vec<i32>,
    book: bool,
) -> PyResult<PyPosition> {
    check_round(py, &hands, &boneyard, opener, &scores)?;
    PyPosition::of(
        py,
        Position::start(&hands, &boneyard, opener, &scores, book),
    )
}

/// A round in the middle: the tiles each seat holds (in the order received), the moves that
/// made the layout, the boneyard still to draw (in draw order), the seat to act and the drawn
/// tile it must place (R10), if any.
#[pyfunction]
#[pyo3(signature = (hands, placements, boneyard, to_act, opener, scores, pending = -1, *, book = true))]
#[allow(clippy::too_many_arguments)]
fn resume(
    py: Python<'_>,
    hands: Vec<Vec<u8>>,
    placements: Vec<u16>,
    boneyard: Vec<u8>,
    to_act: usize,
    opener: usize,
    scores: Vec<i32>,
    pending: i8,
    book: bool,
) -> PyResult<PyPosition> {
    check_round(py, &hands, &boneyard, opener, &scores)?;
    if to_act >= hands.len() {
        return Err(rule_error(py, "R2", format!("no seat {to_act} to act")));
    }
    check_layout(py, &placements)?;
    if pending >= TILE_COUNT as i8 {
        return Err(rule_error(py, "R10", format!("no tile {pending} to place")));
    }
    let position = Position::resume(
        &hands,
        &placements,
        &boneyard,
        to_act,
        opener,
        &scores,
        pending,
        book,
    );
    PyPosition::of(py, position)
}

/// Each placement of a layout fits the layout the ones before it made (R7, R9, R13).
fn check_layout(py: Python<'_>, placements: &[u16]) -> PyResult<()> {
    let mut free = 0u128;
    let mut tiles = 0u32;
    for (i, &m) in placements.iter().enumerate() {
        let Some(placement) = PLACEMENTS.get(m as usize).copied().flatten() else {
            return Err(illegal_move(py, "R9", format!("{m} is no placement")));
        };
        let opening = placement.is_opening();
        if opening != (i == 0)
            || (!opening && free >> placement.point & 1 == 0)
            || tiles >> placement.tile & 1 == 1
        {
            return Err(illegal_move(
                py,
                "R13",
                format!("placement {m} does not fit the layout before it"),
            ));
        }
        tiles |= 1 << placement.tile;
        free ^= placement.flip();
        if placement.arms() != 0 && free & placement.other_line() == 0 {
            free |= placement.arms();
        }
    }
    Ok(())
}

/// A copy of `position` with other hidden tiles: every hand (tile indices, in the order
/// received) and the boneyard still to draw. A match's position gives one that lists its
/// moves as a match does, with an empty log.
#[pyfunction]
fn redeal(
    py: Python<'_>,
    position: PyRef<'_, PyPosition>,
    hands: Vec<Vec<u8>>,
    boneyard: Vec<u8>,
) -> PyResult<PyPosition> {
    let p = &position.position;
    if hands.len() != p.players as usize {
        return Err(rule_error(
            py,
            "R2",
            format!("{} players hold {} hands", p.players, hands.len()),
        ));
    }
    if hands
        .iter()
        .flatten()
        .chain(&boneyard)
        .any(|&t| t as usize >= TILE_COUNT)
    {
        return Err(rule_error(py, "R1", "a tile outside the set".to_string()));
    }
    PyPosition::of(py, p.redeal(&hands, &boneyard))
}

/// A copy to play on for a search (the book is left behind).
#[pyfunction]
fn copy(py: Python<'_>, position: PyRef<'_, PyPosition>) -> PyResult<PyPosition> {
    PyPosition::of(py, position.position.for_search())
}

/// A copy that keeps its book, the logs copied to grow apart from the original's (a match's
/// copy).
#[pyfunction]
fn clone(py: Python<'_>, position: PyRef<'_, PyPosition>) -> PyResult<PyPosition> {
    let logs = match &position.logs {
        Some(logs) => Some(logs.copied(py)?),
        None => None,
    };
    Ok(PyPosition {
        position: position.position.clone(),
        logs,
    })
}

/// Every move the seat to act may make, as the Python engine lists them (R7, R9-R10, R13).
#[pyfunction]
fn legal_moves(position: PyRef<'_, PyPosition>) -> Vec<u16> {
    let mut out = Vec::new();
    position.position.legal_moves(&mut out);
    out
}

/// The legal moves with one placement for each set of equivalent ones (`move_class`).
#[pyfunction]
fn distinct_moves(position: PyRef<'_, PyPosition>) -> Vec<u16> {
    let mut out = Vec::new();
    position.position.distinct_moves(&mut out);
    out
}

/// The tiles the seat to act may place now, as a mask (R7, R9, R10).
#[pyfunction]
fn playable(position: PyRef<'_, PyPosition>) -> u32 {
    position.position.playable()
}

/// The credit (R15) placement `move` would earn; 0 for a draw or a pass.
#[pyfunction]
#[pyo3(name = "credit_of")]
fn credit_of_move(py: Python<'_>, position: PyRef<'_, PyPosition>, r#move: u16) -> PyResult<i32> {
    if r#move as usize >= MOVE_COUNT || (r#move < DRAW && PLACEMENTS[r#move as usize].is_none()) {
        return Err(illegal_move(
            py,
            "R9",
            format!("no tile can make move {move}"),
        ));
    }
    Ok(position.position.credit_of(r#move))
}

/// Make `move` for the seat to act; return the scoring events it caused, in order (R4, R10,
/// R11, R14-R23, R30). IllegalMoveError, naming the rule, for a move that is not legal now.
#[pyfunction]
fn play<'py>(
    py: Python<'py>,
    mut position: PyRefMut<'py, PyPosition>,
    r#move: u16,
) -> PyResult<Bound<'py, PyTuple>> {
    let mut legal = Vec::new();
    position.position.legal_moves(&mut legal);
    if !legal.contains(&r#move) {
        let rule = if r#move == DRAW || r#move == PASS {
            "R10"
        } else {
            "R9"
        };
        let seat = position.position.to_act;
        return Err(illegal_move(
            py,
            rule,
            format!("move {move} is not legal for seat {seat} now"),
        ));
    }
    let seat = position.position.to_act as u16;
    let drawn = (position.position.drawn as usize) < position.position.boneyard_len as usize;
    let next_tile = if drawn {
        position.position.boneyard[position.position.drawn as usize]
    } else {
        0
    };
    let mut events = Vec::new();
    position.position.play(r#move, &mut events);
    let objects = events
        .iter()
        .map(|e| event_object(py, e))
        .collect::<PyResult<Vec<_>>>()?;
    if let Some(logs) = &position.logs {
        let code = r#move * 4 + seat;
        if r#move == DRAW {
            logs.steps
                .bind(py)
                .append((DRAWN_TILE + next_tile as u16) * 4 + seat)?;
            logs.public.bind(py).append(code)?;
            logs.draws
                .bind(py)
                .get_item(seat as usize)?
                .cast::<PyList>()?
                .append(next_tile)?;
        } else {
            logs.steps.bind(py).append(code)?;
            logs.public.bind(py).append(code)?;
        }
        for object in &objects {
            logs.events.bind(py).append(object)?;
        }
    }
    PyTuple::new(py, objects)
}

/// Put `tile`, still in the boneyard, next in draw order (chance at the moment of a draw).
#[pyfunction]
fn arrange_draw(py: Python<'_>, mut position: PyRefMut<'_, PyPosition>, tile: u8) -> PyResult<()> {
    let p = &mut position.position;
    let (at, len) = (p.drawn as usize, p.boneyard_len as usize);
    match p.boneyard[at..len].iter().position(|&t| t == tile) {
        Some(i) => {
            p.boneyard.swap(at, at + i);
            Ok(())
        }
        None => Err(rule_error(
            py,
            "R5",
            format!("{} is not in the boneyard", tile_name(tile as usize)),
        )),
    }
}

/// The tiles seat `seat` holds, as a mask (bit t: `ALL_TILES[t]`).
#[pyfunction]
fn hand_of(position: PyRef<'_, PyPosition>, seat: usize) -> PyResult<u32> {
    if seat >= position.position.players as usize {
        return Err(PyValueError::new_err(format!("no seat {seat}")));
    }
    Ok(position.position.hand_of(seat))
}

/// Each seat's pips left in hand (R19-R21).
#[pyfunction]
fn hand_pips<'py>(
    py: Python<'py>,
    position: PyRef<'py, PyPosition>,
) -> PyResult<Bound<'py, PyTuple>> {
    let pips = position.position.hand_pips();
    PyTuple::new(py, &pips[..position.position.players as usize])
}

/// The side that reached exactly 305 raw (R30), if any.
#[pyfunction]
fn won_by(position: PyRef<'_, PyPosition>) -> Option<usize> {
    position.position.won_by()
}

/// What decides the rest of the round, for a search's table of the positions it has valued.
#[pyfunction]
fn search_key<'py>(
    py: Python<'py>,
    position: PyRef<'py, PyPosition>,
) -> PyResult<Bound<'py, PyTuple>> {
    let key = position.position.search_key();
    let sides = position.position.sides();
    (
        key.hands,
        key.shape,
        PyTuple::new(py, &key.scores[..sides])?,
        key.to_act,
        key.drawn,
        key.pending,
    )
        .into_pyobject(py)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPosition>()?;
    m.add_class::<PyBook>()?;
    m.add_function(wrap_pyfunction!(start, m)?)?;
    m.add_function(wrap_pyfunction!(resume, m)?)?;
    m.add_function(wrap_pyfunction!(redeal, m)?)?;
    m.add_function(wrap_pyfunction!(copy, m)?)?;
    m.add_function(wrap_pyfunction!(clone, m)?)?;
    m.add_function(wrap_pyfunction!(legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(distinct_moves, m)?)?;
    m.add_function(wrap_pyfunction!(playable, m)?)?;
    m.add_function(wrap_pyfunction!(credit_of_move, m)?)?;
    m.add_function(wrap_pyfunction!(play, m)?)?;
    m.add_function(wrap_pyfunction!(arrange_draw, m)?)?;
    m.add_function(wrap_pyfunction!(hand_of, m)?)?;
    m.add_function(wrap_pyfunction!(hand_pips, m)?)?;
    m.add_function(wrap_pyfunction!(won_by, m)?)?;
    m.add_function(wrap_pyfunction!(search_key, m)?)?;
    m.add_function(wrap_pyfunction!(_restore, m)?)?;
    Ok(())
}
