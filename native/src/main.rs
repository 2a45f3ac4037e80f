//! `haven-prover`: Haven's native exhaustive solver for the stock games, a helper of the
//! Python solver (`games.solver.native`), which builds the request from an engine state
//! and replays every win with the engine before it is believed.
//!
//! One request a line on standard input, one answer a line on standard output, until end
//! of input.  A request is whitespace-separated integers:
//!
//! ```text
//! 4 ncols alternate king_only partial_runs row_deals stock_plays king_fill search
//!   millis node_limit memory_mb
//!   then per column: length face_down cards…; foundations ×4; stock: length cards…;
//!   waste: length cards…
//! ```
//!
//! The answer: `verdict nodes millis memory moves src dst count …` with verdict `won`,
//! `lost` or `unknown`, `memory` 1 when the memory limit stopped the search, and the
//! moves of a win (piles as in `games.solver.position`).  `search` 0: the depth-first
//! search (`search`, light on memory for proofs); 1: the best-first one (`bestfirst`,
//! quick to find wins); 2: the layered one (`layered`, a depth-first proof holding a
//! layer of positions at a time; it keeps no line, so a win it meets answers `unknown`).
//! Each proves a loss when it runs out of positions.  A malformed request answers
//! `error <reason>`.  0 as `node_limit` or `memory_mb`: no limit.

// `Option::is_none_or` is newer than the Debian toolchain (rustc 1.63) this must build on.
#![allow(clippy::unnecessary_map_or)]

mod bestfirst;
mod dead;
mod game;
mod huge;
mod keyset;
mod layered;
mod limits;
mod search;
mod spill;
mod walk;

use bestfirst::BestFirst;
use game::{Move, Position, Rules, MAX_COLS};
use layered::Layered;
use limits::Stop;
use search::{Search, Verdict};
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

const PROTOCOL: u64 = 4;

/// Which search answers a request (its `search` number).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    DepthFirst,
    BestFirst,
    Layered,
}

struct Request {
    position: Position,
    kind: Kind,
    millis: u64,
    node_limit: u64,
    memory_mb: u64,
}

struct Numbers {
    values: Vec<u64>,
    at: usize,
}

impl Numbers {
    fn next(&mut self, what: &str) -> Result<u64, String> {
        let value = self
            .values
            .get(self.at)
            .copied()
            .ok_or_else(|| format!("{}: missing", what))?;
        self.at += 1;
        Ok(value)
    }

    fn card(&mut self, what: &str, seen: &mut [bool; 52]) -> Result<u8, String> {
        let c = self.next(what)?;
        if c >= 52 || seen[c as usize] {
            return Err(format!("{}: bad or repeated card", what));
        }
        seen[c as usize] = true;
        Ok(c as u8)
    }
}

fn parse(line: &str) -> Result<Request, String> {
    let values = line
        .split_ascii_whitespace()
        .map(|w| {
            w.parse::<u64>()
                .map_err(|_| format!("not a number: {:.20}", w))
        })
        .collect::<Result<Vec<u64>, String>>()?;
    let mut numbers = Numbers { values, at: 0 };
    if numbers.next("protocol")? != PROTOCOL {
        return Err("protocol: unsupported version".into());
    }
    let ncols = numbers.next("ncols")? as usize;
    if ncols == 0 || ncols > MAX_COLS {
        return Err("ncols: out of range".into());
    }
    let flag = |n: u64| n != 0;
    let rules = Rules {
        ncols,
        alternate: flag(numbers.next("alternate")?),
        king_only: flag(numbers.next("king_only")?),
        partial_runs: flag(numbers.next("partial_runs")?),
        row_deals: flag(numbers.next("row_deals")?),
        stock_plays: flag(numbers.next("stock_plays")?),
        king_fill: flag(numbers.next("king_fill")?),
        one_run: false,
    };
    let kind = match numbers.next("search")? {
        0 => Kind::DepthFirst,
        1 => Kind::BestFirst,
        2 => Kind::Layered,
        _ => return Err("search: 0, 1 or 2".into()),
    };
    let millis = numbers.next("millis")?;
    let node_limit = numbers.next("node_limit")?;
    let memory_mb = numbers.next("memory_mb")?;
    let mut seen = [false; 52];
    let mut cols = Vec::with_capacity(ncols);
    let mut down = Vec::with_capacity(ncols);
    for _ in 0..ncols {
        let n = numbers.next("column length")? as usize;
        let d = numbers.next("face down")?;
        if n > 52 || (n > 0 && d as usize >= n) || (n == 0 && d != 0) {
            return Err("column: bad face-down count".into());
        }
        let mut col = Vec::with_capacity(n + 16);
        for _ in 0..n {
            col.push(numbers.card("column card", &mut seen)?);
        }
        cols.push(col);
        down.push(d as u8);
    }
    let mut found = [0u8; 4];
    for (s, slot) in found.iter_mut().enumerate() {
        let h = numbers.next("foundation")?;
        if h > 13 {
            return Err("foundation: above 13".into());
        }
        for r in 0..h {
            let c = (s as u64) * 13 + r;
            if seen[c as usize] {
                return Err("foundation: card also elsewhere".into());
            }
            seen[c as usize] = true;
        }
        *slot = h as u8;
    }
    let n = numbers.next("stock length")? as usize;
    let mut stock = Vec::with_capacity(n);
    for _ in 0..n {
        stock.push(numbers.card("stock card", &mut seen)?);
    }
    let n = numbers.next("waste length")? as usize;
    let mut waste = Vec::with_capacity(52);
    for _ in 0..n {
        waste.push(numbers.card("waste card", &mut seen)?);
    }
    if seen.iter().any(|&s| !s) {
        return Err("cards: not all 52".into());
    }
    if numbers.at != numbers.values.len() {
        return Err("trailing input".into());
    }
    let mut position = Position {
        rules,
        cols,
        down,
        found,
        stock,
        dealt: 0,
        waste,
    };
    position.note_runs();
    Ok(Request {
        position,
        kind,
        millis,
        node_limit,
        memory_mb,
    })
}

fn answer(request: Request) -> String {
    let started = Instant::now();
    let deadline = started + Duration::from_millis(request.millis);
    let node_limit = if request.node_limit == 0 {
        u64::MAX
    } else {
        request.node_limit
    };
    let memory = if request.memory_mb == 0 {
        usize::MAX
    } else {
        (request.memory_mb as usize) << 20
    };
    if request.kind == Kind::Layered {
        let mut search = Layered::new(request.position, node_limit, deadline, memory);
        // A win met here has no line to replay, so it is not an answer: the search is
        // for proofs (the other searches find wins).
        let (word, by_memory) = match search.run() {
            Ok(true) => ("unknown", false),
            Ok(false) => ("lost", false),
            Err(stop) => ("unknown", matches!(stop, Stop::Memory)),
        };
        if search.won {
            eprintln!("layered search: a won position, no line kept");
        }
        return reply(word, search.nodes, started, by_memory, &[]);
    }
    if request.kind == Kind::BestFirst {
        let mut search = BestFirst::new(request.position, node_limit, deadline, memory);
        // Flagged as memory once it has forgotten: it met its limit, whatever stopped it.
        let (word, by_memory) = match search.run() {
            Ok(true) => ("won", false),
            Ok(false) => ("lost", false),
            Err(stop) => (
                "unknown",
                matches!(stop, Stop::Memory) || search.forgotten > 0,
            ),
        };
        return reply(word, search.nodes, started, by_memory, &search.path);
    }
    let mut search = Search::new(request.position, node_limit, deadline, memory);
    let verdict = search.run();
    let word = match verdict {
        Verdict::Won => "won",
        Verdict::Lost => "lost",
        Verdict::Unknown => "unknown",
    };
    let by_memory = matches!(search.stopped, Some(Stop::Memory));
    let moves = if verdict == Verdict::Won {
        search.shortcut_win()
    } else {
        Vec::new()
    };
    reply(word, search.nodes, started, by_memory, &moves)
}

fn reply(word: &str, nodes: u64, started: Instant, by_memory: bool, moves: &[Move]) -> String {
    let mut out = format!(
        "{} {} {} {}",
        word,
        nodes,
        started.elapsed().as_millis(),
        by_memory as u8
    );
    if word == "won" {
        for mv in moves {
            out.push_str(&format!(" {} {} {}", mv.src, mv.dst, mv.count));
        }
    }
    out
}

fn main() {
    let stdin = io::stdin();
    let mut stdout = io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(line) => line,
            Err(_) => break,
        };
        if line.trim().is_empty() {
            continue;
        }
        let reply = match parse(&line) {
            Ok(request) => answer(request),
            Err(reason) => format!("error {}", reason),
        };
        if writeln!(stdout, "{}", reply)
            .and_then(|_| stdout.flush())
            .is_err()
        {
            break;
        }
    }
}
