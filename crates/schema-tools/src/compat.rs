//! Compatibility modes over a list of schema versions, as schema registries name them
//! (Confluent, Apicurio): BACKWARD (the new version accepts every document the old one did:
//! new readers read old data), FORWARD (the old version accepts every document the new one
//! does: old readers read new data), FULL (both), each against the version before, or, in the
//! `-transitive` forms, against every earlier version.
//!
//! Each change [`diff`](crate::diff::diff) lists is judged in each direction the mode checks.
//! Its kind says whether it can refuse a document at all in that direction (a bound narrowed
//! can refuse old documents, never new ones); where it can, a [`witness`] search looks for a
//! document that shows it. A change is **refused** with the document found; **unproven** when
//! its kind can refuse (or cannot be proven either way, such as a changed pattern) and no
//! document was found, which the gate also refuses, saying so; **compatible** otherwise.
//!
//! Members an open object does not declare are the one explicit choice ([`Undeclared`]): by
//! default they are outside the contract (seed 000 §7.1 counts a new optional field as a
//! backward-compatible addition), so a property added to an open object is compatible both
//! ways; `Undeclared::Any` takes the registries' reading, where an old document may already
//! carry the member with a value the new declaration refuses.
//!
//! The declared-bump check uses the mode: a refused or unproven change needs MAJOR, any other
//! change that affects validation MINOR, annotations PATCH.

use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::diff::{self, Bump, Change, ChangeKind, Class, DiffError, Openness};
use crate::patterns::{self, Inclusion};
use crate::witness::{self, PatternSampler, Version, Witness};

pub use crate::witness::Undeclared;

/// The longest one change's witness search runs.
const SEARCH_TIME: Duration = Duration::from_secs(5);
/// The longest all the searches of one check run together; past it, each change left is
/// unproven, saying why.
const RUN_TIME: Duration = Duration::from_secs(60);

/// A compatibility mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// The new version accepts every document the previous one did.
    Backward,
    /// The new version accepts every document any earlier one did.
    BackwardTransitive,
    /// The previous version accepts every document the new one does.
    Forward,
    /// Every earlier version accepts every document the new one does.
    ForwardTransitive,
    /// Backward and forward against the previous version.
    Full,
    /// Backward and forward against every earlier version.
    FullTransitive,
}

impl Mode {
    /// Every mode, in the order the command lists them.
    pub const ALL: [Mode; 6] = [
        Mode::Backward,
        Mode::BackwardTransitive,
        Mode::Forward,
        Mode::ForwardTransitive,
        Mode::Full,
        Mode::FullTransitive,
    ];

    /// `backward`, `backward-transitive`, …
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Backward => "backward",
            Self::BackwardTransitive => "backward-transitive",
            Self::Forward => "forward",
            Self::ForwardTransitive => "forward-transitive",
            Self::Full => "full",
            Self::FullTransitive => "full-transitive",
        }
    }

    /// Whether old documents must stay valid.
    pub fn backward(self) -> bool {
        matches!(self, Self::Backward | Self::BackwardTransitive | Self::Full | Self::FullTransitive)
    }

    /// Whether new documents must be valid under the old version.
    pub fn forward(self) -> bool {
        matches!(self, Self::Forward | Self::ForwardTransitive | Self::Full | Self::FullTransitive)
    }

    /// Whether every earlier version is checked, not only the previous one.
    pub fn transitive(self) -> bool {
        matches!(self, Self::BackwardTransitive | Self::ForwardTransitive | Self::FullTransitive)
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One direction of a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Old documents under the new version.
    Backward,
    /// New documents under the old version.
    Forward,
}

impl Direction {
    /// `backward` or `forward`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Backward => "backward",
            Self::Forward => "forward",
        }
    }
}

/// How a change stands in one direction.
#[derive(Debug, Clone, PartialEq)]
pub enum Standing {
    /// It refuses no document in this direction.
    Compatible,
    /// This document shows that it does.
    Refused(Witness),
    /// It may refuse documents, and no document was found that shows it (with why, when the
    /// search could not run).
    Unproven(Option<String>),
}

impl Standing {
    /// Whether the change is refused or unproven.
    pub fn is_refused(&self) -> bool {
        !matches!(self, Self::Compatible)
    }
}

/// A change, with how it stands in each direction the mode checks.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgedChange {
    /// The change, as [`diff::diff`] lists it (old version → new version).
    pub change: Change,
    /// Its standing, by direction.
    pub standings: Vec<(Direction, Standing)>,
    /// Its class under the mode: MAJOR when refused or unproven, else MINOR at most unless it
    /// touches annotations only.
    pub class: Class,
}

/// Two versions checked against each other.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// The earlier version's index in the list.
    pub old: usize,
    /// The later version's index.
    pub new: usize,
    /// Every change between them.
    pub changes: Vec<JudgedChange>,
}

impl Pair {
    /// Whether any change is refused or unproven.
    pub fn is_compatible(&self) -> bool {
        self.changes.iter().all(|c| c.standings.iter().all(|(_, s)| !s.is_refused()))
    }
}

/// The bump check of one version against the one before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BumpCheck {
    /// The version's index in the list (from 1).
    pub version: usize,
    /// The least bump its pairs need under the mode.
    pub required: Bump,
    /// The bump it declares over the version before, when both declare one.
    pub declared: Option<Bump>,
    /// `declared >= required`; with no declared versions, whether every pair is compatible.
    pub ok: bool,
}

/// The check of a list of versions under a mode.
#[derive(Debug)]
pub struct Report {
    /// The mode.
    pub mode: Mode,
    /// The rule for members open objects do not declare.
    pub undeclared: Undeclared,
    /// The versions, oldest first.
    pub versions: Vec<PathBuf>,
    /// Every pair checked.
    pub pairs: Vec<Pair>,
    /// The bump check of each version after the first.
    pub bumps: Vec<BumpCheck>,
    /// References that could not be read (the searches that needed them could not run).
    pub unresolved: Vec<String>,
}

impl Report {
    /// Whether every bump check holds.
    pub fn ok(&self) -> bool {
        self.bumps.iter().all(|b| b.ok)
    }

    /// The report as one JSON object.
    pub fn to_json(&self) -> Value {
        let name = |i: usize| self.versions.get(i).map(|p| p.to_string_lossy().into_owned());
        json!({
            "mode": self.mode.as_str(),
            "undeclared": self.undeclared.as_str(),
            "versions": self.versions.iter().map(|p| p.to_string_lossy()).collect::<Vec<_>>(),
            "pairs": self.pairs.iter().map(|pair| json!({
                "old": name(pair.old),
                "new": name(pair.new),
                "compatible": pair.is_compatible(),
                "changes": pair.changes.iter().map(|judged| {
                    let mut change = judged.change.to_json();
                    change["class"] = json!(judged.class.as_str());
                    change["classifier_class"] = json!(judged.change.class.as_str());
                    for (direction, standing) in &judged.standings {
                        change[direction.as_str()] = match standing {
                            Standing::Compatible => json!({ "standing": "compatible" }),
                            Standing::Refused(w) => json!({
                                "standing": "refused",
                                "witness": {
                                    "document": w.document,
                                    "target": w.target,
                                    "valid_under": name(if *direction == Direction::Backward { pair.old } else { pair.new }),
                                    "invalid_under": name(if *direction == Direction::Backward { pair.new } else { pair.old }),
                                    "reason": w.reason,
                                },
                            }),
                            Standing::Unproven(why) => json!({ "standing": "unproven", "why": why }),
                        };
                    }
                    change
                }).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "bumps": self.bumps.iter().map(|b| json!({
                "version": name(b.version),
                "required": b.required.as_str(),
                "declared": b.declared.map(Bump::as_str),
                "ok": b.ok,
            })).collect::<Vec<_>>(),
            "unresolved": self.unresolved,
            "ok": self.ok(),
        })
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |i: usize| self.versions.get(i).map_or_else(String::new, |p| p.display().to_string());
        writeln!(
            f,
            "mode {}; undeclared members of open objects: {}",
            self.mode,
            match self.undeclared {
                Undeclared::Outside => "outside the contract",
                Undeclared::Any => "instances like any other",
            }
        )?;
        for pair in &self.pairs {
            let verdict = if pair.is_compatible() { "compatible" } else { "not compatible" };
            writeln!(f, "{} → {}: {verdict}", name(pair.old), name(pair.new))?;
            if pair.changes.is_empty() {
                writeln!(f, "  no changes")?;
            }
            for judged in &pair.changes {
                let change = &judged.change;
                let pointer = if change.pointer.is_empty() { "(root)" } else { &change.pointer };
                writeln!(f, "  {} {pointer}: {}", judged.class, change.description)?;
                for (direction, standing) in &judged.standings {
                    match standing {
                        Standing::Compatible => {}
                        Standing::Refused(w) => {
                            let (valid, invalid) = match direction {
                                Direction::Backward => (name(pair.old), name(pair.new)),
                                Direction::Forward => (name(pair.new), name(pair.old)),
                            };
                            let of = if w.target.is_empty() {
                                String::new()
                            } else {
                                format!(" (an instance of #{})", w.target)
                            };
                            writeln!(
                                f,
                                "    refused {}: {}{of} is valid under {valid} and invalid under {invalid}: {}",
                                direction.as_str(),
                                w.document,
                                w.reason
                            )?;
                        }
                        Standing::Unproven(why) => {
                            let why = why.as_deref().map_or_else(String::new, |w| format!(" ({w})"));
                            writeln!(
                                f,
                                "    unproven {}: it can refuse documents and none was found that shows it{why}",
                                direction.as_str()
                            )?;
                        }
                    }
                }
            }
        }
        for bump in &self.bumps {
            let declared = bump.declared.map_or("no version", Bump::as_str);
            let judgement = match (bump.ok, bump.declared) {
                (true, _) => "ok",
                (false, Some(_)) => "too small",
                (false, None) => "not compatible",
            };
            writeln!(
                f,
                "{}: least version bump needed: {}; declared: {declared} — {judgement}",
                name(bump.version),
                bump.required
            )?;
        }
        Ok(())
    }
}

/// Checks `paths` (two or more versions, oldest first) under `mode`.
pub fn check(
    paths: &[PathBuf],
    mode: Mode,
    undeclared: Undeclared,
    sampler: PatternSampler,
) -> Result<Report, DiffError> {
    let versions: Vec<Version> = paths.iter().map(|p| Version::load(p)).collect::<Result<_, _>>()?;
    let mut unresolved: Vec<String> = versions.iter().flat_map(|v| v.unresolved.iter().cloned()).collect();
    unresolved.sort();
    unresolved.dedup();
    let mut pairs = Vec::new();
    let mut bumps = Vec::new();
    let run_deadline = Instant::now() + RUN_TIME;
    for new in 1..versions.len() {
        let earlier: Vec<usize> = if mode.transitive() { (0..new).collect() } else { vec![new - 1] };
        let mut required = Bump::None;
        for old in earlier {
            let pair = judge_pair(&versions, old, new, (mode, undeclared), sampler, run_deadline);
            required = required.max(pair.changes.iter().map(|c| c.class.bump()).max().unwrap_or(Bump::None));
            pairs.push(pair);
        }
        let declared = diff::declared_bump(&versions[new - 1].schema, &versions[new].schema);
        let ok = match declared {
            Some(declared) => declared >= required,
            None => required < Bump::Major,
        };
        bumps.push(BumpCheck { version: new, required, declared, ok });
    }
    Ok(Report { mode, undeclared, versions: paths.to_vec(), pairs, bumps, unresolved })
}

fn judge_pair(
    versions: &[Version],
    old: usize,
    new: usize,
    (mode, undeclared): (Mode, Undeclared),
    sampler: PatternSampler,
    run_deadline: Instant,
) -> Pair {
    let (old_version, new_version) = (&versions[old], &versions[new]);
    let mut changes = Vec::new();
    for change in diff::diff(&old_version.schema, &new_version.schema) {
        let mut standings = Vec::new();
        for (direction, checked) in [(Direction::Backward, mode.backward()), (Direction::Forward, mode.forward())] {
            if !checked {
                continue;
            }
            let (accepting, refusing) = match direction {
                Direction::Backward => (old_version, new_version),
                Direction::Forward => (new_version, old_version),
            };
            let standing = if can_refuse(&change, direction, old_version, new_version, undeclared) {
                let deadline = (Instant::now() + SEARCH_TIME).min(run_deadline);
                match witness::find(&change.pointer, accepting, refusing, undeclared, sampler, deadline) {
                    Ok(Some(found)) => Standing::Refused(found),
                    Ok(None) => Standing::Unproven(None),
                    Err(why) => Standing::Unproven(Some(why)),
                }
            } else {
                Standing::Compatible
            };
            standings.push((direction, standing));
        }
        let class =
            if standings.iter().any(|(_, s)| s.is_refused()) { Class::Major } else { change.class.min(Class::Minor) };
        changes.push(JudgedChange { change, standings, class });
    }
    Pair { old, new, changes }
}

/// Whether a change's kind lets it refuse documents in `direction`: a narrowing refuses old
/// documents (backward), a widening new ones (forward), and a change that cannot be proven
/// either way (a retargeted `$ref`, a changed format) may do both. A pattern added, changed or
/// removed is decided on the patterns' automata ([`patterns::included`]) where they translate.
fn can_refuse(change: &Change, direction: Direction, old: &Version, new: &Version, undeclared: Undeclared) -> bool {
    use ChangeKind as K;
    let backward = direction == Direction::Backward;
    match change.kind {
        K::PropertyAdded => property_can_refuse(&change.pointer, backward, old, undeclared),
        K::PropertyRemoved => property_can_refuse(&change.pointer, !backward, new, undeclared),
        K::RequiredAdded
        | K::TypeNarrowed
        | K::EnumNarrowed
        | K::BoundNarrowed
        | K::FormatAdded
        | K::ConstAdded
        | K::UniqueItemsAdded
        | K::AdditionalPropertiesTightened
        | K::ConstraintAdded => backward,
        K::RequiredRemoved
        | K::TypeWidened
        | K::EnumWidened
        | K::BoundWidened
        | K::FormatRemoved
        | K::ConstRemoved
        | K::UniqueItemsRemoved
        | K::AdditionalPropertiesWidened
        | K::ConstraintRemoved
        | K::ConditionalRemoved => !backward,
        K::SubschemaAdded | K::SubschemaRemoved => {
            let added = change.kind == K::SubschemaAdded;
            match change.pointer.rsplit('/').nth(1) {
                // An `anyOf` branch added accepts more; an `allOf` branch added accepts less.
                Some("anyOf") => added != backward,
                Some("allOf") => added == backward,
                _ => true,
            }
        }
        // A conditional on members the old version did not declare: old documents carry none of
        // them unless undeclared members count; new documents may, and the old version judges
        // them by its own rules.
        K::ConditionalAdded if change.class == Class::Minor => undeclared == Undeclared::Any || !backward,
        K::PatternAdded | K::PatternChanged | K::PatternRemoved => {
            let (accepting, refusing) = if backward { (old, new) } else { (new, old) };
            let pattern = |version: &Version| {
                version.schema.pointer(&change.pointer).and_then(|p| p.as_str()).unwrap_or_default().to_owned()
            };
            // A pattern refuses a string only where the accepting side's pattern took it.
            !matches!(patterns::included(&pattern(accepting), &pattern(refusing)), Inclusion::Included)
        }
        K::ConditionalAdded
        | K::PropertyRenamed
        | K::FormatChanged
        | K::ConstChanged
        | K::ConstraintChanged
        | K::ConditionChanged
        | K::RefRetargeted
        | K::RefAdded
        | K::RefRemoved
        | K::DialectChanged => true,
        K::DefinitionAdded
        | K::DefinitionRemoved
        | K::DefinitionMoved
        | K::RefDelegated
        | K::IdChanged
        | K::AnnotationChanged => false,
    }
}

/// Whether a property one version declares and `without` does not can refuse documents:
/// `declaring` says whether the refusing side is the declaring one (it constrains the member, so
/// a document of `without` carrying it may break it) or `without` (which refuses the member only
/// when its object is not open).
fn property_can_refuse(pointer: &str, declaring: bool, without: &Version, undeclared: Undeclared) -> bool {
    let object = pointer.rsplit_once('/').and_then(|(rest, _)| rest.strip_suffix("/properties")).unwrap_or("");
    let openness =
        without.schema.pointer(object).map_or(Openness::Open, |node| diff::openness(node.get("additionalProperties")));
    if declaring {
        // `with` refuses: a document of `without` carrying the member, which only an open
        // object (or one with an additionalProperties schema) can hold.
        match openness {
            Openness::Closed => false,
            Openness::Open => undeclared == Undeclared::Any,
            Openness::Schema | Openness::Malformed => true,
        }
    } else {
        // `without` refuses a document of `with` carrying the member unless it is open.
        !matches!(openness, Openness::Open)
    }
}
