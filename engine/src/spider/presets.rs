//! The Spider search's presets: the chaos weights of a pass and the passes of a preset.

/// The chaos weights and the shape of one pass of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub down: i32,
    pub hard: i32,
    pub soft: i32,
    pub stock: i32,
    pub empty: i32,
    pub rooted: i32,
    pub removed: i32,
    /// Added per move made: 0 is pure greedy; more makes the search wider.
    pub depth: i32,
    /// Positions this pass may make at most (0: its share of the budget only).
    pub cap: u32,
    /// New positions a level may make before the search moves on.
    pub quota: i32,
    /// Extra quota for each deal made (in quotas): deeper levels are larger.
    pub deeper: i32,
    /// Pseudo-random noise added to each position's score (0 to noise - 1): another
    /// pass with noise explores other positions among near equals.
    pub noise: i32,
    /// Which noise (0: the presets' own): a restart with another seed explores other
    /// positions among near equals (see [`super::RESTART`]).
    pub seed: u64,
    /// Black Widow only: search with Spider's moves (runs of one suit), which are all
    /// legal in Black Widow but make a different, narrower search.
    pub suited: bool,
    /// Keep lateral moves (see [`Game::search_moves`]) in this pass.
    pub lateral: bool,
    /// Split a one-suit link only when the target's one-suit run grows longer than the
    /// source's was (KPatience's rule; otherwise any card of the run's suit will do).
    pub grow: bool,
    /// A position met again by a shorter path takes that path's parent, so every line
    /// through it gets shorter for nothing (the presets that play hints). Without it a
    /// pass keeps only the keys of the positions it has seen (8 bytes a position, not
    /// 16) and never reads a parent again (Black Widow 1-300 with the verdict passes:
    /// 840-870 ns a position without, 930-990 ns with, one process, in turn).
    pub shorter_parents: bool,
    /// The end game (no stock left) searched as a level for each number of runs
    /// removed, each with its quota in turn (see `search.rs`, `pass`), instead of
    /// one level: a removed run weighs so much that one best-first queue sinks the end
    /// game's budget into the few lines that removed the most runs first, and never
    /// comes back to the positions that have removed fewer.
    pub endgame_by_runs: bool,
}

/// One pass of a portfolio: its weights and its share of the budget (a weight: see
/// [`Budget::pass`]; the last pass takes whatever the others left).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pass {
    pub weights: Weights,
    pub share: u64,
}

/// A named portfolio: passes run in turn from the same root, each proving deals the
/// others miss. Each pass gets its share of the caller's positions and of the time
/// left (so a time-only budget gives every pass its turn); with no node limit the
/// passes share `cap` positions by weight, so a search with no budget at all still
/// ends.
#[derive(Clone, Copy, Debug)]
pub struct Preset<'a> {
    pub name: &'a str,
    pub passes: &'a [Pass],
    pub cap: u64,
    /// The restarts of a time budget spent whole, taken in turn (see
    /// [`super::solve_bounded`]); empty: the preset's long passes.
    pub restarts: &'a [Weights],
}

/// Spider's base weights: a suit break blocks a run as much as a rank break.
pub const SPIDER_BASE: Weights = Weights {
    down: 6,
    hard: 4,
    soft: 4,
    stock: 3,
    empty: 8,
    rooted: 2,
    removed: 40,
    depth: 1,
    cap: 0,
    quota: 2000,
    deeper: 0,
    noise: 0,
    seed: 0,
    suited: false,
    lateral: false,
    grow: true,
    shorter_parents: true,
    endgame_by_runs: false,
};

/// Black Widow's base weights: a run of two suits still moves, so a suit break costs less.
pub const WIDOW_BASE: Weights = Weights {
    down: 6,
    hard: 4,
    soft: 2,
    stock: 3,
    empty: 8,
    rooted: 2,
    removed: 40,
    depth: 0,
    cap: 0,
    quota: 4000,
    deeper: 0,
    noise: 0,
    seed: 0,
    suited: false,
    lateral: false,
    grow: true,
    shorter_parents: true,
    endgame_by_runs: false,
};

/// The hints' passes: [`SPIDER_BASE`] with the end game searched by runs removed
/// ([`Weights::endgame_by_runs`]). Every flavour alone wins more of the hard deals with
/// it, and the hints' lines are shorter (figures at [`SPIDER`]). The verdicts (the
/// surveys) keep the search they ran.
const HINT_SPIDER: Weights = Weights { endgame_by_runs: true, ..SPIDER_BASE };

/// [`WIDOW_BASE`] for the hints, as [`HINT_SPIDER`].
const HINT_WIDOW: Weights = Weights { endgame_by_runs: true, ..WIDOW_BASE };

/// Bytes a position costs while its pass runs (its node, its queue entry, its seen slot
/// and the columns it adds), for a memory bound in megabytes: measured 268 MB at 2.67
/// million positions a pass (`spider_tune`, maximum resident set), with room for the
/// vectors' doubling.
pub const BYTES_PER_POSITION: u64 = 120;

/// The memory a search may hold by default (megabytes; `spider_solve(memory_mb=)`): a
/// pass stops at `memory_mb * 2^20 / BYTES_PER_POSITION` positions (8.9 million), the
/// next pass starts afresh.
pub const DEFAULT_MEMORY_MB: u64 = 1024;

/// Positions a whole portfolio may search when the caller sets no node limit (shared by
/// the passes by weight): about 4 s of search. A position costs about 80 bytes while
/// its pass runs (measured: 4 million positions in one pass, 315 MB, before the seen
/// positions kept their nodes: 8 bytes more a slot of the seen map, at most 16 bytes a
/// position), so a search with no budget at all stays under 700 MB.
pub const DEFAULT_CAP: u64 = 8_000_000;

/// The first pass of both presets: a cost of two per move (the others: one) and at most
/// this many positions. It wins most deals within them, with lines a fifth shorter than
/// the other passes' (the winning line comes from the search, not from shortening it),
/// and where it fails (about 30 deals in 100) it leaves the others nearly all their
/// budget. Fitted on deals 7001-7100 with 2 s a deal; moves median / p90 after the
/// shortcuts alone (no end-game research), positions searched for the 100 deals.
/// Spider-4: 173 / 209, 8.4 million (without this pass: 202 / 225, 7.2 million); 50,000
/// positions: 179 / 214, 9.5 million; 150,000: 171.5 / 202, 9.4 million; 200,000: 171 /
/// 196, 9.5 million; a cost of three per move: 182 / 214, 16 million; with noise 8 (as
/// Black Widow's): 174.5 / 201, 7.5 million, too near 175. Black Widow (Spider's moves
/// in this pass) with noise 8: 167.5 / 184, 7.4 million; without noise: 166 / 193, 8.4
/// million; without this pass: 185 / 199, 7.5 million; Black Widow's own moves at cost
/// two: 179.5 / 195, 14.5 million.
pub const SHORT_CAP: u32 = 100_000;

/// A preset's `cap` with the short pass in front: about [`DEFAULT_CAP`] for the others.
/// The short pass takes a tenth of the shares, so that its share of a hint's time (0.18 s
/// of 2) or of a node budget of 1.5 million covers its [`SHORT_CAP`].
const PRESET_CAP: u64 = DEFAULT_CAP / 9 * 10;

/// The least noise of a restart (see [`super::solve_bounded`]).
pub const RESTART_NOISE: i32 = 8;

/// Spider (one, two or four suits), for hints: the short pass ([`SHORT_CAP`]), then five
/// passes that each search differently, with shares of the budget (its time, for a hint)
/// fitted to the hard deals. The first keeps the preset before them (noise 8): where it
/// wins, the line is as short as before. The others draw wide noise among near-equal
/// positions (32 to 64) or cost nothing a move: on deals that defeat the first, another
/// search does better, and a wide noise best.
///
/// Fitted on the four-suit deals of 1-12,000 that the preset before needed more than
/// 1.2 million positions for, or the verdicts more than 2 million (271 deals), each
/// flavour searched alone up to 4 million positions (`examples/spider_tune.rs`; 20
/// flavours): noise 8, 16 and none alone win 71, 193 and 172 of them within a million
/// positions (they were chosen for being hard with noise 8), noise 32 (five seeds)
/// 206-213, 48 212, 64 207. Within 4 million positions
/// the preset before won 235 of the 271 (36 left, with 1-12,000: 0.30 %), these passes
/// 259 (12 left, 0.10 %), and with other seeds of their noise 253-256. Held out, deals
/// 60001-64000 searched from the start with 2 s of CPU each (`bench/spider.py spider-4
/// 60001-62000 --long 0`, then 62001-64000): 3,994 of 4,000 won (the passes before:
/// 3,986), lines median 173 and 174 moves as before (docs/spider-search.md).
///
/// Every pass searches the end game a level for each number of runs removed
/// ([`HINT_SPIDER`]): each flavour alone wins 11-23 more of the 271 within a million
/// positions (noise 32, four seeds: 217-232 against 206-213), and held out (68001-76000,
/// 2 s of CPU) as many deals are won (7,994 of 8,000; before, 7,995) with lines median
/// 171 moves against 173; at 8 s the deals a hint at 2 s missed on 60001-68000, 7 of 12
/// against 5.
pub const SPIDER: Preset<'static> = Preset {
    name: "spider",
    passes: &[
        Pass { weights: Weights { depth: 2, cap: SHORT_CAP, ..HINT_SPIDER }, share: 4 },
        Pass { weights: Weights { noise: 8, ..HINT_SPIDER }, share: 10 },
        Pass { weights: Weights { noise: 32, seed: 3, ..HINT_SPIDER }, share: 10 },
        Pass { weights: Weights { noise: 48, ..HINT_SPIDER }, share: 8 },
        Pass { weights: Weights { noise: 64, ..HINT_SPIDER }, share: 6 },
        Pass { weights: Weights { depth: 0, noise: 32, ..HINT_SPIDER }, share: 6 },
    ],
    cap: PRESET_CAP,
    restarts: &HINT_RESTARTS,
};

/// The long passes of the Spider hints before [`SPIDER`]'s (three with equal shares, two
/// with noise among near-equal positions), the verdicts' passes ([`SPIDER_VERDICTS`]).
/// Fitted on four-suit deals 1-1000 from each pass's positions to a win
/// (`examples/spider_tune.rs`, up to 2 million positions a pass): 99.0 % won with 700
/// thousand positions a deal, 99.2 % with 1 million, 99.3 % with 1.5 million.
pub const SPIDER_LONG: [Pass; 3] = [
    Pass { weights: Weights { noise: 8, ..SPIDER_BASE }, share: 3 },
    Pass { weights: Weights { noise: 16, ..SPIDER_BASE }, share: 3 },
    Pass { weights: SPIDER_BASE, share: 3 },
];

/// Black Widow, for hints: the short pass ([`SHORT_CAP`], Spider's moves, with noise) and
/// the next with Spider's narrower moves (all legal in Black Widow, and a Spider win is a
/// Black Widow win), as before, then three with Black Widow's own moves and wide noise,
/// fitted as [`SPIDER`]'s on the 276 deals of 1-16,000 that the preset before needed more
/// than 1.2 million positions for, or the verdicts more than 2 million (16 flavours, up to
/// 4 million positions each): Black Widow's moves at a cost of one a move with noise 64
/// win 243 of them within 1.2 million positions, with noise 8 (the passes before) 208,
/// Spider's moves with noise 8 82. Within 4
/// million positions the preset before won 243 of the 276, these passes 269. Held out,
/// 60001-64000 at 2 s of CPU: 3,995 of 4,000 won (before: 3,985), lines median 168 moves
/// as before. Every pass searches the end game by runs removed ([`HINT_WIDOW`]): held out
/// (68001-76000, 2 s of CPU) 7,999 of 8,000 won (before, 7,998), lines median 165 moves
/// against 168.
pub const BLACK_WIDOW: Preset<'static> = Preset {
    name: "black-widow",
    passes: &[
        Pass { weights: Weights { suited: true, depth: 2, noise: 8, cap: SHORT_CAP, ..HINT_SPIDER }, share: 4 },
        Pass { weights: Weights { suited: true, noise: 8, ..HINT_SPIDER }, share: 10 },
        Pass { weights: Weights { depth: 1, noise: 64, ..HINT_WIDOW }, share: 12 },
        Pass { weights: Weights { depth: 1, noise: 32, seed: 2, ..HINT_WIDOW }, share: 8 },
        Pass { weights: Weights { noise: 32, ..HINT_WIDOW }, share: 6 },
    ],
    cap: PRESET_CAP,
    restarts: &[],
};

/// The long passes of the Black Widow hints before [`BLACK_WIDOW`]'s, the verdicts'
/// passes ([`BLACK_WIDOW_VERDICTS`]): Spider's moves first, then two with Black Widow's
/// own. Fitted on deals 1-1000 as [`SPIDER_LONG`]: 99.6 % won with 700 thousand positions
/// a deal, 99.7 % with 1 million, 99.8 % with 1.5 million.
pub const BLACK_WIDOW_LONG: [Pass; 3] = [
    Pass { weights: Weights { suited: true, noise: 8, ..SPIDER_BASE }, share: 6 },
    Pass { weights: Weights { depth: 1, noise: 8, ..WIDOW_BASE }, share: 6 },
    Pass { weights: Weights { depth: 1, down: 10, ..WIDOW_BASE }, share: 3 },
];

/// Passes for a verdict alone: no shorter parents.
const fn for_verdicts<const N: usize>(passes: &[Pass; N]) -> [Pass; N] {
    let mut out = *passes;
    let mut i = 0;
    while i < N {
        out[i].weights.shorter_parents = false;
        i += 1;
    }
    out
}

const SPIDER_VERDICT_PASSES: [Pass; 3] = for_verdicts(&SPIDER_LONG);
const BLACK_WIDOW_VERDICT_PASSES: [Pass; 3] = for_verdicts(&BLACK_WIDOW_LONG);

/// [`SPIDER_LONG`] without shorter parents, for a verdict alone (a survey): the short
/// pass and shorter parents make a line short but a search bigger or slower. This is the
/// search before them, position for position, and the one the surveys of 1-32,000 ran: Spider 4 suits deals 1-10,000 at 2 million
/// positions a deal, 9,935 won in 875 million positions (with them: 9,933 in 1,150
/// million).
pub const SPIDER_VERDICTS: Preset<'static> =
    Preset { name: "spider-verdicts", passes: &SPIDER_VERDICT_PASSES, cap: DEFAULT_CAP, restarts: &SPIDER_RESTARTS };

/// [`BLACK_WIDOW_LONG`] for a verdict alone (see [`SPIDER_VERDICTS`]; Black Widow deals
/// 1-10,000 at 2 million positions: 9,966 won in 851 million positions, with the short
/// pass 9,957 in 1,041 million).
pub const BLACK_WIDOW_VERDICTS: Preset<'static> =
    Preset { name: "black-widow-verdicts", passes: &BLACK_WIDOW_VERDICT_PASSES, cap: DEFAULT_CAP, restarts: &[] };

/// The restarts of [`SPIDER`] and [`SPIDER_VERDICTS`] (see [`super::solve_bounded`]): one
/// flavour of the search each, so that a deal the preset's passes leave is searched
/// differently every time, not by the same weights with other noise. Each changes one or
/// two things that make another search: no cost per move (`depth: 0`), wide noise (32),
/// deeper stock levels searched wider (`deeper: 1`), face-down cards weighing more
/// (`down: 10`), shorter parents with a wider quota. Chosen from the four-suit deals of
/// 1-32,000 that the preset's passes and the old restarts (the long passes again, other
/// noise) left unknown at 60 s of CPU: searched alone up to 9 million positions, each
/// flavour won some of them (depth 0: 5525 and 6704 at 2.9 and 2.5 million positions;
/// `deeper: 1`: 170 at 2.9 million; `down: 10`: 19488 at 1.7 million, 170 at 7.3; noise 32:
/// 5525 at 5.4 million, 29243 at 8.7, with another seed 31424 at 7.7; depth 0 and noise 32:
/// 11833 at 8.7; shorter parents and quota 8,000: 19488 at 4.6, 170 at 6.1), where the
/// preset's own weights with noise 8 and three seeds won none. In this order: a flavour
/// that won two first, noise 32 with another seed after the other flavours of noise 32;
/// the flavours that won only what an earlier one wins last. Later rounds take other
/// seeds and wider quotas. Over 1-32,000 at 60 s of CPU a deal the restarts won 27 deals,
/// 21 of them not among those above (904 and 3670 in round two's noise 32, with the faster
/// engine of 7c29de2; docs/surveys/spider-4-1-32000-60s.md).
pub const SPIDER_RESTARTS: [Weights; 7] = [
    Weights { depth: 0, noise: 8, ..VERDICT_BASE },
    Weights { down: 10, noise: 8, ..VERDICT_BASE },
    Weights { noise: 32, ..VERDICT_BASE },
    Weights { depth: 0, noise: 32, ..VERDICT_BASE },
    Weights { noise: 32, seed: 2, ..VERDICT_BASE },
    Weights { deeper: 1, noise: 8, ..VERDICT_BASE },
    Weights { noise: 8, quota: 8000, shorter_parents: true, ..VERDICT_BASE },
];

/// [`SPIDER_RESTARTS`] for the hints (a hint's longer search in the background), with
/// the end game by runs removed as the hints' passes.
pub const HINT_RESTARTS: [Weights; 7] = {
    let mut out = SPIDER_RESTARTS;
    let mut i = 0;
    while i < out.len() {
        out[i].endgame_by_runs = true;
        i += 1;
    }
    out
};

/// [`SPIDER_BASE`] as the verdict passes search: no shorter parents.
const VERDICT_BASE: Weights = Weights { shorter_parents: false, ..SPIDER_BASE };

/// Every named preset.
pub const PRESETS: [&Preset<'static>; 4] = [&BLACK_WIDOW, &SPIDER, &BLACK_WIDOW_VERDICTS, &SPIDER_VERDICTS];

/// The preset the engine uses for a variant: for a short line (a hint), or for a verdict
/// alone (`short = false`: a survey).
pub fn preset(by_suit: bool, short: bool) -> &'static Preset<'static> {
    match (by_suit, short) {
        (true, true) => &SPIDER,
        (false, true) => &BLACK_WIDOW,
        (true, false) => &SPIDER_VERDICTS,
        (false, false) => &BLACK_WIDOW_VERDICTS,
    }
}
