//! What stops a search: the budgets every search shares (positions, a deadline; memory is
//! each search's own count) and why one stopped. Below the searches (`search`, `walk`,
//! `bestfirst`, `layered`), so that none of them needs another for these.

use std::time::Instant;

#[derive(Debug)]
pub enum Stop {
    Nodes,
    Time,
    Memory,
    /// Another thread stopped the search (the layered search's threads).
    Halted,
}

/// The positions and the deadline a search stops at (memory is each search's own count).
#[derive(Clone, Copy)]
pub struct Limits {
    pub node_limit: u64,
    pub deadline: Instant,
}

impl Limits {
    /// After each new position: its count every time, the clock and `over_memory` every
    /// 4,096 positions (they cost a system call and a sum).
    pub fn check(&self, nodes: u64, over_memory: impl FnOnce() -> bool) -> Result<(), Stop> {
        if nodes >= self.node_limit {
            return Err(Stop::Nodes);
        }
        if nodes & 4095 == 0 {
            if Instant::now() > self.deadline {
                return Err(Stop::Time);
            }
            if over_memory() {
                return Err(Stop::Memory);
            }
        }
        Ok(())
    }
}
