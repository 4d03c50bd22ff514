//! A file's games read, checked and made into what the caller keeps, on
//! several threads, handed out in file order.
//!
//! One thread frames the input ([`Reader::next_raw`]): framing must go
//! through the input in order, and it is cheap. A pool of workers parses
//! each framed game, checks it and makes of it what the caller asks (for
//! an import, the row to store). The caller's thread puts the results back
//! in file order, chooses the file's preset from its first games as
//! [`FileChecker`] does, and hands them out: everything handed out, and
//! its order, is what one thread gives.
//!
//! Plain threads and channels rather than a pool such as rayon's: the
//! work is a stream that must stay in order behind a sequential producer,
//! held back when too much is in flight; a panic of any thread must reach
//! the caller instead of leaving the others waiting; and the number of
//! threads is the caller's, not a process-wide pool's.

use std::any::Any;
use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::path::Path;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock, PoisonError};

use crate::pdn::chunks::{ChunkSize, chunk_bytes, reads_as_is};
use crate::pdn::{Diagnostic, Encoding, FramedGame, Game, Hashed, Position, Reader};
use crate::rules::Preset;

use super::chunked::run_chunked;
use super::file_check::{FileCheck, FileEnd, Handed};
use super::game::{Calibration, CheckedGame, FileChecker, calibration_evidence, check_in};

/// Games in flight between the framing thread and the caller, at most, per
/// worker.
const GAMES_PER_JOB: usize = 64;

/// Games framed that go to the pool together, at most: one message and
/// one wake-up for several games.
const GAMES_PER_TASK: usize = 16;

/// Bytes of game text that go to the pool together, at most (a longer game
/// goes alone).
const TEXT_PER_TASK: usize = 64 << 10;

/// Bytes of game text in flight between the framing thread and the caller,
/// at most, per worker: a game parsed and checked takes several times its
/// text. A longer game (up to [`MAX_GAME_LEN`](crate::pdn::MAX_GAME_LEN))
/// goes alone.
const TEXT_PER_JOB: usize = 1 << 20;

impl FileCheck<'_> {
    /// [`FileCheck::run`] over `file`, the file at `path`, read in
    /// `encoding` (detected when `None`); with `hash`, the bytes read are
    /// hashed, to tell whether the file changed since. The result is the
    /// same as one reader's, for any number of [`FileCheck::jobs`].
    ///
    /// With several jobs, a file of some size is read in chunks (see
    /// `crate::pdn::chunks`), each framed, parsed and checked by one
    /// thread, after its first games have chosen the file's preset; a
    /// smaller one, or one in UTF-16, by one reader whose games the
    /// threads parse and check.
    ///
    /// # Errors
    /// The first error of `out`: nothing more is read or handed out.
    ///
    /// # Panics
    /// A panic of any thread is carried on to the caller's, once the
    /// other threads have stopped.
    #[allow(clippy::too_many_arguments)]
    pub fn run_file<T, W, E>(
        &self,
        file: File,
        path: &Path,
        encoding: Option<&'static Encoding>,
        hash: bool,
        wanted: &(dyn Fn(u64) -> bool + Sync),
        worker: &(dyn Fn() -> W + Sync),
        out: &mut dyn FnMut(Handed<T>) -> Result<(), E>,
    ) -> Result<FileEnd, E>
    where
        T: Send,
        W: FnMut(Game, CheckedGame) -> T,
    {
        let mut file = file;
        if self.jobs > 1
            && let Some(chunk) = in_chunks(&mut file, encoding, self.jobs)
            && let Ok(preset) = self.file_preset(path, encoding)
        {
            let how = (encoding, hash, preset);
            return run_chunked(self, (file, path, chunk), how, wanted, worker, out);
        }
        if !hash {
            let (trailing, read) = self.run_read(file, encoding, wanted, worker, out)?;
            return Ok(FileEnd {
                trailing,
                read,
                content: None,
            });
        }
        let mut hashed = Hashed::new(file);
        let (trailing, read) = self.run_read(&mut hashed, encoding, wanted, worker, out)?;
        Ok(FileEnd {
            trailing,
            read,
            content: Some(hashed.content()),
        })
    }

    /// [`FileCheck::run`] over one reader of `source`: its trailing
    /// diagnostics and how far it read.
    fn run_read<R, T, W, E>(
        &self,
        source: R,
        encoding: Option<&'static Encoding>,
        wanted: &(dyn Fn(u64) -> bool + Sync),
        worker: &(dyn Fn() -> W + Sync),
        out: &mut dyn FnMut(Handed<T>) -> Result<(), E>,
    ) -> Result<(Vec<Diagnostic>, Position), E>
    where
        R: Read + Send,
        T: Send,
        W: FnMut(Game, CheckedGame) -> T,
    {
        let source = BufReader::with_capacity(1 << 16, source);
        let mut reader = Reader::with_encoding(source, encoding);
        self.run(&mut reader, wanted, worker, out)?;
        let read = Reader::position(&reader);
        Ok((reader.trailing_diagnostics().to_vec(), read))
    }

    /// The preset the first games of the file at `path` choose (see
    /// [`FileChecker`]): read here, before the file is read in chunks.
    ///
    /// # Errors
    /// An I/O error reading them (the file is then read by one reader, so
    /// that the error comes where it does for one).
    fn file_preset(
        &self,
        path: &Path,
        encoding: Option<&'static Encoding>,
    ) -> io::Result<Option<Preset>> {
        if self.overrides.rules.is_some() {
            return Ok(None);
        }
        let source = BufReader::with_capacity(1 << 16, File::open(path)?);
        let mut reader = Reader::with_encoding(source, encoding);
        let mut calibration = Calibration::default();
        while let Some(game) = reader.next_game()? {
            let evidence = calibration_evidence(&game, self.overrides);
            if calibration.count(game.memory_size(), evidence) {
                break;
            }
        }
        Ok(calibration.choose())
    }

    /// Reads every game of `reader`, checks those `wanted` (by their
    /// 1-based index: the others still count towards the file's preset),
    /// makes each into a `T` with a function from `worker` (one per
    /// thread) and hands them to `out` in file order. The result is the
    /// same for any number of [`FileCheck::jobs`]. The reader's trailing
    /// diagnostics are complete on return, unless `out` failed.
    ///
    /// # Errors
    /// The first error of `out`: nothing more is read or handed out.
    ///
    /// # Panics
    /// A panic of any thread is carried on to the caller's, once the
    /// other threads have stopped.
    pub fn run<R, T, W, E>(
        &self,
        reader: &mut Reader<R>,
        wanted: &(dyn Fn(u64) -> bool + Sync),
        worker: &(dyn Fn() -> W + Sync),
        out: &mut dyn FnMut(Handed<T>) -> Result<(), E>,
    ) -> Result<(), E>
    where
        R: Read + Send,
        T: Send,
        W: FnMut(Game, CheckedGame) -> T,
    {
        if self.jobs <= 1 {
            return self.run_here(reader, wanted, worker(), out);
        }
        let preset = OnceLock::new();
        if self.overrides.rules.is_some() {
            let _ = preset.set(None);
        }
        let in_flight = InFlight::new(self.jobs);
        let (tasks, queue) = channel();
        let queue = Mutex::new(queue);
        let (results, done) = channel();
        let stopped = std::thread::scope(|scope| {
            let framing = Framing {
                tasks: tasks.clone(),
                results: results.clone(),
                in_flight: &in_flight,
            };
            scope.spawn(move || framing.run(reader, wanted));
            for _ in 0..self.jobs {
                let working = Working {
                    check: self,
                    queue: &queue,
                    results: results.clone(),
                    preset: &preset,
                    in_flight: &in_flight,
                };
                scope.spawn(move || working.run(worker));
            }
            drop(results);
            // However the caller's side ends, the other threads stop.
            let _stop = StopOnDrop(&in_flight);
            Ordering {
                slots: VecDeque::new(),
                first: 0,
                calibration: (preset.get().is_none()).then(|| (Calibration::default(), 0)),
                preset: &preset,
                tasks,
                in_flight: &in_flight,
            }
            .run(&done, out)
        });
        match stopped {
            Ok(()) => Ok(()),
            Err(Stop::Out(e)) => Err(e),
            Err(Stop::Panic(payload)) => resume_unwind(payload),
        }
    }

    /// [`FileCheck::run`] on the caller's thread.
    fn run_here<R: Read, T, E>(
        &self,
        reader: &mut Reader<R>,
        wanted: &(dyn Fn(u64) -> bool + Sync),
        mut work: impl FnMut(Game, CheckedGame) -> T,
        out: &mut dyn FnMut(Handed<T>) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut checker = FileChecker::new(self.name, self.overrides);
        loop {
            let game = match reader.next_game() {
                Ok(Some(game)) => game,
                Ok(None) => break,
                Err(error) => {
                    out(Handed::ReadError {
                        error,
                        at: Reader::position(reader),
                    })?;
                    break;
                }
            };
            let read = Reader::position(reader);
            let wanted = wanted(game.index);
            checker.push(game, wanted, self.with_tags, &mut |game, checked| {
                out(Handed::Game {
                    output: work(game, checked),
                    read,
                })
            })?;
        }
        let read = Reader::position(reader);
        checker.finish(self.with_tags, &mut |game, checked| {
            out(Handed::Game {
                output: work(game, checked),
                read,
            })
        })
    }
}

/// The sizes of the chunks of `file`, when it is read in chunks on `jobs`
/// threads (see [`chunk_bytes`]: a file of some size, read as its bytes
/// are); the file is left at its start.
fn in_chunks(
    file: &mut File,
    encoding: Option<&'static Encoding>,
    jobs: usize,
) -> Option<ChunkSize> {
    let size = file.metadata().ok()?.len();
    let chunk = chunk_bytes(size, jobs)?;
    let mut head = [0; 16];
    let mut len = 0;
    while len < head.len() {
        match file.read(&mut head[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    file.seek(SeekFrom::Start(0)).ok()?;
    reads_as_is(&head[..len], encoding).then_some(chunk)
}

/// Why the caller's side stopped early.
enum Stop<E> {
    /// `out` failed.
    Out(E),
    /// A thread panicked.
    Panic(Box<dyn Any + Send>),
}

/// A game's place in the file and what travels with it.
#[derive(Clone, Copy, Debug)]
struct Ticket {
    /// 0-based place among the games framed.
    seq: u64,
    /// How far the input had been read once the game was framed.
    read: Position,
    /// Bytes of its text.
    text: usize,
    /// Whether the caller wants it checked.
    wanted: bool,
    /// Whether it still counts in [`InFlight`].
    in_flight: bool,
}

/// Work for the pool.
enum Task {
    /// Parse framed games, in order; check each if the file's preset is
    /// chosen, else tell what it says of the preset.
    Parse(Vec<(Ticket, FramedGame)>),
    /// Check a game parsed before the file's preset was chosen.
    Check(Ticket, Box<Game>),
}

/// What comes back to the caller's thread.
enum Done<T> {
    /// A game parsed before the file's preset was chosen, with the presets
    /// it reads cleanly under.
    Parsed(Ticket, Box<Game>, Option<Vec<Preset>>),
    /// A game checked and made into a `T` (`None`: not wanted).
    Finished(Ticket, Option<T>),
    /// The input ends after this many games, or fails there.
    End(u64, Option<(io::Error, Position)>),
    /// A thread panicked.
    Panicked(Box<dyn Any + Send>),
}

/// The games between the framing thread and the caller: the framing
/// thread waits while there are too many, or too much text.
///
/// Once it has had to wait, it waits until there is room for a whole task
/// ([`GAMES_PER_TASK`] games, [`TEXT_PER_TASK`] bytes), not for one game:
/// else, with the pool busy, each game handed out would wake it to frame
/// one game and send it alone, and every thread would wake once a game.
struct InFlight {
    state: Mutex<Load>,
    freed: Condvar,
    games: usize,
    text: usize,
}

#[derive(Default)]
struct Load {
    games: usize,
    text: usize,
    stopped: bool,
    /// While the framing thread waits for room: the bytes of the game it
    /// waits to enter (only then is it woken).
    waiting: Option<usize>,
}

/// Whether a game could enter [`InFlight`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    /// It took its room.
    Entered,
    /// There is no room for it now (when not waiting).
    Full,
    /// The run is stopped.
    Stopped,
}

impl InFlight {
    fn new(jobs: usize) -> InFlight {
        InFlight {
            state: Mutex::new(Load::default()),
            freed: Condvar::new(),
            games: GAMES_PER_JOB * jobs,
            text: TEXT_PER_JOB * jobs,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Load> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether a game of `text` bytes fits; with `task`, whether a task
    /// beginning with it does (room left for [`GAMES_PER_TASK`] games in
    /// all and [`TEXT_PER_TASK`] more bytes). A game always fits when none
    /// is in flight, however long it is.
    fn fits(&self, load: &Load, text: usize, task: bool) -> bool {
        let (games, more_text) = if task {
            (GAMES_PER_TASK, TEXT_PER_TASK)
        } else {
            (1, 0)
        };
        load.games == 0
            || (load.games + games <= self.games && load.text + text + more_text <= self.text)
    }

    /// Takes room for a game of `text` bytes. When there is none, returns
    /// [`Entry::Full`], or with `wait` waits until there is room for a
    /// whole task beginning with this game.
    fn enter(&self, text: usize, wait: bool) -> Entry {
        let mut load = self.lock();
        if !wait && !load.stopped && !self.fits(&load, text, false) {
            return Entry::Full;
        }
        while !load.stopped && !self.fits(&load, text, wait) {
            load.waiting = Some(text);
            load = self
                .freed
                .wait(load)
                .unwrap_or_else(PoisonError::into_inner);
            load.waiting = None;
        }
        if load.stopped {
            return Entry::Stopped;
        }
        load.games += 1;
        load.text += text;
        Entry::Entered
    }

    /// Gives back the room of a game; wakes the framing thread once there
    /// is room for a task.
    fn leave(&self, ticket: &mut Ticket) {
        if std::mem::take(&mut ticket.in_flight) {
            let mut load = self.lock();
            load.games -= 1;
            load.text -= ticket.text;
            if load
                .waiting
                .is_some_and(|text| self.fits(&load, text, true))
            {
                self.freed.notify_one();
            }
        }
    }

    fn stop(&self) {
        self.lock().stopped = true;
        self.freed.notify_all();
    }

    fn stopped(&self) -> bool {
        self.lock().stopped
    }
}

/// Stops the threads of a run when the caller's side ends, returning or
/// unwinding.
struct StopOnDrop<'a>(&'a InFlight);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// The framing thread.
struct Framing<'a, T> {
    tasks: Sender<Task>,
    results: Sender<Vec<Done<T>>>,
    in_flight: &'a InFlight,
}

impl<T> Framing<'_, T> {
    /// Sends the games framed to the pool, if any; `None` once the pool is
    /// gone.
    fn send(&self, task: &mut Vec<(Ticket, FramedGame)>) -> Option<()> {
        if task.is_empty() {
            return Some(());
        }
        self.tasks.send(Task::Parse(std::mem::take(task))).ok()
    }

    fn run<R: Read>(self, reader: &mut Reader<R>, wanted: &(dyn Fn(u64) -> bool + Sync)) {
        let mut seq = 0;
        let framed = catch_unwind(AssertUnwindSafe(|| {
            let mut task = Vec::new();
            let mut text = 0;
            loop {
                let game = match reader.next_raw() {
                    Ok(Some(game)) => game,
                    Ok(None) => {
                        self.send(&mut task)?;
                        return Some(Done::End(seq, None));
                    }
                    Err(error) => {
                        self.send(&mut task)?;
                        return Some(Done::End(seq, Some((error, Reader::position(reader)))));
                    }
                };
                let ticket = Ticket {
                    seq,
                    read: Reader::position(reader),
                    text: game.text_len(),
                    wanted: wanted(game.index()),
                    in_flight: true,
                };
                let mut entry = self.in_flight.enter(ticket.text, false);
                if entry == Entry::Full {
                    // The games framed go before the wait for room.
                    self.send(&mut task)?;
                    text = 0;
                    entry = self.in_flight.enter(ticket.text, true);
                }
                if entry != Entry::Entered {
                    return None;
                }
                text += ticket.text;
                task.push((ticket, game));
                if task.len() >= GAMES_PER_TASK || text >= TEXT_PER_TASK {
                    self.send(&mut task)?;
                    text = 0;
                }
                seq += 1;
            }
        }));
        let last = framed.unwrap_or_else(|payload| Some(Done::Panicked(payload)));
        if let Some(last) = last {
            let _ = self.results.send(vec![last]);
        }
    }
}

/// A worker of the pool.
struct Working<'a, T> {
    check: &'a FileCheck<'a>,
    queue: &'a Mutex<Receiver<Task>>,
    results: Sender<Vec<Done<T>>>,
    preset: &'a OnceLock<Option<Preset>>,
    in_flight: &'a InFlight,
}

impl<T> Working<'_, T> {
    fn run<W: FnMut(Game, CheckedGame) -> T>(self, worker: &(dyn Fn() -> W + Sync)) {
        let worked = catch_unwind(AssertUnwindSafe(|| {
            let mut work = worker();
            loop {
                let task = self
                    .queue
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .recv();
                let Ok(task) = task else { return };
                if self.in_flight.stopped() {
                    return;
                }
                let done = match task {
                    Task::Parse(games) => games
                        .into_iter()
                        .map(|(ticket, framed)| {
                            let game = framed.parse();
                            match self.preset.get() {
                                Some(&preset) => self.finish(ticket, game, preset, &mut work),
                                None => {
                                    let evidence =
                                        calibration_evidence(&game, self.check.overrides);
                                    Done::Parsed(ticket, Box::new(game), evidence)
                                }
                            }
                        })
                        .collect(),
                    Task::Check(ticket, game) => {
                        let preset = self.preset.get().copied().flatten();
                        vec![self.finish(ticket, *game, preset, &mut work)]
                    }
                };
                if self.results.send(done).is_err() {
                    return;
                }
            }
        }));
        if let Err(payload) = worked {
            let _ = self.results.send(vec![Done::Panicked(payload)]);
        }
    }

    /// Checks a game with the file's preset, if wanted, and makes it into
    /// a `T`.
    fn finish(
        &self,
        ticket: Ticket,
        game: Game,
        preset: Option<Preset>,
        work: &mut impl FnMut(Game, CheckedGame) -> T,
    ) -> Done<T> {
        if !ticket.wanted {
            return Done::Finished(ticket, None);
        }
        let FileCheck {
            name,
            overrides,
            with_tags,
            ..
        } = *self.check;
        let checked = check_in(&game, name, overrides, preset, with_tags);
        Done::Finished(ticket, Some(work(game, checked)))
    }
}

/// A game's state on the caller's thread.
enum Slot<T> {
    /// Being parsed or checked.
    Working,
    /// Parsed before the file's preset was chosen.
    Parsed(Ticket, Box<Game>, Option<Vec<Preset>>),
    /// Ready to be handed out.
    Finished(Ticket, Option<T>),
    /// The end of the input (and its error, until handed out).
    End(Option<(io::Error, Position)>),
}

/// The caller's side: results put back in file order, the file's preset
/// chosen, games handed out.
struct Ordering<'a, T> {
    /// From the first game not yet handed out on.
    slots: VecDeque<Slot<T>>,
    /// The place of `slots[0]`.
    first: u64,
    /// While the file's preset is being chosen: the count so far and the
    /// place of the next game to count.
    calibration: Option<(Calibration, u64)>,
    preset: &'a OnceLock<Option<Preset>>,
    tasks: Sender<Task>,
    in_flight: &'a InFlight,
}

impl<T> Ordering<'_, T> {
    fn run<E>(
        mut self,
        done: &Receiver<Vec<Done<T>>>,
        out: &mut dyn FnMut(Handed<T>) -> Result<(), E>,
    ) -> Result<(), Stop<E>> {
        loop {
            // Every thread sends its last word before it ends: the end
            // of the input, or a panic.
            let Ok(results) = done.recv() else {
                return Err(Stop::Panic(Box::new("the reading threads ended early")));
            };
            for result in results {
                match result {
                    Done::Panicked(payload) => return Err(Stop::Panic(payload)),
                    Done::Parsed(ticket, game, evidence) => {
                        if self.calibration.is_some() {
                            self.put(ticket.seq, Slot::Parsed(ticket, game, evidence));
                        } else {
                            self.check(ticket, game);
                        }
                    }
                    Done::Finished(ticket, output) => {
                        self.put(ticket.seq, Slot::Finished(ticket, output));
                    }
                    Done::End(seq, error) => self.put(seq, Slot::End(error)),
                }
            }
            self.calibrate(out).map_err(Stop::Out)?;
            if self.hand_out(out).map_err(Stop::Out)? {
                return Ok(());
            }
        }
    }

    fn put(&mut self, seq: u64, slot: Slot<T>) {
        let at = (seq - self.first) as usize;
        while self.slots.len() <= at {
            self.slots.push_back(Slot::Working);
        }
        self.slots[at] = slot;
    }

    /// Counts the games parsed, in order, towards the file's preset, and
    /// chooses it once they are enough or the input ends.
    fn calibrate<E>(&mut self, out: &mut dyn FnMut(Handed<T>) -> Result<(), E>) -> Result<(), E> {
        while let Some((calibration, next)) = &mut self.calibration {
            let at = (*next - self.first) as usize;
            match self.slots.get_mut(at) {
                Some(Slot::Parsed(ticket, game, evidence)) => {
                    // Held games are bounded by the count itself.
                    self.in_flight.leave(ticket);
                    *next += 1;
                    if calibration.count(game.memory_size(), evidence.take()) {
                        self.choose();
                    }
                }
                Some(Slot::End(error)) => {
                    if let Some((error, at)) = error.take() {
                        out(Handed::ReadError { error, at })?;
                    }
                    self.choose();
                }
                _ => break,
            }
        }
        Ok(())
    }

    /// Chooses the file's preset and has the games parsed so far checked.
    fn choose(&mut self) {
        let Some((calibration, _)) = self.calibration.take() else {
            return;
        };
        let _ = self.preset.set(calibration.choose());
        for k in 0..self.slots.len() {
            if let Slot::Parsed(..) = self.slots[k] {
                let Slot::Parsed(ticket, game, _) =
                    std::mem::replace(&mut self.slots[k], Slot::Working)
                else {
                    continue;
                };
                self.check(ticket, game);
            }
        }
    }

    /// Has a game parsed before the file's preset was chosen checked.
    fn check(&mut self, ticket: Ticket, game: Box<Game>) {
        if ticket.wanted {
            // The workers outlive this side: the queue stays open.
            let _ = self.tasks.send(Task::Check(ticket, game));
        } else {
            self.put(ticket.seq, Slot::Finished(ticket, None));
        }
    }

    /// Hands out the games ready, in order; `true` at the end.
    fn hand_out<E>(&mut self, out: &mut dyn FnMut(Handed<T>) -> Result<(), E>) -> Result<bool, E> {
        loop {
            match self.slots.front_mut() {
                Some(Slot::Finished(..)) => {
                    let Some(Slot::Finished(mut ticket, output)) = self.slots.pop_front() else {
                        continue;
                    };
                    self.first += 1;
                    self.in_flight.leave(&mut ticket);
                    if let Some(output) = output {
                        out(Handed::Game {
                            output,
                            read: ticket.read,
                        })?;
                    }
                }
                Some(Slot::End(error)) => {
                    if let Some((error, at)) = error.take() {
                        out(Handed::ReadError { error, at })?;
                    }
                    return Ok(true);
                }
                _ => return Ok(false),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::detect::Overrides;

    /// `games` English games, each a little different.
    fn games(games: usize) -> Vec<u8> {
        let moves = ["11-15 23-19", "9-13 22-18", "10-14 24-20", "12-16 21-17"];
        let mut text = String::new();
        for k in 0..games {
            text.push_str(&format!(
                "[Event \"{k}\"]\n1. {} 2. {} *\n\n",
                moves[k % 4],
                moves[(k / 4) % 4].replace("11-15", "8-11")
            ));
        }
        text.into_bytes()
    }

    /// Bytes, then an I/O error.
    struct Failing<'a>(&'a [u8]);

    impl Read for Failing<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("the disk is gone"));
            }
            let n = buf.len().min(self.0.len()).min(100);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// What a run hands out, told as text: each game's index, status and
    /// warnings, and the error.
    fn handed_out(
        source: impl Read + Send,
        jobs: usize,
        wanted: &(dyn Fn(u64) -> bool + Sync),
    ) -> Vec<String> {
        let overrides = Overrides::default();
        let check = FileCheck {
            name: "games.pdn",
            overrides: &overrides,
            jobs,
            with_tags: true,
        };
        let mut reader = Reader::new(source);
        let mut seen = Vec::new();
        let ran: Result<(), ()> = check.run(
            &mut reader,
            wanted,
            &|| {
                |game: Game, checked: CheckedGame| {
                    format!(
                        "{} {:?} {:?}",
                        game.index, checked.record.outcome.status, checked.warnings
                    )
                }
            },
            &mut |handed| {
                seen.push(match handed {
                    Handed::Game { output, .. } => output,
                    Handed::ReadError { error, at } => format!("{at}: {error}"),
                });
                Ok(())
            },
        );
        assert_eq!(ran, Ok(()));
        seen
    }

    #[test]
    fn threads_hand_out_what_one_thread_does() {
        let all = |_| true;
        let some = |index| index % 3 != 0;
        for count in [0, 1, 10, 63, 64, 65, 300] {
            let text = games(count);
            for wanted in [&all as &(dyn Fn(u64) -> bool + Sync), &some] {
                let one = handed_out(&text[..], 1, wanted);
                assert!(one.len() <= count);
                for jobs in [2, 3] {
                    assert_eq!(handed_out(&text[..], jobs, wanted), one, "{count} games");
                }
            }
        }
    }

    #[test]
    fn a_read_error_comes_where_one_thread_meets_it() {
        // While the first games are held to choose the preset (they come
        // after it), and after.
        for count in [10, 300] {
            let text = games(count);
            let one = handed_out(Failing(&text), 1, &|_| true);
            let error = one.iter().position(|s| s.contains("the disk is gone"));
            assert_eq!(error, Some(if count == 10 { 0 } else { one.len() - 1 }));
            assert_eq!(handed_out(Failing(&text), 2, &|_| true), one);
        }
    }

    #[test]
    fn an_error_of_the_caller_stops_the_run() {
        let overrides = Overrides::default();
        let check = FileCheck {
            name: "games.pdn",
            overrides: &overrides,
            jobs: 2,
            with_tags: false,
        };
        let text = games(2_000);
        let mut reader = Reader::new(&text[..]);
        let mut taken = 0;
        let ran = check.run(
            &mut reader,
            &|_| true,
            &|| |game: Game, _| game.index,
            &mut |_| {
                taken += 1;
                if taken == 100 { Err("enough") } else { Ok(()) }
            },
        );
        assert_eq!(ran, Err("enough"));
        assert_eq!(taken, 100);
    }

    #[test]
    fn a_panic_of_a_worker_reaches_the_caller() {
        let overrides = Overrides::default();
        let check = FileCheck {
            name: "games.pdn",
            overrides: &overrides,
            jobs: 2,
            with_tags: false,
        };
        let text = games(500);
        let ran = std::panic::catch_unwind(AssertUnwindSafe(|| {
            let mut reader = Reader::new(&text[..]);
            let work = || {
                |game: Game, _| {
                    assert!(game.index != 200, "game 200 breaks the worker");
                    game.index
                }
            };
            check.run(&mut reader, &|_| true, &work, &mut |_| Ok::<_, ()>(()))
        }));
        let payload = ran.expect_err("the panic is carried on");
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        assert!(message.contains("game 200 breaks the worker"), "{message}");
    }

    #[test]
    fn a_framer_that_waits_is_let_in_once_a_whole_task_has_room() {
        let in_flight = InFlight::new(1);
        let mut tickets: Vec<Ticket> = (0..GAMES_PER_JOB as u64)
            .map(|seq| {
                assert_eq!(in_flight.enter(100, false), Entry::Entered);
                Ticket {
                    seq,
                    read: Position::START,
                    text: 100,
                    wanted: true,
                    in_flight: true,
                }
            })
            .collect();
        assert_eq!(in_flight.enter(100, false), Entry::Full);
        std::thread::scope(|scope| {
            let framer = scope.spawn(|| in_flight.enter(100, true));
            while in_flight.lock().waiting.is_none() {
                std::thread::yield_now();
            }
            // Room for one game, then for all but one of a task: it waits.
            for ticket in &mut tickets[..GAMES_PER_TASK - 1] {
                in_flight.leave(ticket);
                assert_eq!(in_flight.lock().waiting, Some(100));
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
            assert!(!framer.is_finished());
            // Room for a task: it enters, and so do the task's other games.
            in_flight.leave(&mut tickets[GAMES_PER_TASK - 1]);
            assert_eq!(framer.join().unwrap(), Entry::Entered);
        });
        for _ in 1..GAMES_PER_TASK {
            assert_eq!(in_flight.enter(100, false), Entry::Entered);
        }
        assert_eq!(in_flight.enter(100, false), Entry::Full);
        // A stop lets a waiting framer go.
        std::thread::scope(|scope| {
            let framer = scope.spawn(|| in_flight.enter(100, true));
            while in_flight.lock().waiting.is_none() {
                std::thread::yield_now();
            }
            in_flight.stop();
            assert_eq!(framer.join().unwrap(), Entry::Stopped);
        });
    }
}
