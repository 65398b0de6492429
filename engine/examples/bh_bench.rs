//! Times the Black Hole search on layouts read from a file (one deal a line: 17 piles of
//! comma-separated card indices, separated by spaces), without Python in the loop.
use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("usage: bh_bench FILE");
    let text = std::fs::read_to_string(path).unwrap();
    let mut total = 0.0;
    let mut positions = 0u64;
    let mut worst = (0.0, 0);
    let mut won = 0;
    for (i, line) in text.lines().enumerate() {
        let piles: Vec<Vec<u8>> = line.split(' ').map(|p| p.split(',').map(|c| c.parse().unwrap()).collect()).collect();
        let layout = _engine::blackhole::Layout::new(&piles, 1).unwrap();
        let start = Instant::now();
        let s = layout.solve(&mut _engine::search::Budget::unlimited());
        let t = start.elapsed().as_secs_f64();
        total += t;
        positions += s.positions;
        if s.outcome == _engine::search::Outcome::Won { won += 1; }
        if t > worst.0 { worst = (t, i + 1); }
    }
    println!("won {won} total {total:.3} s positions {positions} ({:.2} M/s) worst {:.1} ms deal {}", positions as f64 / total / 1e6, worst.0 * 1000.0, worst.1);
}
