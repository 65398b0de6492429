//! What every solver shares: its budget (a node limit and a wall-clock limit) and the
//! kind of answer it gives.

use std::time::{Duration, Instant};

/// Stops a search after `nodes` positions or `seconds` of wall time, whichever first.
pub struct Budget {
    nodes: u64,
    deadline: Option<Instant>,
    next_clock_check: u64,
}

impl Budget {
    pub fn new(nodes: Option<u64>, seconds: Option<f64>) -> Self {
        let deadline = seconds.map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0)));
        Budget { nodes: nodes.unwrap_or(u64::MAX), deadline, next_clock_check: 1024 }
    }

    pub fn unlimited() -> Self {
        Budget::new(None, None)
    }

    /// True when a search that has visited `searched` positions must stop.
    #[inline]
    pub fn exhausted(&mut self, searched: u64) -> bool {
        if searched >= self.nodes {
            return true;
        }
        if searched >= self.next_clock_check {
            self.next_clock_check = searched + 4096;
            if let Some(deadline) = self.deadline {
                return Instant::now() >= deadline;
            }
        }
        false
    }
}

/// A solver's answer: a win (with a line), a proved loss, or nothing within budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Won,
    Lost,
    Unknown,
}

impl Outcome {
    /// The verdict's name in the Python API.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Won => "won",
            Outcome::Lost => "lost",
            Outcome::Unknown => "unknown",
        }
    }
}
