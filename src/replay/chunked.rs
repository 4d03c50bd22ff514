//! A file's games read on several threads a chunk at a time (see
//! `crate::pdn::chunks`): each thread frames a chunk, then parses, checks
//! and makes into what the caller keeps each of its games; the caller's
//! thread hands them out in file order.
//!
//! The threads: one planner, reading the file in order to propose where
//! chunks start; the workers, each taking the next chunk; the caller's.
//! A worker frames its chunk first and tells the [`Ledger`] where the
//! chunk's framing ended and how many games it holds (and whether one is
//! read in a legacy encoding); the ledger chains these from the file's
//! start, which tells each chunk the index of its first game and whether
//! its framing counts at all (a chunk whose start the framing before it
//! passed inside a game holds nothing: that framing took its games).
//! Only then does the worker parse and check its games, and send them to
//! the caller's thread on a channel of its own. The caller's thread
//! reads the chunks' channels in file order; a worker whose chunk is not
//! the one being handed out waits once its channel is full, so that
//! memory stays bounded.
//!
//! No waiting runs backwards: a worker waits for the framing of the
//! chunks before its own (done by workers that took them earlier and
//! frame before anything else), for the planner (which waits for no one)
//! or for the caller's thread to take its games.

use std::any::Any;
use std::collections::HashMap;
use std::fs::File;
use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use crate::pdn::chunks::{Choice, ChunkFramer, ChunkSize, Planner, Step};
use crate::pdn::{Content, Diagnostic, FramedGame, Game, Position};
use crate::rules::Preset;

use super::file_check::{FileCheck, FileEnd, Handed};
use super::game::{CheckedGame, check_in};

/// Games sent together from a worker to the caller's thread, at most: one
/// message, and one wake-up of the caller's thread, for many games.
const GAMES_PER_BATCH: usize = 256;

/// Chunks taken by the workers and not all handed out, per worker: a
/// worker checks a whole chunk while the caller's thread hands out an
/// earlier one, and memory stays bounded. A worker takes a chunk while
/// fewer are taken, or while fewer bytes than this many chunks of the
/// largest size lie between its start and that of the first chunk not
/// handed out (the chunks near the file's end are smaller).
const CHUNKS_AHEAD_PER_JOB: usize = 2;

/// Bytes of game text a worker keeps framed for the checks to come; past
/// this (a chunk whose start was passed inside a game, in a file of
/// few places to start), it frames its chunk again as it checks.
const KEPT_TEXT: usize = 32 << 20;

/// The end of the file, as a byte.
const EOF: u64 = u64::MAX;

/// What the threads of one run share.
struct Shared<'a> {
    path: &'a Path,
    check: &'a FileCheck<'a>,
    preset: Option<Preset>,
    plan: Plan,
    ledger: Ledger,
    /// Set when the run stops early (the caller failed, a thread panicked).
    stopped: AtomicBool,
    /// The first panic of a thread.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

impl Shared<'_> {
    fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
        drop(self.plan.lock());
        self.plan.changed.notify_all();
        drop(self.ledger.lock());
        self.ledger.changed.notify_all();
    }

    fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }
}

/// The chunks proposed so far.
struct Plan {
    state: Mutex<Planned>,
    changed: Condvar,
}

#[derive(Default)]
struct Planned {
    /// Where each chunk starts; the first at the file's start.
    starts: Vec<Position>,
    /// The encoding of each chunk whose end is known (its next start, or
    /// the end of the file).
    choices: Vec<Option<Choice>>,
    /// Every start is known.
    done: bool,
    /// What the file held, when hashed.
    content: Option<Content>,
    /// Chunks taken by workers.
    taken: usize,
    /// Chunks whose games are all handed out (or that hold none).
    retired: usize,
    /// Chunks taken and not retired, at most, unless within `ahead_bytes`.
    ahead: usize,
    /// Bytes from the first chunk not retired to a chunk taken, at most,
    /// unless within `ahead` chunks.
    ahead_bytes: u64,
}

impl Planned {
    /// Whether the chunk `k`, whose start and end are known, may be taken.
    fn room_for(&self, k: usize) -> bool {
        let first = self.starts[self.retired].byte;
        k < self.retired + self.ahead || self.starts[k].byte - first < self.ahead_bytes
    }
}

/// A chunk as a worker takes it.
struct Chunk<T> {
    start: Position,
    choice: Option<Choice>,
    /// Where the next chunk starts (`EOF`: none).
    next: u64,
    games: Sender<Message<T>>,
}

impl Plan {
    fn lock(&self) -> MutexGuard<'_, Planned> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds the start of a chunk and the encoding of the one before it.
    fn push(&self, start: Position, choice: Option<Choice>) {
        let mut plan = self.lock();
        plan.choices.push(choice);
        plan.starts.push(start);
        self.changed.notify_all();
    }

    /// Notes that every start is known.
    fn finish(&self, choice: Option<Choice>, content: Option<Content>) {
        let mut plan = self.lock();
        plan.choices.push(choice);
        plan.content = content;
        plan.done = true;
        self.changed.notify_all();
    }

    /// The next chunk, its channel given to the caller's thread (in file
    /// order); `None` once every chunk is taken or the run stopped.
    fn take<T>(
        &self,
        shared: &Shared<'_>,
        chunks: &Sender<(u64, Receiver<Message<T>>)>,
    ) -> Option<Chunk<T>> {
        let mut plan = self.lock();
        loop {
            if shared.stopped() {
                return None;
            }
            let k = plan.taken;
            if let Some(&choice) = plan.choices.get(k)
                && plan.room_for(k)
            {
                plan.taken += 1;
                let start = plan.starts[k];
                let (games, receiver) = channel();
                chunks.send((start.byte, receiver)).ok()?;
                let next = plan.starts.get(k + 1).map_or(EOF, |s| s.byte);
                return Some(Chunk {
                    start,
                    choice,
                    next,
                    games,
                });
            }
            if plan.done && k >= plan.choices.len() {
                return None;
            }
            plan = self
                .changed
                .wait(plan)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Notes that the caller's thread is done with a chunk.
    fn retire(&self) {
        self.lock().retired += 1;
        self.changed.notify_all();
    }

    /// The first start at `at` or after and after `passed` (`EOF`: none).
    fn start_after(&self, shared: &Shared<'_>, passed: u64, at: u64) -> u64 {
        let least = at.max(passed.saturating_add(1));
        let mut plan = self.lock();
        loop {
            let found = plan.starts.iter().find(|s| s.byte >= least);
            if let Some(start) = found {
                return start.byte;
            }
            if plan.done || shared.stopped() {
                return EOF;
            }
            plan = self
                .changed
                .wait(plan)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// The games before a place where a chunk's framing counts.
#[derive(Clone, Copy, Debug, Default)]
struct Before {
    games: u64,
    /// Whether one of them names the legacy encoding.
    announced: bool,
}

/// What a chunk's framing found.
#[derive(Clone, Copy, Debug)]
struct Framing {
    /// Where it ended: the next start it stood at, or `EOF`.
    end: u64,
    games: u64,
    legacy: bool,
}

/// The chunks' framings chained from the file's start.
struct Ledger {
    state: Mutex<Chain>,
    changed: Condvar,
    /// `Chain::frontier`, read without the lock.
    frontier: AtomicU64,
}

#[derive(Default)]
struct Chain {
    /// Where the framings that count end so far.
    frontier: u64,
    /// The games before it.
    before: Before,
    /// Framings beyond it, by start.
    framed: HashMap<u64, Framing>,
    /// The places the chain went through, with the games before each,
    /// until their chunk takes them.
    counted: HashMap<u64, Before>,
}

impl Ledger {
    fn lock(&self) -> MutexGuard<'_, Chain> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Notes the framing of the chunk starting at `start`.
    fn add(&self, start: u64, framing: Framing) {
        let mut chain = self.lock();
        chain.framed.insert(start, framing);
        let chain = &mut *chain;
        while let Some(next) = chain.framed.remove(&chain.frontier) {
            let (at, before) = (chain.frontier, chain.before);
            chain.counted.insert(at, before);
            chain.before.games += next.games;
            chain.before.announced |= next.legacy;
            chain.frontier = next.end;
        }
        let frontier = chain.frontier;
        chain.framed.retain(|&start, _| start > frontier);
        self.frontier.store(frontier, Ordering::Relaxed);
        self.changed.notify_all();
    }

    /// Whether the chain has passed `start` (its chunk holds nothing).
    fn passed(&self, start: u64) -> bool {
        self.frontier.load(Ordering::Relaxed) > start
    }

    /// The games before `start`, once the chain reaches past it; `None`
    /// when it passed it (or the run stopped).
    fn before(&self, shared: &Shared<'_>, start: u64) -> Option<Before> {
        let mut chain = self.lock();
        while chain.frontier <= start && !shared.stopped() {
            chain = self
                .changed
                .wait(chain)
                .unwrap_or_else(PoisonError::into_inner);
        }
        chain.counted.remove(&start)
    }
}

/// What a worker sends the caller's thread.
enum Message<T> {
    /// Games checked, in order, with how far the file was read once each
    /// was framed.
    Games(Vec<(T, Position)>),
    /// The chunk's end.
    End(ChunkEnd),
}

/// How a chunk ends.
struct ChunkEnd {
    /// Where the next chunk that counts starts (`EOF`: none).
    end: u64,
    /// The error that ended the file's reading there.
    error: Option<(io::Error, Position)>,
    /// Diagnostics about text after the file's last game.
    trailing: Vec<Diagnostic>,
    /// How far the file was read.
    read: Position,
}

/// `FileCheck::run_file` in chunks, the file's preset chosen: on
/// `check.jobs` workers, `hash`ing what the planner reads when asked.
pub(super) fn run_chunked<T, W, E>(
    check: &FileCheck<'_>,
    (file, path, chunk): (File, &Path, ChunkSize),
    (encoding, hash, preset): (Option<&'static crate::pdn::Encoding>, bool, Option<Preset>),
    wanted: &(dyn Fn(u64) -> bool + Sync),
    worker: &(dyn Fn() -> W + Sync),
    out: &mut dyn FnMut(Handed<T>) -> Result<(), E>,
) -> Result<FileEnd, E>
where
    T: Send,
    W: FnMut(Game, CheckedGame) -> T,
{
    let shared = Shared {
        path,
        check,
        preset,
        plan: Plan {
            state: Mutex::new(Planned {
                starts: vec![Position::START],
                ahead: CHUNKS_AHEAD_PER_JOB * check.jobs.max(1),
                ahead_bytes: CHUNKS_AHEAD_PER_JOB as u64 * check.jobs.max(1) as u64 * chunk.most,
                ..Planned::default()
            }),
            changed: Condvar::new(),
        },
        ledger: Ledger {
            state: Mutex::new(Chain::default()),
            changed: Condvar::new(),
            frontier: AtomicU64::new(0),
        },
        stopped: AtomicBool::new(false),
        panic: Mutex::new(None),
    };
    let (chunks, registered) = channel();
    let handed = std::thread::scope(|scope| {
        let planner = Planner::new(file, chunk, encoding, hash);
        let shared = &shared;
        scope.spawn(move || guarded(shared, || plan(shared, planner)));
        for _ in 0..check.jobs {
            let chunks = chunks.clone();
            scope.spawn(move || guarded(shared, || work(shared, &chunks, wanted, worker())));
        }
        drop(chunks);
        let _stop = StopOnDrop(shared);
        hand_out(&shared.plan, registered, out)
    });
    let taken = shared
        .panic
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    if let Some(payload) = taken {
        resume_unwind(payload);
    }
    let Some((trailing, read)) = handed? else {
        resume_unwind(Box::new("the reading threads ended early"));
    };
    let content = shared.plan.lock().content.take();
    Ok(FileEnd {
        trailing,
        read,
        content,
    })
}

/// Runs a thread's part; a panic is kept for the caller and stops the run.
fn guarded(shared: &Shared<'_>, part: impl FnOnce()) {
    if let Err(payload) = catch_unwind(AssertUnwindSafe(part)) {
        shared
            .panic
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert(payload);
        shared.stop();
    }
}

/// Stops the run's threads when the caller's side ends.
struct StopOnDrop<'a, 'b>(&'a Shared<'b>);

impl Drop for StopOnDrop<'_, '_> {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// The planner's thread.
fn plan(shared: &Shared<'_>, mut planner: Planner) {
    loop {
        if shared.stopped() {
            return;
        }
        match planner.next() {
            Ok(Some(start)) => shared.plan.push(start, planner.choice()),
            Ok(None) => {
                shared.plan.finish(planner.choice(), planner.content());
                return;
            }
            // The last chunk runs on to the end; its worker meets the
            // error where the file fails.
            Err(_) => {
                shared.plan.finish(planner.choice(), None);
                return;
            }
        }
    }
}

/// A worker's thread: one chunk after another.
fn work<T, W>(
    shared: &Shared<'_>,
    chunks: &Sender<(u64, Receiver<Message<T>>)>,
    wanted: &(dyn Fn(u64) -> bool + Sync),
    mut work: W,
) where
    W: FnMut(Game, CheckedGame) -> T,
{
    while let Some(chunk) = shared.plan.take(shared, chunks) {
        let Some(framed) = frame(shared, &chunk) else {
            continue;
        };
        shared.ledger.add(chunk.start.byte, framed.framing);
        let Some(before) = shared.ledger.before(shared, chunk.start.byte) else {
            continue;
        };
        if check_chunk(shared, &chunk, framed, before, wanted, &mut work).is_none() {
            return;
        }
    }
}

/// A chunk framed: its games (unless too many to keep), and how it ended.
struct Framed {
    framing: Framing,
    /// The games and how far the file was read once each was framed;
    /// `None` when they were too many to keep.
    games: Option<Vec<(FramedGame, Position)>>,
    error: Option<(io::Error, Position)>,
    trailing: Vec<Diagnostic>,
    read: Position,
}

/// Frames a chunk to where it ends: the first start it stands at, from
/// the next chunk's on, or the end of the file. `None` once the chain
/// has passed the chunk's start (its framing would not count) or the run
/// stopped.
fn frame<T>(shared: &Shared<'_>, chunk: &Chunk<T>) -> Option<Framed> {
    let mut framed = Framed {
        framing: Framing {
            end: EOF,
            games: 0,
            legacy: false,
        },
        games: Some(Vec::new()),
        error: None,
        trailing: Vec::new(),
        read: chunk.start,
    };
    let mut framer = match ChunkFramer::open(shared.path, chunk.start, chunk.choice) {
        Ok(framer) => framer,
        Err(error) => {
            framed.error = Some((error, chunk.start));
            return Some(framed);
        }
    };
    let (mut stop, mut kept) = (chunk.next, 0);
    loop {
        if shared.stopped() || shared.ledger.passed(chunk.start.byte) {
            return None;
        }
        match framer.next_before(stop) {
            Ok(Step::Game(game, read)) => {
                framed.framing.games += 1;
                framed.framing.legacy |= game.decodes_as_legacy();
                kept += game.text_len();
                if kept > KEPT_TEXT {
                    framed.games = None;
                }
                if let Some(games) = &mut framed.games {
                    games.push((game, read));
                }
            }
            Ok(Step::Stop { clean: true }) => {
                framed.framing.end = stop;
                break;
            }
            Ok(Step::Stop { clean: false }) => {
                stop = shared
                    .plan
                    .start_after(shared, stop, framer.position().byte);
            }
            Ok(Step::End) => {
                framed.trailing = framer.trailing();
                break;
            }
            Err(error) => {
                framed.error = Some((error, framer.position()));
                break;
            }
        }
    }
    framed.read = framer.position();
    Some(framed)
}

/// Parses and checks the games of a chunk whose framing counts, `before`
/// standing before it, and sends them on; `None` once the caller's thread
/// takes no more.
fn check_chunk<T, W>(
    shared: &Shared<'_>,
    chunk: &Chunk<T>,
    framed: Framed,
    before: Before,
    wanted: &(dyn Fn(u64) -> bool + Sync),
    work: &mut W,
) -> Option<()>
where
    W: FnMut(Game, CheckedGame) -> T,
{
    let Framed {
        framing,
        games,
        error,
        trailing,
        read,
    } = framed;
    let mut games = match Games::new(shared.path, chunk, framing, games) {
        Ok(games) => games,
        Err(error) => {
            let end = ChunkEnd {
                end: EOF,
                error: Some((error, chunk.start)),
                trailing: Vec::new(),
                read: chunk.start,
            };
            return chunk.games.send(Message::End(end)).ok();
        }
    };
    let mut index = before.games;
    let mut announced = before.announced;
    let mut batch = Vec::with_capacity(GAMES_PER_BATCH);
    let FileCheck {
        name,
        overrides,
        with_tags,
        ..
    } = *shared.check;
    while let Some((mut game, read)) = games.next() {
        if shared.stopped() {
            return None;
        }
        index += 1;
        let announce = !announced;
        announced |= game.decodes_as_legacy();
        game.place(index, announce);
        if !wanted(index) {
            continue;
        }
        let game = game.parse();
        let checked = check_in(&game, name, overrides, shared.preset, with_tags);
        batch.push((work(game, checked), read));
        if batch.len() >= GAMES_PER_BATCH {
            let full = std::mem::replace(&mut batch, Vec::with_capacity(GAMES_PER_BATCH));
            chunk.games.send(Message::Games(full)).ok()?;
        }
    }
    if !batch.is_empty() {
        chunk.games.send(Message::Games(batch)).ok()?;
    }
    let end = ChunkEnd {
        end: framing.end,
        error,
        trailing,
        read,
    };
    chunk.games.send(Message::End(end)).ok()
}

/// The games of a chunk framed, in order: those kept, or framed again.
enum Games {
    Kept(std::vec::IntoIter<(FramedGame, Position)>),
    Again {
        framer: Box<ChunkFramer>,
        end: u64,
        left: u64,
    },
}

impl Games {
    fn new<T>(
        path: &Path,
        chunk: &Chunk<T>,
        framing: Framing,
        kept: Option<Vec<(FramedGame, Position)>>,
    ) -> io::Result<Games> {
        Ok(match kept {
            Some(games) => Games::Kept(games.into_iter()),
            None => Games::Again {
                framer: Box::new(ChunkFramer::open(path, chunk.start, chunk.choice)?),
                end: framing.end,
                left: framing.games,
            },
        })
    }

    /// The next game. Framed again, the chunk gives the games it gave
    /// (the file unchanged); it stops at their number.
    fn next(&mut self) -> Option<(FramedGame, Position)> {
        match self {
            Games::Kept(games) => games.next(),
            Games::Again { framer, end, left } => {
                while *left > 0 {
                    match framer.next_before(*end) {
                        Ok(Step::Game(game, read)) => {
                            *left -= 1;
                            return Some((game, read));
                        }
                        Ok(Step::Stop { .. }) => *end = EOF,
                        Ok(Step::End) | Err(_) => return None,
                    }
                }
                None
            }
        }
    }
}

/// The caller's side: the chunks' games handed out in file order, then
/// the diagnostics after the last game and how far the file was read.
fn hand_out<T, E>(
    plan: &Plan,
    registered: Receiver<(u64, Receiver<Message<T>>)>,
    out: &mut dyn FnMut(Handed<T>) -> Result<(), E>,
) -> Result<Option<(Vec<Diagnostic>, Position)>, E> {
    let mut expected = 0;
    for (start, games) in registered.iter() {
        // A chunk whose framing does not count.
        if start < expected {
            plan.retire();
            continue;
        }
        loop {
            // A worker gone without the chunk's end: a panic, carried on
            // by the caller.
            let Ok(message) = games.recv() else {
                return Ok(None);
            };
            match message {
                Message::Games(games) => {
                    for (output, read) in games {
                        out(Handed::Game { output, read })?;
                    }
                }
                Message::End(end) => {
                    if let Some((error, at)) = end.error {
                        out(Handed::ReadError { error, at })?;
                    }
                    if end.end == EOF {
                        return Ok(Some((end.trailing, end.read)));
                    }
                    expected = end.end;
                    plan.retire();
                    break;
                }
            }
        }
    }
    Ok(None)
}
