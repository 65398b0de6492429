//! Times the free-cell search on deals read from a file, without Python in the loop:
//! the tuning tool for the presets in `src/freecell/presets.rs`.
//!
//!     cargo run --release --example fc_bench -- DEALS [PRESET | --passes TEXT] [--top N]
//!
//! DEALS has one deal a line (the format is in `common/deal_file.rs`;
//! `bench/freecell.py --dump FILE` writes one). PRESET is a named preset (`default`);
//! `--passes` takes a preset's passes as text (the format of `presets.rs`).
//! Prints the slowest deals and the totals, in CPU time of this thread.
use _engine::freecell::{presets, Solver};
use _engine::search::{Budget, Outcome};

#[path = "common/deal_file.rs"]
mod deal_file;

use _engine::search::thread_cpu as cpu;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: fc_bench DEALS [PRESET | --passes TEXT] [--top N]");
    let mut preset = presets::named("default").unwrap().clone();
    let mut top = 10;
    let mut i = 2;
    while i < args.len() {
        match args[i].as_str() {
            "--passes" => {
                preset = presets::parse("command line", &args[i + 1]).unwrap_or_else(|e| panic!("{e}"));
                i += 1;
            }
            "--top" => {
                top = args[i + 1].parse().unwrap();
                i += 1;
            }
            name => preset = presets::named(name).unwrap_or_else(|e| panic!("{e}")).clone(),
        }
        i += 1;
    }
    let mut total = 0.0;
    let mut positions = 0u64;
    let (mut won, mut lost) = (0, 0);
    let mut rows = Vec::new();
    for deal in deal_file::read(path) {
        let n = deal.number;
        let solver = Solver::new(deal.rules, std::borrow::Cow::Owned(preset.clone()));
        let root = solver.game.position(&deal.columns, &deal.cells, &deal.foundations).unwrap();
        let t0 = cpu();
        let s = solver.solve(&root, &mut Budget::unlimited());
        let t = cpu() - t0;
        total += t;
        positions += s.positions;
        match s.outcome {
            Outcome::Won => won += 1,
            Outcome::Lost => lost += 1,
            Outcome::Unknown => {}
        }
        rows.push((t, n, s.positions, s.outcome.as_str(), s.line.len()));
    }
    let mut by_time = rows.clone();
    by_time.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
    for r in by_time.iter().take(top) {
        println!("  deal {} {:.1} ms {} positions {} ({} moves)", r.1, r.0 * 1000.0, r.2, r.3, r.4);
    }
    let mut pos: Vec<u64> = rows.iter().map(|r| r.2).collect();
    pos.sort();
    let moves: usize = rows.iter().map(|r| r.4).sum();
    println!(
        "won {won} lost {lost} of {} in {total:.3} s CPU; positions {positions} (median {} p90 {} max {}); {:.0} moves a win",
        rows.len(),
        pos[pos.len() / 2],
        pos[pos.len() * 9 / 10],
        pos[pos.len() - 1],
        moves as f64 / won.max(1) as f64
    );
}
