//! The search presets: each a portfolio of passes run in turn, written as data.
//!
//! One pass a line, a kind and `key=value` settings:
//!
//! ```text
//! soft  weight=1 cap=40000 step=300 prelude=0:400,1:300 scan=0[12346j]/1 scan=(0123468j)/2/40,6,12,4,3,1
//! best  weight=2 cap=2000000 weights=40,10,20,4,3,1
//! depth weight=1 cap=60000000 weights=40,6,12,4,3,1
//! ```
//!
//! - `soft`: soft threads over meta-moves (`soft.rs`): each `scan=ORDER/SEED[/WEIGHTS]`
//!   is one depth-first scan; `exact=SHARE[/WEIGHTS]` adds an exact best-first search
//!   over atomic moves that takes turns with them (SHARE times as long), which proves
//!   a loss when it runs out; `prelude=SCAN:QUOTA,...` gives them turns of QUOTA
//!   positions in that order first (the exact search is numbered after the scans),
//!   then every one gets `step` positions in turn. The scans find wins in few
//!   positions; they never prove a loss.
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

use super::soft::{parse_order, ScanSpec};

/// What one pass searches with.
#[derive(Clone, Debug)]
pub enum Kind {
    Soft(SoftSpec),
    Quick { weights: [i32; 6] },
    Best { weights: [i32; 6] },
    Depth { weights: [i32; 6] },
}

/// Soft threads: the meta-move scans, and an exact best-first search that takes its
/// turns with them (`share` times their turn), so that a lost deal is proved lost
/// while the scans look for a win. In the prelude the exact search is the scan
/// numbered after the last meta-move scan.
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

/// The named presets: (name, what it is for and where it was fitted, its passes).
///
/// `default` is what `winnable.solve` uses for every game of the family.
pub const PRESETS: &[(&str, &str, &str)] = &[
    (
        "default",
        "Fitted on FreeCell deals 2001-3000 and PySolFC Penguin 501-1000; held out: FreeCell 1-1000, Penguin 1-500 (see bench/freecell.py).",
        "soft weight=1 cap=60000 step=300 prelude=0:400,1:400,2:400 scan=0[12346789j]/1 scan=01(23468j79)/2 scan=[0123468j79]/3
         best weight=2 cap=2000000
         depth weight=1 cap=60000000",
    ),
    (
        "atomic",
        "The searches over atomic moves alone (the engine before soft threads): a quick greedy pass, exact best-first, exact depth-first.",
        "quick weight=1 cap=3000 weights=40,6,12,4,3,1
         best weight=2 cap=2000000
         depth weight=1 cap=60000000",
    ),
    ("exact", "Only the exhaustive depth-first search (slow; for checking verdicts).", "depth weight=1 cap=200000000"),
];

fn parse_weights(text: &str) -> Result<[i32; 6], String> {
    let values: Vec<i32> = text.split(',').map(|v| v.trim().parse::<i32>().map_err(|_| format!("bad weight {v:?}"))).collect::<Result<_, _>>()?;
    values.try_into().map_err(|_| format!("six evaluation weights, not {text:?}"))
}

fn parse_number(key: &str, value: &str) -> Result<u64, String> {
    value.parse::<u64>().map_err(|_| format!("{key}={value:?} is not a count"))
}

/// Read a preset's passes (the format above).
pub fn parse(name: &str, text: &str) -> Result<Preset, String> {
    let mut passes = Vec::new();
    for line in text.lines().flat_map(|l| l.split(';')) {
        let mut words = line.split_whitespace();
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
                    parse_order(order)?;
                    let seed = parts.next().map(|v| parse_number("seed", v)).transpose()?.unwrap_or(1);
                    let scan_weights = parts.next().map(parse_weights).transpose()?.unwrap_or(DEFAULT_WEIGHTS);
                    scans.push(ScanSpec { order: order.to_string(), seed, weights: scan_weights });
                }
                _ => return Err(format!("unknown setting {key:?}")),
            }
        }
        let kind = match kind {
            "soft" => {
                if scans.is_empty() {
                    return Err("a soft pass needs at least one scan=".into());
                }
                let members = scans.len() + exact.is_some() as usize;
                if let Some(&(bad, _)) = prelude.iter().find(|(i, _)| *i >= members) {
                    return Err(format!("the prelude names scan {bad}, but there are {members}"));
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
    fn bad_presets_say_why() {
        assert!(parse("x", "soft cap=10").unwrap_err().contains("scan"));
        assert!(parse("x", "soft scan=0[12/1").unwrap_err().contains("unclosed"));
        assert!(parse("x", "soft scan=0z").unwrap_err().contains("unknown meta-move"));
        assert!(parse("x", "best weights=1,2").unwrap_err().contains("six"));
        assert!(parse("x", "soft scan=0 prelude=3:10").unwrap_err().contains("scan 3"));
        assert!(named("nope").unwrap_err().contains("default"));
    }
}
