//! Tunes the Spider-family search without Python: runs a portfolio of passes, given on
//! the command line or by name, over deals read from a file, and prints what each pass
//! proved and the CPU time it took.
//!
//! ```sh
//! .venv/bin/python bench/spider.py spider-4 1-200 --dump /tmp/s4.txt
//! cd engine && cargo run --release --example spider_tune -- /tmp/s4.txt --preset spider --nodes 1500000
//! cargo run --release --example spider_tune -- /tmp/s4.txt --suit \
//!     --pass base=spider,share=35 --pass base=spider,depth=2,share=35 --pass base=spider,depth=0,share=30
//! ```
//!
//! A deal file has one deal a line: `by_suit;stock;col;col;...` with cards as indices,
//! a column as `down cards/up cards` (comma-separated). A pass is `key=value` pairs over
//! a base (`base=spider` or `base=widow`): the fields of `Weights` and `share`.

use std::time::Instant;

use _engine::search::{Budget, Outcome};
use _engine::spider::{self, Pass, Preset};

fn cpu_seconds() -> f64 {
    let mut time = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) };
    time.tv_sec as f64 + time.tv_nsec as f64 * 1e-9
}

fn cards(text: &str) -> Vec<u8> {
    text.split(',').filter(|s| !s.is_empty()).map(|c| c.parse().expect("a card index")).collect()
}

struct Deal {
    number: u64,
    by_suit: bool,
    stock: Vec<u8>,
    columns: Vec<(Vec<u8>, Vec<u8>)>,
}

fn parse_deal(line: &str) -> Deal {
    let parts: Vec<&str> = line.trim().split(';').collect();
    let number = parts[0].parse().expect("a deal number");
    let by_suit = parts[1] == "1";
    let stock = cards(parts[2]);
    let columns = parts[3..]
        .iter()
        .map(|col| {
            let (down, up) = col.split_once('/').expect("down/up");
            (cards(down), cards(up))
        })
        .collect();
    Deal { number, by_suit, stock, columns }
}

fn parse_pass(spec: &str) -> Pass {
    let mut weights = spider::SPIDER_BASE;
    let mut share = 1;
    for item in spec.split(',') {
        let (key, value) = item.split_once('=').unwrap_or_else(|| panic!("{item}: key=value"));
        let number = || value.parse::<i32>().unwrap_or_else(|_| panic!("{item}: a number"));
        let flag = || value == "1" || value == "true";
        match key {
            "base" => {
                weights = match value {
                    "spider" => spider::SPIDER_BASE,
                    "widow" => spider::WIDOW_BASE,
                    _ => panic!("base is spider or widow"),
                }
            }
            "down" => weights.down = number(),
            "hard" => weights.hard = number(),
            "soft" => weights.soft = number(),
            "stock" => weights.stock = number(),
            "empty" => weights.empty = number(),
            "rooted" => weights.rooted = number(),
            "removed" => weights.removed = number(),
            "depth" => weights.depth = number(),
            "quota" => weights.quota = number(),
            "deeper" => weights.deeper = number(),
            "noise" => weights.noise = number(),
            "seed" => weights.seed = number() as u64,
            "cap" => weights.cap = number() as u32,
            "suited" => weights.suited = flag(),
            "lateral" => weights.lateral = flag(),
            "grow" => weights.grow = flag(),
            "parents" => weights.shorter_parents = flag(),
            "endgame" => weights.endgame_by_runs = flag(),
            "share" => share = number() as u64,
            _ => panic!("unknown pass field {key}"),
        }
    }
    Pass { weights, share }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut file = None;
    let (mut nodes, mut seconds, mut preset_name, mut show) = (None, None, None, false);
    let mut cap = spider::DEFAULT_CAP;
    let mut memory = spider::DEFAULT_MEMORY_MB;
    let mut passes: Vec<Pass> = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let mut value = || iter.next().expect("a value").clone();
        match arg.as_str() {
            "--nodes" => nodes = Some(value().parse::<u64>().unwrap()),
            "--seconds" => seconds = Some(value().parse::<f64>().unwrap()),
            "--cap" => cap = value().parse().unwrap(),
            "--memory" => memory = value().parse().unwrap(),
            "--preset" => preset_name = Some(value()),
            "--pass" => passes.push(parse_pass(&value())),
            "--show" => show = true,
            _ => file = Some(arg.clone()),
        }
    }
    let text = std::fs::read_to_string(file.expect("usage: spider_tune DEALS [--preset NAME | --pass SPEC...] [--nodes N] [--seconds S]"))
        .unwrap();
    let deals: Vec<Deal> = text.lines().filter(|l| !l.trim().is_empty()).map(parse_deal).collect();
    let custom = Preset { name: "command line", passes: &passes, cap, restarts: &[] };
    let chosen = |by_suit: bool| -> Preset {
        match &preset_name {
            Some(name) => **spider::PRESETS.iter().find(|p| p.name == name).expect("no such preset"),
            None if passes.is_empty() => *spider::preset(by_suit, true),
            None => custom,
        }
    };
    // One more for the restarts of a time budget.
    let width = deals.iter().map(|d| chosen(d.by_suit).passes.len()).max().unwrap_or(0) + 1;
    let mut per_pass_won = vec![0u32; width];
    let mut per_pass_positions = vec![0u64; width];
    let (mut won, mut positions, mut cpu_total, mut worst) = (0, 0u64, 0.0, (0.0, 0u64));
    let mut cpu_won: Vec<f64> = Vec::new();
    let mut unproved = Vec::new();
    let started = Instant::now();
    for deal in &deals {
        let preset = chosen(deal.by_suit);
        let cpu = cpu_seconds();
        let mut budget = Budget::new(nodes, seconds);
        let mut winner = None;
        let solution = spider::solve_bounded(
            &deal.columns,
            &deal.stock,
            0,
            deal.by_suit,
            &mut budget,
            &preset,
            memory,
            &mut |index, outcome, count| {
                if show {
                    println!("{:6}   pass {index} {} {count} positions", deal.number, outcome.as_str());
                }
                per_pass_positions[index] += count;
                if outcome == Outcome::Won {
                    winner = Some(index);
                }
            },
        )
        .expect("a valid deal");
        let spent = cpu_seconds() - cpu;
        cpu_total += spent;
        positions += solution.positions;
        if spent > worst.0 {
            worst = (spent, deal.number);
        }
        if let Some(index) = winner {
            per_pass_won[index] += 1;
        }
        if solution.outcome == Outcome::Won {
            won += 1;
            cpu_won.push(spent);
        } else {
            unproved.push(deal.number);
        }
        if show {
            println!(
                "{:6} {:8} pass {:?} {:>10} positions {:.3} s CPU",
                deal.number,
                solution.outcome.as_str(),
                winner,
                solution.positions,
                spent
            );
        }
    }
    cpu_won.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let median = cpu_won.get(cpu_won.len() / 2).copied().unwrap_or(0.0);
    println!(
        "won {won}/{} ({:.1} %)  CPU {cpu_total:.1} s (wall {:.1} s)  positions {positions} ({:.2} M/s CPU)  median won {median:.3} s  worst {:.2} s (deal {})",
        deals.len(),
        100.0 * won as f64 / deals.len().max(1) as f64,
        started.elapsed().as_secs_f64(),
        positions as f64 / cpu_total / 1e6,
        worst.0,
        worst.1
    );
    println!("  won by pass {per_pass_won:?}  positions by pass {per_pass_positions:?}");
    println!("  unproved {unproved:?}");
}
