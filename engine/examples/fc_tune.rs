//! The cost matrix behind the soft-thread presets: for every deal and every candidate
//! scan alone, the positions it needs to win (or `cap + 1` if it does not within
//! `cap`). `bench/fit_soft_threads.py` fits a prelude of quotas to such a matrix.
//!
//!     cargo run --release --example fc_tune -- DEALS SCANS CAP > matrix.csv
//!
//! DEALS as for `fc_bench`; SCANS has one scan a line, `ORDER/SEED[/WEIGHTS]`.
use _engine::freecell::soft::ScanSpec;
use _engine::freecell::{soft_threads, Build, EmptyColumn, Game, Rules, Runs, Wrap};
use _engine::search::{Budget, Outcome};

fn nums(s: &str) -> Vec<u8> {
    if s.is_empty() {
        Vec::new()
    } else {
        s.split(',').map(|c| c.parse().unwrap()).collect()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals = std::fs::read_to_string(&args[1]).unwrap();
    let specs: Vec<ScanSpec> = std::fs::read_to_string(&args[2])
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let parts: Vec<&str> = l.trim().split('/').collect();
            let weights = parts.get(2).map(|w| {
                let v: Vec<i32> = w.split(',').map(|x| x.parse().unwrap()).collect();
                [v[0], v[1], v[2], v[3], v[4], v[5]]
            });
            ScanSpec::new(parts[0], parts.get(1).map(|s| s.parse().unwrap()).unwrap_or(1), weights.unwrap_or([40, 10, 20, 4, 3, 1])).unwrap()
        })
        .collect();
    let cap: u64 = args[3].parse().unwrap();
    println!("deal,{}", specs.iter().map(|s| format!("{}/{}", s.order, s.seed)).collect::<Vec<_>>().join(","));
    for line in deals.lines() {
        let f: Vec<&str> = line.split(';').collect();
        let r = nums(f[1]);
        let wrap = [Wrap::None, Wrap::Restricted, Wrap::Full][r[3] as usize];
        let build = if r[2] != 0 { Build::Suit } else { Build::Alternate };
        let empty = if r[4] != 0 { EmptyColumn::BelowBase } else { EmptyColumn::Any };
        let runs = [Runs::Supermove, Runs::Unlimited, Runs::Cells][r[5] as usize];
        let rules = Rules::new(r[0] as usize, r[1] as usize, build, wrap, empty, runs, r[6] != 0, f[2].parse().unwrap()).unwrap();
        let game = Game::new(rules);
        let cols: Vec<Vec<u8>> = f[3].split('|').map(nums).collect();
        let root = game.position(&cols, &nums(f[4]), &nums(f[5])).unwrap();
        let mut row = vec![f[0].to_string()];
        for spec in &specs {
            let soft = _engine::freecell::presets::SoftSpec { scans: vec![spec.clone()], exact: None, prelude: vec![], step: cap };
            let s = soft_threads(&game, &root, &mut Budget::new(Some(cap), None), 0, &soft);
            row.push(if s.outcome == Outcome::Won { s.positions.to_string() } else { (cap + 1).to_string() });
        }
        println!("{}", row.join(","));
    }
}
