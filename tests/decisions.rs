//! docs/decisions.md is the record of every choice the seeds leave open, and docs/design.md of the
//! project's own design choices; the two share one id space. Each decision has one id, every
//! `D-NN` the repository cites (schemas, code, tests, docs) names a decision that exists in one of
//! them, and every decision on the seeds quotes the seed text it answers exactly as
//! `tests/seed/text/` holds it.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The records of decisions, which share one id space: the decisions on the seeds first.
const RECORDS: [&str; 2] = ["docs/decisions.md", "docs/design.md"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(relative: &str) -> String {
    std::fs::read_to_string(root().join(relative)).unwrap_or_else(|error| panic!("{relative}: {error}"))
}

/// The ids a text cites: `D-` and two or three digits, not part of a longer word.
fn cited(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut ids = Vec::new();
    for (at, _) in text.match_indices("D-") {
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'-') {
            continue;
        }
        let digits: String = text[at + 2..].chars().take_while(char::is_ascii_digit).collect();
        if (2..=3).contains(&digits.len()) {
            ids.push(format!("D-{digits}"));
        }
    }
    ids
}

/// The id a line heads, if it is a decision's heading (`### D-NN …` or `#### D-NN …`).
fn heading_id(line: &str) -> Option<String> {
    let heading = line.trim_start_matches('#');
    if line.starts_with("###") && heading.starts_with(" D-") {
        Some(cited(heading).into_iter().next().expect("a heading's id"))
    } else {
        None
    }
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if !matches!(name.as_str(), "target" | "node_modules" | ".git" | "fixtures") {
                files(&path, out);
            }
        } else if [".rs", ".md", ".json", ".py", ".toml", ".sh"].iter().any(|ext| name.ends_with(ext)) {
            out.push(path);
        }
    }
}

#[test]
fn every_decision_has_one_id_and_every_cited_id_exists() {
    let mut headings: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for record in RECORDS {
        for (number, line) in read(record).lines().enumerate() {
            if let Some(id) = heading_id(line) {
                headings.entry(id).or_default().push(format!("{record}:{}", number + 1));
            }
        }
    }
    assert!(headings.len() > 150, "only {} decisions found", headings.len());
    let repeated: Vec<String> =
        headings.iter().filter(|(_, at)| at.len() > 1).map(|(id, at)| format!("{id} at {at:?}")).collect();
    assert!(repeated.is_empty(), "decision ids used twice in {RECORDS:?}: {repeated:?}");

    let mut sources = Vec::new();
    for dir in ["schemas", "src", "tests", "crates", "docs", "scripts"] {
        files(&root().join(dir), &mut sources);
    }
    sources.push(root().join("README.md"));
    sources.push(root().join("Cargo.toml"));
    let mut unknown = Vec::new();
    for path in &sources {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        for id in cited(&text) {
            if !headings.contains_key(&id) {
                unknown.push(format!("{} cites {id}", path.strip_prefix(root()).unwrap_or(path).display()));
            }
        }
    }
    unknown.sort();
    unknown.dedup();
    assert!(unknown.is_empty(), "{} citations of decisions that do not exist:\n{}", unknown.len(), unknown.join("\n"));
}

/// Where a quote says its text stands: a line of seeds 000–003, or a section of seed 004, which is
/// a single line.
enum Place {
    Line(usize),
    Section(String),
}

/// A quote of a seed, a Markdown block-quote line: `> 000:917: "text"` or `> 004 §4.2: "text"`.
/// The text runs from the first `"` to the last; a `…` at either end marks a line quoted in part.
struct Quote {
    seed: String,
    place: Place,
    text: String,
}

/// The quote a line of the docs holds: `None` if the line is not a seed quote, an error if it
/// starts like one (`> ` and three digits) but is not written as one.
fn quote(line: &str) -> Option<Result<Quote, String>> {
    let rest = line.trim_start().strip_prefix("> ")?;
    let seed = rest.get(..3).filter(|seed| seed.bytes().all(|byte| byte.is_ascii_digit()))?.to_owned();
    let malformed = || Err(format!("not written `> NNN:LINE: \"…\"` or `> 004 §N: \"…\"`: {line}"));
    let (place, text) = if let Some(rest) = rest[3..].strip_prefix(':') {
        let Some((number, text)) = rest.split_once(": ") else { return Some(malformed()) };
        let Ok(number) = number.parse() else { return Some(malformed()) };
        (Place::Line(number), text)
    } else if let Some(rest) = rest[3..].strip_prefix(" §") {
        let Some((section, text)) = rest.split_once(": ") else { return Some(malformed()) };
        (Place::Section(section.to_owned()), text)
    } else {
        return Some(malformed());
    };
    let Some(text) = text.strip_prefix('"').and_then(|text| text.strip_suffix('"')) else {
        return Some(malformed());
    };
    let text = text.strip_prefix('…').unwrap_or(text);
    let text = text.strip_suffix('…').unwrap_or(text);
    Some(Ok(Quote { seed, place, text: text.to_owned() }))
}

/// Seed 004's section `section` (`4.2`, `14`): from its heading to the next heading.
fn section<'a>(seed: &'a str, section: &str) -> Option<&'a str> {
    let heading = if section.contains('.') { format!("### {section} ") } else { format!("## {section}. ") };
    let start = seed.match_indices(&heading).map(|(at, _)| at).find(|&at| at == 0 || seed[..at].ends_with(' '))?;
    let after = start + heading.len();
    let end = [" ## ", " ### "]
        .iter()
        .filter_map(|next| seed[after..].find(next))
        .min()
        .map_or(seed.len(), |length| after + length);
    Some(&seed[start..end])
}

/// What is wrong with a quote, if anything.
fn check(quote: &Quote, seeds: &mut BTreeMap<String, Option<String>>) -> Option<String> {
    let seed = seeds
        .entry(quote.seed.clone())
        .or_insert_with(|| std::fs::read_to_string(root().join(format!("tests/seed/text/{}.txt", quote.seed))).ok());
    let Some(seed) = seed.as_deref() else { return Some(format!("there is no seed {}", quote.seed)) };
    if quote.text.is_empty() {
        return Some("the quote is empty".to_owned());
    }
    match &quote.place {
        Place::Line(number) => {
            let Some(line) = number.checked_sub(1).and_then(|index| seed.lines().nth(index)) else {
                return Some(format!("seed {} has no line {number}", quote.seed));
            };
            (!line.contains(&quote.text)).then(|| format!("seed {}:{number} reads {:?}", quote.seed, line.trim()))
        }
        Place::Section(name) => {
            let Some(text) = section(seed, name) else {
                return Some(format!("seed {} has no section §{name}", quote.seed));
            };
            if text.contains(&quote.text) {
                None
            } else if seed.contains(&quote.text) {
                Some(format!("the text is in seed {}, but not in its §{name}", quote.seed))
            } else {
                Some(format!("the text is not in seed {}", quote.seed))
            }
        }
    }
}

#[test]
fn every_seed_quote_is_the_seed_text() {
    let mut seeds = BTreeMap::new();
    let mut wrong = Vec::new();
    let mut unquoted = Vec::new();
    let mut quotes = 0;
    for record in RECORDS {
        let text = read(record);
        // The decision being read (its id, heading line and quotes), for the decisions on the seeds.
        let mut decision: Option<(String, usize, usize)> = None;
        let mut finish = |decision: &mut Option<(String, usize, usize)>| {
            if let Some((id, at, 0)) = decision.take()
                && record == RECORDS[0]
            {
                unquoted.push(format!("{record}:{at} {id}"));
            }
        };
        for (number, line) in text.lines().enumerate() {
            if line.starts_with('#') {
                finish(&mut decision);
                decision = heading_id(line).map(|id| (id, number + 1, 0));
                continue;
            }
            match quote(line) {
                None => {}
                Some(Err(error)) => wrong.push(format!("{record}:{}: {error}", number + 1)),
                Some(Ok(quote)) => {
                    quotes += 1;
                    if let Some((_, _, count)) = decision.as_mut() {
                        *count += 1;
                    }
                    if let Some(error) = check(&quote, &mut seeds) {
                        wrong.push(format!("{record}:{}: {:?}: {error}", number + 1, quote.text));
                    }
                }
            }
        }
        finish(&mut decision);
    }
    assert!(quotes > 250, "only {quotes} seed quotes found");
    assert!(
        wrong.is_empty() && unquoted.is_empty(),
        "{} quotes that are not the seed's text:\n{}\n\
         {} decisions on the seeds that quote no seed line (`> NNN:LINE: \"…\"` under **Seed:**):\n{}",
        wrong.len(),
        wrong.join("\n"),
        unquoted.len(),
        unquoted.join("\n")
    );
}
