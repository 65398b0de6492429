//! The free-cell search and the shortening of its lines, timed apart, without Python in
//! the loop: the tuning tool for `src/shorten/` and `src/freecell/shorten.rs`.
//!
//!     cargo run --release --example fc_lines -- DEALS [PRESET] [--depth D] [--tries N] [--repeat R] [--cold]
//!
//! DEALS as for `fc_bench` (`bench/freecell.py --dump FILE` writes one). For each deal
//! the search runs once; its line is then shortened `--repeat` times (default 5) and
//! the fastest round kept. Prints CPU time of this thread for both and the lines'
//! lengths (the engine's moves, the rules' automatic ones left out).
use _engine::freecell::{presets, shorten, Solver};
use _engine::search::{Budget, Outcome};

#[path = "common/deal_file.rs"]
mod deal_file;

use _engine::search::thread_cpu as cpu;

fn spread(mut v: Vec<usize>) -> String {
    if v.is_empty() {
        return "-".into();
    }
    v.sort();
    let n = v.len();
    let median = if n % 2 == 1 { v[n / 2] as f64 } else { (v[n / 2 - 1] + v[n / 2]) as f64 / 2.0 };
    let mean = v.iter().sum::<usize>() as f64 / n as f64;
    format!("median {median} / p90 {} / max {} (mean {mean:.2})", v[(n * 9).div_ceil(10) - 1], v[n - 1])
}

/// Every cache line of `sweep` written, pushing whatever the caches held out.
fn chill(sweep: &mut [u8]) {
    for k in (0..sweep.len()).step_by(64) {
        sweep[k] = sweep[k].wrapping_add(1);
    }
    std::hint::black_box(&sweep);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: fc_lines DEALS [PRESET] [--depth D] [--tries N] [--repeat R]");
    let (mut preset, mut depth, mut tries, mut repeat) = ("default".to_string(), 2u8, None, 5usize);
    // `--cold`: the caches emptied before each search and each shortening, as a program
    // doing other work between questions has them (the figures of `bench/lines.py`).
    let mut cold = false;
    let mut sweep = vec![0u8; 32 << 20];
    let mut i = 2;
    while i < args.len() {
        match args[i].as_str() {
            "--depth" => (depth, i) = (args[i + 1].parse().unwrap(), i + 1),
            "--tries" => (tries, i) = (Some(args[i + 1].parse().unwrap()), i + 1),
            "--repeat" => (repeat, i) = (args[i + 1].parse().unwrap(), i + 1),
            "--cold" => cold = true,
            name => preset = name.to_string(),
        }
        i += 1;
    }
    let preset = presets::named(&preset).unwrap_or_else(|e| panic!("{e}"));
    let (mut search, mut short) = (0.0, 0.0);
    let (mut before, mut after) = (Vec::new(), Vec::new());
    let mut longest = (0, 0);
    let mut tried = 0u64;
    for deal in deal_file::read(path) {
        let solver = Solver::new(deal.rules, std::borrow::Cow::Borrowed(preset));
        let root = solver.game.position(&deal.columns, &deal.cells, &deal.foundations).unwrap();
        if cold {
            chill(&mut sweep);
        }
        let t0 = cpu();
        let s = solver.solve(&root, &mut Budget::unlimited());
        search += cpu() - t0;
        if s.outcome != Outcome::Won {
            continue;
        }
        let limits = shorten::limits(None, depth, tries);
        let mut best = f64::INFINITY;
        let mut line = Vec::new();
        for _ in 0..repeat {
            if cold {
                chill(&mut sweep);
            }
            let t0 = cpu();
            let (l, stats) = shorten::shorten_own(&solver.game, &root, &s.line, &limits);
            line = l;
            tried += stats.tries;
            best = best.min(cpu() - t0);
        }
        short += best;
        before.push(s.line.iter().filter(|m| !solver.game.automatic(m)).count());
        after.push(line.len());
        longest = longest.max((line.len(), deal.number));
    }
    println!("search {search:.4} s, shortening {short:.4} s ({:.3} of the search), depth {depth}", short / search);
    println!("  positions made for shortcuts: {:.0} a deal", tried as f64 / repeat as f64 / after.len().max(1) as f64);
    println!("  search's lines {}", spread(before));
    println!("  shortened      {}   (the longest: deal {})", spread(after), longest.1);
}
