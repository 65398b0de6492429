//! Times the Black Hole search on layouts read from a file, without Python in the loop,
//! and tunes its restart schedule from the command line.
//!
//! ```sh
//! .venv/bin/python bench/black_hole.py 1 1000 --dump /tmp/bh.txt
//! cd engine && cargo run --release --example bh_bench -- /tmp/bh.txt [--first-run 300] [--growth 9/8]
//! ```
//!
//! One deal a line: 17 piles of comma-separated card indices, separated by spaces. Prints
//! the verdicts, the CPU time of the search and the positions searched.

use _engine::blackhole::{Layout, EXACT};
use _engine::search::{Budget, Outcome};

use _engine::search::thread_cpu as cpu_seconds;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut preset = EXACT;
    let mut file = None;
    let mut show = false;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--first-run" => preset.first_run = iter.next().expect("a number").parse().expect("a number"),
            "--growth" => {
                let text = iter.next().expect("a fraction such as 9/8");
                let (a, b) = text.split_once('/').expect("a fraction such as 9/8");
                preset.growth = (a.parse().unwrap(), b.parse().unwrap());
            }
            "--show" => show = true,
            _ => file = Some(arg.clone()),
        }
    }
    let text = std::fs::read_to_string(file.expect("usage: bh_bench FILE [--first-run N] [--growth A/B] [--show]")).unwrap();
    let layouts: Vec<Layout> = text
        .lines()
        .map(|line| {
            let piles: Vec<Vec<u8>> = line.split(' ').map(|p| p.split(',').map(|c| c.parse().unwrap()).collect()).collect();
            Layout::new(&piles, 1).unwrap()
        })
        .collect();
    let (mut total, mut positions, mut worst, mut won) = (0.0, 0u64, (0.0, 0), 0);
    for (i, layout) in layouts.iter().enumerate() {
        let start = cpu_seconds();
        let solution = layout.solve_with(&Budget::unlimited(), &preset);
        let spent = cpu_seconds() - start;
        total += spent;
        positions += solution.positions;
        won += (solution.outcome == Outcome::Won) as u32;
        if spent > worst.0 {
            worst = (spent, i + 1);
        }
        if show {
            println!("{} {} {}", i + 1, solution.outcome.as_str(), solution.positions);
        }
    }
    println!(
        "won {won}/{} CPU {total:.3} s positions {positions} ({:.2} M/s) worst {:.1} ms (line {})",
        layouts.len(),
        positions as f64 / total / 1e6,
        worst.0 * 1000.0,
        worst.1
    );
}
