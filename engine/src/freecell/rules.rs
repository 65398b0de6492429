//! The rules of one free-cell preset, and the tables the searches read.
//!
//! A card is a byte, `suit * 13 + rank - 1` with suits in the order C D H S (the
//! Python `Card.index`); `NO_CARD` marks an empty place.

pub const MAX_COLUMNS: usize = 8;
pub const MAX_CELLS: usize = 8;
pub const NO_CARD: u8 = 255;

/// How columns build down: in suit, or in alternate colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    Suit,
    Alternate,
}

/// Whether ranks wrap from the King to the Ace in the tableau.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrap {
    /// A King never goes on an Ace.
    None,
    /// Ranks wrap from the base rank, but a base card never goes onto the tableau.
    Restricted,
    /// K on A everywhere, base cards included.
    Full,
}

/// What an empty column takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmptyColumn {
    /// Any card or run.
    Any,
    /// Only a card one rank below the base (a King when the base is the Ace), alone or
    /// at the bottom of a run.
    BelowBase,
}

/// The longest run that moves at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runs {
    /// (empty cells + 1) x 2^(empty columns, not counting the destination).
    Supermove,
    /// Empty cells + 1 (Eight Off as PySolFC plays it).
    Cells,
    /// Any run.
    Unlimited,
}

/// One preset's rules, with the tables the search reads.
#[derive(Clone, Debug)]
pub struct Rules {
    pub columns: usize,
    pub cells: usize,
    pub build: Build,
    pub wrap: Wrap,
    pub empty_column: EmptyColumn,
    pub runs: Runs,
    /// The rules move the beak (a base card) to its empty foundation by themselves.
    pub auto_beak: bool,
    /// The foundations' base rank, 1..=13.
    pub base: u8,
    /// Bit `target` of `on[card]`: may `card` go onto `target` in the tableau?
    pub on: [u64; 52],
    /// The cards `card` may go onto (at most two), `NO_CARD` for none.
    pub parents: [[u8; 2]; 52],
    /// May the card fill an empty column (alone or at the bottom of a run)?
    pub fills: [bool; 52],
    /// The card's rank counted from the base (0 for the base rank, 12 for the last).
    pub shifted: [u8; 52],
}

impl Rules {
    /// The most cards a run built on a column can add to it: 13 (one of each rank), all
    /// 52 where alternate colours wrap round from King to Ace (no preset does).
    pub fn longest_run(&self) -> usize {
        if self.build == Build::Alternate && self.wrap == Wrap::Full {
            52
        } else {
            13
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub fn new(
        columns: usize,
        cells: usize,
        build: Build,
        wrap: Wrap,
        empty_column: EmptyColumn,
        runs: Runs,
        auto_beak: bool,
        base: u8,
    ) -> Result<Rules, String> {
        if !(1..=MAX_COLUMNS).contains(&columns) {
            return Err(format!("1 to {MAX_COLUMNS} columns, not {columns}"));
        }
        if cells > MAX_CELLS {
            return Err(format!("at most {MAX_CELLS} free cells, not {cells}"));
        }
        if !(1..=13).contains(&base) {
            return Err(format!("the base rank is 1 to 13, not {base}"));
        }
        let mut shifted = [0u8; 52];
        for (card, value) in shifted.iter_mut().enumerate() {
            let rank = (card % 13) as u8 + 1;
            *value = (rank + 13 - base) % 13;
        }
        let mut on = [0u64; 52];
        let mut parents = [[NO_CARD; 2]; 52];
        for card in 0..52usize {
            let mut found = 0;
            for target in 0..52usize {
                let (cs, ts) = (card / 13, target / 13);
                let colour_ok = match build {
                    Build::Suit => cs == ts,
                    Build::Alternate => (cs == 1 || cs == 2) != (ts == 1 || ts == 2),
                };
                let rank_ok = match wrap {
                    Wrap::Full => (card % 13 + 1) % 13 == target % 13,
                    Wrap::Restricted => shifted[card] != 0 && shifted[card] + 1 == shifted[target],
                    Wrap::None => shifted[card] + 1 == shifted[target],
                };
                if colour_ok && rank_ok {
                    on[card] |= 1 << target;
                    parents[card][found] = target as u8;
                    found += 1;
                }
            }
        }
        let mut fills = [true; 52];
        for card in 0..52 {
            if wrap == Wrap::Restricted && shifted[card] == 0 {
                fills[card] = false;
            }
            if empty_column == EmptyColumn::BelowBase && shifted[card] != 12 {
                fills[card] = false;
            }
        }
        Ok(Rules { columns, cells, build, wrap, empty_column, runs, auto_beak, base, on, parents, fills, shifted })
    }

    /// May `card` go onto `target` in the tableau?
    #[inline]
    pub fn builds_on(&self, card: u8, target: u8) -> bool {
        (self.on[card as usize] >> target) & 1 != 0
    }

    /// The longest run that may move onto a card (`to_empty`: into an empty column),
    /// with `free` empty cells and `empty` empty columns (the destination included).
    #[inline]
    pub fn run_limit(&self, free: usize, empty: usize, to_empty: bool) -> usize {
        match self.runs {
            Runs::Unlimited => 64,
            Runs::Cells => free + 1,
            Runs::Supermove => {
                let others = if to_empty { empty.saturating_sub(1) } else { empty };
                (free + 1) << others
            }
        }
    }

    /// Do the rules let any card park alone in an empty column?
    #[inline]
    pub fn any_card_fills(&self) -> bool {
        self.empty_column == EmptyColumn::Any
    }
}
