//! What every solver shares: the budget a search may spend (split between the passes
//! of a portfolio), the answer it gives, and the solution type.
//!
//! A budget is a number of positions, a time, both or neither. The time is CPU time of
//! the thread that searches ([`thread_cpu`]), not wall-clock time: the same request
//! gets the same search on a quiet machine and on a busy server (a search stops within
//! [`CLOCK_EVERY`] positions of its deadline, so the counts agree to a few thousand
//! positions, not exactly). A budget must be made and spent on the searching thread
//! (the engines make it inside `allow_threads`, which runs on the caller's thread). A
//! portfolio
//! of passes (several searches run in turn, as fc-solve's soft threads or KPatience's
//! passes) gives each pass its own [`Budget::pass`]: a share, by weight, of the
//! positions *and* of the time that the earlier passes left. So a node budget, a time
//! budget or both give every pass its turn, and a pass that finishes early hands what
//! it did not spend to the passes after it.
//!
//! With no node limit at all a pass is still finite: it stops after the `cap` its
//! preset names (for the exact searches a cap far above any deal measured, so that
//! their verdicts stay proofs in practice; see each module's presets).

/// Stops a search after a number of positions or a deadline in the thread's CPU time,
/// whichever first.
///
/// Positions are counted by the caller (`searched`, cumulative over the passes of one
/// solve); the budget holds the count at which the search must stop.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Stop when the cumulative count of positions reaches this.
    limit: u64,
    /// Whether `limit` came from the caller (false: only a pass's default cap).
    limited: bool,
    /// The searching thread's CPU time ([`thread_cpu`]) at which the search must stop.
    deadline: Option<f64>,
    next_clock_check: u64,
    /// Set once the deadline has passed, so later checks agree without the clock.
    expired: bool,
}

/// Positions between two looks at the clock (a few milliseconds of any search; a look
/// at the thread's CPU clock is a system call of about a microsecond).
pub const CLOCK_EVERY: u64 = 2048;

impl Budget {
    /// A budget of `nodes` positions and `seconds` of this thread's CPU time from now
    /// (`None`: no limit).
    pub fn new(nodes: Option<u64>, seconds: Option<f64>) -> Self {
        let deadline = seconds.map(|s| thread_cpu() + s.max(0.0));
        Budget { limit: nodes.unwrap_or(u64::MAX), limited: nodes.is_some(), deadline, next_clock_check: 0, expired: false }
    }

    pub fn unlimited() -> Self {
        Budget::new(None, None)
    }

    /// True when a search that has visited `searched` positions (cumulative) must stop.
    #[inline]
    pub fn exhausted(&mut self, searched: u64) -> bool {
        if searched >= self.limit || self.expired {
            return true;
        }
        if searched >= self.next_clock_check {
            self.next_clock_check = searched + CLOCK_EVERY;
            if let Some(deadline) = self.deadline {
                self.expired = thread_cpu() >= deadline;
                return self.expired;
            }
        }
        false
    }

    /// True when the deadline has passed (checked now, whatever the count).
    pub fn out_of_time(&mut self) -> bool {
        if let Some(deadline) = self.deadline {
            self.expired = self.expired || thread_cpu() >= deadline;
        }
        self.expired
    }

    /// CPU seconds left before the deadline (`None`: no time limit).
    pub fn seconds_left(&self) -> Option<f64> {
        self.deadline.map(|deadline| if self.expired { 0.0 } else { (deadline - thread_cpu()).max(0.0) })
    }

    /// Whether the caller set a limit of positions (else only a pass's cap stops it).
    pub fn has_node_limit(&self) -> bool {
        self.limited
    }

    /// Whether the budget has a time limit.
    pub fn has_deadline(&self) -> bool {
        self.deadline.is_some()
    }

    /// The budget of one pass of a portfolio, after `searched` positions in all: the
    /// fraction `weight / weight_left` of the positions and of the time that are left
    /// (`weight_left` is this pass's weight plus the weights of the passes after it, so
    /// the last pass gets everything that is left). Where the caller set no node limit,
    /// the pass stops after `cap` positions of its own.
    ///
    /// The pass's budget counts positions on the same cumulative scale as this one.
    pub fn pass(&self, searched: u64, weight: u64, weight_left: u64, cap: u64) -> Budget {
        let weight_left = weight_left.max(1);
        let weight = weight.min(weight_left);
        let limit = if self.limited {
            let left = self.limit.saturating_sub(searched);
            let share = if weight == weight_left { left } else { ((left as u128 * weight as u128) / weight_left as u128) as u64 };
            searched.saturating_add(share.max(1))
        } else {
            searched.saturating_add(cap)
        };
        let deadline = self.deadline.map(|deadline| {
            if weight == weight_left {
                return deadline;
            }
            let now = thread_cpu();
            now + (deadline - now).max(0.0) * (weight as f64 / weight_left as f64)
        });
        Budget { limit, limited: true, deadline, next_clock_check: searched, expired: self.expired }
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

/// What a solve returns: the outcome, the winning line (empty unless won) in the
/// game's own move type, and the positions searched over every pass.
#[derive(Clone, Debug)]
pub struct Solution<M> {
    pub outcome: Outcome,
    pub line: Vec<M>,
    pub positions: u64,
}

impl<M> Solution<M> {
    pub fn won(line: Vec<M>, positions: u64) -> Self {
        Solution { outcome: Outcome::Won, line, positions }
    }

    pub fn lost(positions: u64) -> Self {
        Solution { outcome: Outcome::Lost, line: Vec::new(), positions }
    }

    pub fn unknown(positions: u64) -> Self {
        Solution { outcome: Outcome::Unknown, line: Vec::new(), positions }
    }
}

/// This thread's CPU time in seconds (what the benchmarks compare: a search and the
/// shortening of its line, each timed apart on the thread that ran it).
pub fn thread_cpu() -> f64 {
    let mut time = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `clock_gettime` writes the timespec it is given, nothing else.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) };
    time.tv_sec as f64 + time.tv_nsec as f64 * 1e-9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_shares_add_up_and_the_last_pass_takes_the_rest() {
        let budget = Budget::new(Some(1000), None);
        let first = budget.pass(0, 1, 4, u64::MAX);
        assert_eq!(first.limit, 250);
        // The first pass stopped early, at 100: the second gets a third of the 900 left.
        let second = budget.pass(100, 1, 3, u64::MAX);
        assert_eq!(second.limit, 400);
        let last = budget.pass(400, 2, 2, u64::MAX);
        assert_eq!(last.limit, 1000);
    }

    #[test]
    fn without_a_node_limit_each_pass_has_its_cap() {
        let budget = Budget::new(None, Some(10.0));
        let mut pass = budget.pass(500, 1, 2, 1000);
        assert!(!pass.exhausted(1499));
        assert!(pass.exhausted(1500));
    }

    #[test]
    fn a_time_budget_is_shared_between_passes() {
        let budget = Budget::new(None, Some(0.2));
        let started = thread_cpu();
        let mut first = budget.pass(0, 1, 2, u64::MAX);
        let mut searched = 0;
        while !first.exhausted(searched) {
            searched += 1;
        }
        // CPU time of this thread: the same on a busy machine (the checks come every
        // CLOCK_EVERY counts, a few microseconds here).
        let half = thread_cpu() - started;
        assert!((0.099..0.12).contains(&half), "{half}");
        let mut last = budget.pass(searched, 1, 1, u64::MAX);
        while !last.exhausted(searched) {
            searched += 1;
        }
        let all = thread_cpu() - started;
        assert!((0.199..0.22).contains(&all), "{all}");
    }

    #[test]
    fn a_time_budget_is_cpu_time_not_wall_time() {
        // A sleeping thread spends no CPU: a wall-clock budget would have run out.
        let mut budget = Budget::new(None, Some(0.05));
        std::thread::sleep(std::time::Duration::from_millis(120));
        assert!(!budget.out_of_time());
        assert!(budget.seconds_left().unwrap() > 0.04);
        let mut searched = 0;
        while !budget.exhausted(searched) {
            searched += 1;
        }
        assert!(budget.out_of_time());
    }

    #[test]
    fn an_expired_budget_stays_expired() {
        let mut budget = Budget::new(None, Some(0.0));
        assert!(budget.exhausted(0));
        assert!(budget.exhausted(1));
        let mut pass = budget.pass(1, 1, 2, 100);
        assert!(pass.exhausted(1));
    }
}
