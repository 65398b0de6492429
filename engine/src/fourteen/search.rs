//! The exact search: depth first, each position searched once (a shared set of the
//! positions seen), the prunes of [`super::position`] in every position.

use super::position::{lower, Layout, PILES};
use crate::hashset::KeySet;
use crate::search::{Budget, Solution};

/// The search's one setting: the positions a pass may visit when the caller gives no
/// node limit (the verdict is then `unknown`): far above any deal's search (the survey
/// in `docs/surveys/fourteen-out.txt`); a pass that reached the cap would hold about 2 GB.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    pub name: &'static str,
    pub cap: u64,
}

pub const EXACT: Preset = Preset { name: "exact", cap: 100_000_000 };

enum Run {
    Won,
    Lost,
    OutOfBudget,
}

struct Search<'a> {
    layout: &'a Layout,
    seen: KeySet,
    positions: u64,
    budget: Budget,
    line: Vec<(u8, u8)>,
}

impl Layout {
    /// Solve from the layout as dealt (or as given).
    pub fn solve(&self, budget: &Budget, preset: &Preset) -> Solution<(u8, u8)> {
        let root = self.root();
        if root == 0 {
            return Solution::won(vec![], 1);
        }
        let mut search = Search {
            layout: self,
            seen: KeySet::with_capacity_log2(12),
            positions: 1,
            budget: budget.pass(0, 1, 1, preset.cap),
            line: Vec::with_capacity(26),
        };
        search.seen.insert(root);
        match search.dfs(root) {
            Run::Won => Solution::won(search.line, search.positions),
            Run::Lost => Solution::lost(search.positions),
            Run::OutOfBudget => Solution::unknown(search.positions),
        }
    }
}

impl Search<'_> {
    fn dfs(&mut self, state: u64) -> Run {
        if !self.layout.pairable(state) {
            return Run::Lost;
        }
        let mut moves = [(0u8, 0u8); PILES * PILES / 2];
        let n = self.layout.moves_into(state, &mut moves, true);
        for &(p, q) in &moves[..n] {
            let child = lower(lower(state, p as usize), q as usize);
            self.line.push((p, q));
            if child == 0 {
                return Run::Won;
            }
            if self.seen.insert(child) {
                self.positions += 1;
                if self.budget.exhausted(self.positions) {
                    return Run::OutOfBudget;
                }
                match self.dfs(child) {
                    Run::Lost => {}
                    other => return other,
                }
            }
            self.line.pop();
        }
        Run::Lost
    }
}
