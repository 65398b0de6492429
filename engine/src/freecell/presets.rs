//! The search presets: each a portfolio of passes run in turn, written as data.
//!
//! Each pass is a kind and `key=value` settings (over several lines if need be; `;`
//! or a new kind ends a pass):
//!
//! ```text
//! soft  weight=1 cap=40000 step=300 prelude=0:400,1:300 scan=0[12346j]/1 scan=(0123468j)/2/40,6,12,4,3,1
//! best  weight=2 cap=2000000 weights=40,10,20,4,3,1
//! depth weight=1 cap=60000000 weights=40,6,12,4,3,1
//! ```
//!
//! - `soft`: soft threads over meta-moves (`soft.rs`): each `scan=ORDER/SEED[/WEIGHTS]`
//!   is one depth-first scan; `prelude=SCAN:QUOTA,...` gives them turns of QUOTA
//!   positions in that order first, then every scan gets `step` positions in turn.
//!   They find wins in few positions; they never prove a loss (a pass whose scans all
//!   run out of meta-moves ends at once, and the exact passes take over).
//!   `exact=SHARE[/WEIGHTS]` adds an exact best-first search over atomic moves to the
//!   turns after the prelude (SHARE times `step` a turn): it proves a loss when it runs
//!   out of positions, so lost deals need not wait for the scans to give up.
//! - `quick`: a greedy best-first search over atomic moves that plays every card the
//!   foundations accept (never proves a loss).
//! - `best`: an exact best-first search over every atomic move (wins, or proves the
//!   loss by running out of positions).
//! - `depth`: an exact depth-first search, children best first: it needs only the set
//!   of positions seen, so it finishes what the others could not hold.
//!
//! `weight` is the pass's share of a caller's budget (of the positions and of the time
//! left when the pass starts, `search::Budget::pass`); `cap` the positions it may use
//! when the caller sets no position limit (each pass is finite even with no budget).
//! The evaluation `weights` are: cards home, empty cells, empty columns, cards above
//! the next card a foundation wants, cards above a lower card, breaks in a column.

use super::soft::ScanSpec;

/// What one pass searches with.
#[derive(Clone, Debug)]
pub enum Kind {
    Soft(SoftSpec),
    Quick { weights: [i32; 6] },
    Best { weights: [i32; 6] },
    Depth { weights: [i32; 6] },
}

/// Soft threads: the meta-move scans, the turns they take first (scan, quota), and the
/// quota of each turn after that; and, if `exact` is set, an exact best-first search
/// that takes its turns with them after the prelude (`share` times their quota, with
/// its evaluation weights), so that a lost deal is proved lost while the scans look.
#[derive(Clone, Debug)]
pub struct SoftSpec {
    pub scans: Vec<ScanSpec>,
    pub exact: Option<(u64, [i32; 6])>,
    pub prelude: Vec<(usize, u64)>,
    pub step: u64,
}

#[derive(Clone, Debug)]
pub struct Pass {
    pub kind: Kind,
    pub weight: u64,
    pub cap: u64,
}

impl Pass {
    /// Whether running out of positions proves the loss.
    pub fn exact(&self) -> bool {
        matches!(self.kind, Kind::Best { .. } | Kind::Depth { .. } | Kind::Soft(SoftSpec { exact: Some(_), .. }))
    }
}

#[derive(Clone, Debug)]
pub struct Preset {
    pub name: String,
    pub passes: Vec<Pass>,
}

/// The evaluation the exact searches order by (and the quick pass).
const DEFAULT_WEIGHTS: [i32; 6] = [40, 10, 20, 4, 3, 1];

/// The soft threads of the `default` and `mixed` presets: nine scans and their prelude
/// (the positions each scan searches in turn). How they were fitted: `docs/tuning.md`.
macro_rules! fitted_soft_threads {
    () => {
        "step=300
         scan=0123476/1 scan=012(3467)/1/40,10,20,16,3,1 scan=0142367/1
         scan=01(23467j)/1/40,15,20,8,3,1 scan=01[24]367/3 scan=01[2346j]/1 scan=01[23467]/5
         scan=01(234678j)/1/40,10,20,16,3,1 scan=01(23467j)/1/40,10,30,8,3,1
         prelude=0:150,0:50,0:25,0:50,1:600,1:50,1:35,2:200,3:600,4:25,4:300,2:100,2:70,5:100,5:800,1:200,3:150,4:200,3:200,6:800,7:400,8:1200,7:3200"
    };
}

/// The soft threads of the `freecell` preset: eight scans and their prelude; the last
/// scan, the only one that moves part of a run to another parent (`8`), wins deals the
/// others do not (such as 1941). How they were fitted: `docs/tuning.md`.
macro_rules! freecell_soft_threads {
    () => {
        "step=300
         scan=01j234/1 scan=0142j367/1 scan=012(3467)/1/40,10,20,16,3,1 scan=01(2346j)/1/40,10,20,4,3,1
         scan=01[24]367/7 scan=0142367/1 scan=0j26[34]/6 scan=01(234678j)/1/40,10,20,16,3,1
         prelude=0:150,0:50,1:150,1:35,2:600,0:70,0:300,3:600,2:50,1:150,1:50,4:600,5:70,6:600,3:1600,7:1600"
    };
}

/// The exact searches that end the `default`, `mixed` and `atomic` presets.
macro_rules! exact_searches {
    () => {
        "best weight=2 cap=2000000
         depth weight=1 cap=60000000"
    };
}

/// The named presets: (name, what it is for and where it was fitted, its passes).
///
/// Each game names its preset (`ENGINE_PRESET` on the Python side): `default` where
/// nearly every deal is won, `mixed` where many are lost, `freecell` for FreeCell.
pub const PRESETS: &[(&str, &str, &str)] = &[
    (
        "default",
        "For games where nearly every deal is won (Eight Off, Relaxed and PySolFC Penguin; \
         FreeCell before its own preset): up to 60,000 positions of soft threads (fitted on \
         FreeCell 1001-3000), then exact best-first and depth-first searches. Held out, FreeCell 1-1000: every deal won, \
         see bench/freecell.py.",
        concat!("soft weight=1 cap=60000 ", fitted_soft_threads!(), " ", exact_searches!()),
    ),
    (
        "freecell",
        "For FreeCell: up to 60,000 positions of soft threads fitted on FreeCell 1001-5000, \
         then the exact searches. Held out, FreeCell 20001-21000: every deal won, see \
         bench/freecell.py.",
        concat!("soft weight=1 cap=60000 ", freecell_soft_threads!(), " ", exact_searches!()),
    ),
    (
        "mixed",
        "For games where many deals are lost (Baker's Game, Penguin and its variants with \
         fewer flippers): the same soft threads for 1,500 positions only (the cap that did best \
         on deals 2001-2300 of Penguin, Penguin 6 and 5 flippers and Baker's Game), then the \
         exact searches, which prove the losses.",
        concat!("soft weight=1 cap=1500 ", fitted_soft_threads!(), " ", exact_searches!()),
    ),
    (
        "atomic",
        "The searches over atomic moves alone (the engine before soft threads): a quick greedy \
         pass, exact best-first, exact depth-first.",
        concat!("quick weight=1 cap=3000 weights=40,6,12,4,3,1 ", exact_searches!()),
    ),
    ("exact", "Only the exhaustive depth-first search (slow; for checking verdicts).", "depth weight=1 cap=200000000"),
];

fn parse_weights(text: &str) -> Result<[i32; 6], String> {
    let values: Vec<i32> =
        text.split(',').map(|v| v.trim().parse::<i32>().map_err(|_| format!("bad weight {v:?}"))).collect::<Result<_, _>>()?;
    values.try_into().map_err(|_| format!("six evaluation weights, not {text:?}"))
}

fn parse_number(key: &str, value: &str) -> Result<u64, String> {
    value.parse::<u64>().map_err(|_| format!("{key}={value:?} is not a count"))
}

/// Read a preset's passes (the format above).
pub fn parse(name: &str, text: &str) -> Result<Preset, String> {
    // A word without `=` starts a pass (its kind); the settings follow it.
    let mut groups: Vec<Vec<&str>> = Vec::new();
    for word in text.split(|c: char| c.is_whitespace() || c == ';').filter(|w| !w.is_empty()) {
        match groups.last_mut() {
            Some(group) if word.contains('=') => group.push(word),
            _ if word.contains('=') => return Err(format!("{word:?} before any pass kind")),
            _ => groups.push(vec![word]),
        }
    }
    let mut passes = Vec::new();
    for group in groups {
        let mut words = group.into_iter();
        let Some(kind) = words.next() else { continue };
        let (mut weight, mut cap, mut step) = (1u64, 1_000_000u64, 300u64);
        let mut weights = DEFAULT_WEIGHTS;
        let mut scans = Vec::new();
        let mut prelude = Vec::new();
        let mut exact = None;
        for word in words {
            let (key, value) = word.split_once('=').ok_or_else(|| format!("expected key=value, not {word:?}"))?;
            match key {
                "weight" => weight = parse_number(key, value)?,
                "cap" => cap = parse_number(key, value)?,
                "step" => step = parse_number(key, value)?.max(1),
                "weights" => weights = parse_weights(value)?,
                "prelude" => {
                    for turn in value.split(',') {
                        let (scan, quota) = turn.split_once(':').ok_or_else(|| format!("prelude turns are SCAN:QUOTA, not {turn:?}"))?;
                        prelude.push((parse_number("scan", scan)? as usize, parse_number("quota", quota)?));
                    }
                }
                "exact" => {
                    let (share, w) = value.split_once('/').map(|(a, b)| (a, Some(b))).unwrap_or((value, None));
                    exact = Some((parse_number("exact", share)?.max(1), w.map(parse_weights).transpose()?.unwrap_or(DEFAULT_WEIGHTS)));
                }
                "scan" => {
                    let mut parts = value.split('/');
                    let order = parts.next().unwrap_or_default();
                    let seed = parts.next().map(|v| parse_number("seed", v)).transpose()?.unwrap_or(1);
                    let scan_weights = parts.next().map(parse_weights).transpose()?.unwrap_or(DEFAULT_WEIGHTS);
                    scans.push(ScanSpec::new(order, seed, scan_weights)?);
                }
                _ => return Err(format!("unknown setting {key:?}")),
            }
        }
        let kind = match kind {
            "soft" => {
                if scans.is_empty() {
                    return Err("a soft pass needs at least one scan=".into());
                }
                if let Some(&(bad, _)) = prelude.iter().find(|(i, _)| *i >= scans.len()) {
                    return Err(format!("the prelude names scan {bad}, but there are {}", scans.len()));
                }
                Kind::Soft(SoftSpec { scans, exact, prelude, step })
            }
            "quick" => Kind::Quick { weights },
            "best" => Kind::Best { weights },
            "depth" => Kind::Depth { weights },
            _ => return Err(format!("unknown pass kind {kind:?} (soft, quick, best, depth)")),
        };
        passes.push(Pass { kind, weight, cap });
    }
    if passes.is_empty() {
        return Err("a preset needs at least one pass".into());
    }
    Ok(Preset { name: name.to_string(), passes })
}

/// A named preset (parsed once).
pub fn named(name: &str) -> Result<&'static Preset, String> {
    static PARSED: std::sync::OnceLock<Vec<Result<Preset, String>>> = std::sync::OnceLock::new();
    let parsed = PARSED.get_or_init(|| PRESETS.iter().map(|(name, _, text)| parse(name, text)).collect());
    let index = PRESETS.iter().position(|(n, _, _)| *n == name).ok_or_else(|| {
        let names: Vec<&str> = PRESETS.iter().map(|(n, _, _)| *n).collect();
        format!("no search preset {name:?} (there are {})", names.join(", "))
    })?;
    parsed[index].as_ref().map_err(|error| format!("preset {name:?}: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_preset_parses_and_ends_with_an_exact_pass() {
        for (name, _, _) in PRESETS {
            let preset = named(name).unwrap();
            assert!(preset.passes.last().unwrap().exact(), "{name}");
            assert!(preset.passes.iter().all(|p| p.cap > 0 && p.weight > 0));
        }
    }

    #[test]
    fn passes_may_span_lines() {
        let preset = parse("x", "soft step=10\n  scan=01(23)/2/1,2,3,4,5,6 scan=0[12]\n  prelude=1:5,0:7\nbest cap=9; depth").unwrap();
        assert_eq!(preset.passes.len(), 3);
        let Kind::Soft(soft) = &preset.passes[0].kind else { panic!() };
        assert_eq!((soft.scans.len(), soft.step, soft.prelude.clone()), (2, 10, vec![(1, 5), (0, 7)]));
        assert_eq!((soft.scans[0].seed, soft.scans[0].weights), (2, [1, 2, 3, 4, 5, 6]));
        assert_eq!(preset.passes[1].cap, 9);
        let default = named("default").unwrap();
        assert!(matches!(&default.passes[0].kind, Kind::Soft(soft) if soft.scans.len() == 9));
    }

    #[test]
    fn bad_presets_say_why() {
        assert!(parse("x", "soft cap=10").unwrap_err().contains("scan"));
        assert!(parse("x", "soft scan=0[12/1").unwrap_err().contains("unclosed"));
        assert!(parse("x", "soft scan=0z").unwrap_err().contains("unknown meta-move"));
        assert!(parse("x", "best weights=1,2").unwrap_err().contains("six"));
        assert!(parse("x", "soft scan=0 prelude=3:10").unwrap_err().contains("scan 3"));
        assert!(named("nope").unwrap_err().contains("default"));
        assert!(parse("x", "cap=3 best").unwrap_err().contains("before any pass"));
    }
}
