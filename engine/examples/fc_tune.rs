//! The cost matrix behind the soft-thread presets: for every deal and every candidate
//! scan alone, the positions it needs to win (or `cap + 1` if it does not within
//! `cap`). `bench/fit_soft_threads.py` fits a prelude of quotas to such a matrix.
//!
//!     cargo run --release --example fc_tune -- DEALS SCANS CAP > matrix.csv
//!
//! DEALS as for `fc_bench` (`common/deal_file.rs`); SCANS has one scan a line,
//! `ORDER/SEED[/WEIGHTS]`.
use _engine::freecell::soft::ScanSpec;
use _engine::freecell::{soft_threads, Game};
use _engine::search::{Budget, Outcome};

#[path = "common/deal_file.rs"]
mod deal_file;

fn main() {
    let args: Vec<String> = std::env::args().collect();
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
            ScanSpec::new(parts[0], parts.get(1).map(|s| s.parse().unwrap()).unwrap_or(1), weights.unwrap_or([40, 10, 20, 4, 3, 1]))
                .unwrap()
        })
        .collect();
    let cap: u64 = args[3].parse().unwrap();
    println!("deal,{}", specs.iter().map(|s| format!("{}/{}", s.order, s.seed)).collect::<Vec<_>>().join(","));
    for deal in deal_file::read(&args[1]) {
        let game = Game::new(deal.rules);
        let root = game.position(&deal.columns, &deal.cells, &deal.foundations).unwrap();
        let mut row = vec![deal.number.to_string()];
        for spec in &specs {
            let soft = _engine::freecell::presets::SoftSpec { scans: vec![spec.clone()], exact: None, prelude: vec![], step: cap };
            let s = soft_threads(&game, &root, &mut Budget::new(Some(cap), None), 0, &soft);
            row.push(if s.outcome == Outcome::Won { s.positions.to_string() } else { (cap + 1).to_string() });
        }
        println!("{}", row.join(","));
    }
}
