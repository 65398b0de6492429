//! The deal files the free-cell examples read: one deal a line,
//! `number;rules;base;columns;cells;foundations`, where rules is
//! `columns,cells,build,wrap,empty,runs,beak` (build 1 = suit; wrap 0 none, 1 restricted,
//! 2 full; empty 1 = below the base only; runs 0 supermove, 1 unlimited, 2 cells only;
//! beak 1 = moved by the rules), columns are `|`-separated lists of comma-separated card
//! bytes (deepest first), cells 255 when empty, foundations four counts.
use _engine::freecell::{Build, EmptyColumn, Rules, Runs, Wrap};

pub struct Deal {
    pub number: u64,
    pub rules: Rules,
    pub columns: Vec<Vec<u8>>,
    pub cells: Vec<u8>,
    pub foundations: Vec<u8>,
}

fn bytes(text: &str) -> Vec<u8> {
    if text.is_empty() {
        Vec::new()
    } else {
        text.split(',').map(|c| c.parse().expect("a card byte")).collect()
    }
}

pub fn read(path: &str) -> Vec<Deal> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split(';').collect();
            let r = bytes(f[1]);
            let build = if r[2] != 0 { Build::Suit } else { Build::Alternate };
            let wrap = [Wrap::None, Wrap::Restricted, Wrap::Full][r[3] as usize];
            let empty = if r[4] != 0 { EmptyColumn::BelowBase } else { EmptyColumn::Any };
            let runs = [Runs::Supermove, Runs::Unlimited, Runs::Cells][r[5] as usize];
            let rules = Rules::new(r[0] as usize, r[1] as usize, build, wrap, empty, runs, r[6] != 0, f[2].parse().expect("a base rank"))
                .expect("valid rules");
            Deal {
                number: f[0].parse().expect("a deal number"),
                rules,
                columns: f[3].split('|').map(bytes).collect(),
                cells: bytes(f[4]),
                foundations: bytes(f[5]),
            }
        })
        .collect()
}
