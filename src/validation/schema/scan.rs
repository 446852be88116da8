//! The convention layer's fast path on JSON bytes: one walk of the document, guided by the
//! compiled convention reading of its schema, that skips every value no convention can reach
//! (strings at memchr speed, nothing parsed) and judges only the small values that carry a
//! convention. It answers one question — "surely no convention broken?" — and any doubt (a
//! broken convention, a condition it cannot settle from the object's scalar members, anything
//! unexpected) sends the document to the complete path: a parsed document, judged by the
//! interpreter, which lists the records.
//!
//! The bytes must be well-formed JSON (the typed skim read them first): the walk does not check
//! syntax, and gives up (doubt) on anything it does not expect. Each byte is read once by the
//! walk, and the members of an object with a condition once more, to find the scalars the
//! condition looks at (the v1.1.0 payload's `agent_id`).

use serde_json::{Map, Value};

use super::{MAX_DEPTH, Node, NodeId, OBJECT, Path, Silent, Tree};
use crate::generated::TraceKept;
use crate::validation::Facts;
use crate::validation::detect::scan::{expect, plain_string, string_end, value_end, whitespace};

/// The most schemas that apply to one object at once (the object's own, its `allOf` parts, the
/// branches its conditions take); more is doubt.
const MAX_APPLICABLE: usize = 64;

impl Tree {
    /// Whether the JSON value `bytes` surely keeps every convention of node `root` (of the
    /// convention reading); `false` is doubt, not a verdict.
    pub(super) fn surely_kept(&self, root: NodeId, bytes: &[u8]) -> bool {
        let at = whitespace(bytes, 0);
        match self.walk(root, bytes, at, 0) {
            Some((kept, end)) => kept && whitespace(bytes, end) == bytes.len(),
            None => false,
        }
    }

    /// Walks the value at `at` against node `id`: whether it surely keeps the conventions, and
    /// the index after it; `None` on anything unexpected.
    fn walk(&self, id: NodeId, bytes: &[u8], at: usize, depth: usize) -> Option<(bool, usize)> {
        if !self.reaches_convention(id) {
            return Some((true, value_end(bytes, at)?));
        }
        if depth > MAX_DEPTH {
            return None;
        }
        let id = self.target(id);
        let Some(Node::Schema(s)) = self.nodes.get(id) else { return Some((true, value_end(bytes, at)?)) };
        // Conventions of its own on a value that is not an object: judged where it lies (an
        // object's own conventions are judged on its member names, below).
        if s.convention.is_some() && bytes.get(at) != Some(&b'{') {
            let end = value_end(bytes, at)?;
            return Some((self.judged_whole(id, bytes.get(at..end)?, depth), end));
        }
        match bytes.get(at)? {
            b'{' => self.object(id, bytes, at, depth),
            b'[' if s.condition.is_none() && s.all_of.is_empty() => {
                let items = s.items.filter(|items| self.reaches_convention(*items));
                self.array(items, bytes, at, depth)
            }
            b'[' => {
                // An array under a condition or `allOf`: the interpreter judges it whole.
                let end = value_end(bytes, at)?;
                Some((self.judged_whole(id, bytes.get(at..end)?, depth), end))
            }
            _ => Some((true, value_end(bytes, at)?)),
        }
    }

    /// Whether what the skim kept of a v1.1.0 envelope (`facts`) tells that the document surely
    /// keeps every convention of node `root` (the envelope's root, convention reading), judged as
    /// [`Tree::walk`] would judge the bytes, without walking them: the root's members that reach a
    /// convention must all be among what the skim keeps (`session_id` and `trace`, judged as the
    /// walk judges them) or the payload, whose dispatched output must reach no convention. Any
    /// other shape is doubt (`false`): the walk decides. The shape is read from the tree once.
    pub(super) fn kept_by_facts(&self, root: NodeId, facts: &Facts<'_>) -> bool {
        let Some(plan) = self.facts_plan.get_or_init(|| self.facts_plan(root)).as_ref() else { return false };
        if plan.root != root {
            return false;
        }
        plan.session_id.is_none_or(|id| facts.session_id.as_deref().is_some_and(|text| self.string_kept(id, text)))
            // No trace: the member is absent (the skim takes no other value for it).
            && plan.trace.as_ref().is_none_or(|shape| facts.trace.as_ref().is_none_or(|trace| self.trace_kept(shape, trace)))
            && plan.outputs.as_ref().is_none_or(|outputs| {
                facts.agent.is_some_and(|agent| {
                    outputs.iter().any(|(id, none)| *none && (std::ptr::eq(*id, agent) || *id == agent))
                })
            })
    }

    /// What [`Tree::kept_by_facts`] judges under `root`; `None` when the tree has another shape.
    fn facts_plan(&self, root: NodeId) -> Option<FactsPlan> {
        let mut plan = FactsPlan { root, session_id: None, trace: None, outputs: None };
        if !self.reaches_convention(root) {
            return Some(plan);
        }
        let Some(Node::Schema(s)) = self.nodes.get(self.target(root)) else { return None };
        if s.convention.is_some()
            || s.condition.is_some()
            || !s.all_of.is_empty()
            || s.additional.is_some_and(|child| self.reaches_convention(child))
        {
            return None;
        }
        for (name, child) in s.properties.iter().filter(|(_, child)| self.reaches_convention(*child)) {
            match name.as_str() {
                "session_id" => plan.session_id = Some(self.own_convention(*child)?),
                "trace" => plan.trace = Some(self.trace_plan(*child)?),
                "payload" => {
                    plan.outputs = Some(
                        crate::AgentInfo::all()
                            .iter()
                            .map(|agent| (agent.id, self.reaches_none(*child, agent.id)))
                            .collect(),
                    );
                }
                _ => return None,
            }
        }
        Some(plan)
    }

    /// The node `id` leads to when that node has conventions of its own (the walk judges a
    /// scalar by them alone); `None` otherwise.
    fn own_convention(&self, id: NodeId) -> Option<NodeId> {
        let id = self.target(id);
        matches!(self.nodes.get(id), Some(Node::Schema(s)) if s.convention.is_some()).then_some(id)
    }

    /// Whether the string `text` surely keeps the conventions of node `id` (one with conventions
    /// of its own), as the walk judges a string where it lies.
    fn string_kept(&self, id: NodeId, text: &str) -> bool {
        matches!(self.nodes.get(id), Some(Node::Schema(s)) if s.text_kept(text))
    }

    /// What a trace's conventions are, as [`TraceKept`] can answer them: the object's own
    /// (`required`, judged as the walk judges them on member names, on kept members only) and
    /// those of its kept members; a convention on anything else is `None`.
    fn trace_plan(&self, id: NodeId) -> Option<TracePlan> {
        let Some(Node::Schema(s)) = self.nodes.get(self.target(id)) else { return None };
        if s.condition.is_some()
            || !s.all_of.is_empty()
            || s.closed
            || s.enumeration.is_some()
            || s.constant.is_some()
            || !s.problems.is_empty()
            || s.types.as_ref().is_some_and(|types| types.mask & OBJECT == 0)
            || s.additional.is_some_and(|child| self.reaches_convention(child))
        {
            return None;
        }
        let mut plan = TracePlan { trace_id: None, span_id: None, depth: None, requires: [false; 2] };
        if s.convention.is_some() {
            for name in &s.required {
                match name.as_str() {
                    "trace_id" => plan.requires[0] = true,
                    "span_id" => plan.requires[1] = true,
                    // Always there: the kept trace's `depth` is not optional.
                    "depth" => {}
                    _ => return None,
                }
            }
        }
        for (name, child) in s.properties.iter().filter(|(_, child)| self.reaches_convention(*child)) {
            match name.as_str() {
                "trace_id" => plan.trace_id = Some(self.own_convention(*child)?),
                "span_id" => plan.span_id = Some(self.own_convention(*child)?),
                "depth" => plan.depth = Some(self.own_convention(*child)?),
                _ => return None,
            }
        }
        Some(plan)
    }

    /// Whether a trace of which the skim kept `trace` surely keeps the conventions of `plan`.
    fn trace_kept(&self, plan: &TracePlan, trace: &TraceKept<'_>) -> bool {
        let [trace_id, span_id] = plan.requires;
        (!trace_id || trace.trace_id.is_some())
            && (!span_id || trace.span_id.is_some())
            && plan.trace_id.is_none_or(|id| trace.trace_id.as_deref().is_none_or(|text| self.string_kept(id, text)))
            && plan.span_id.is_none_or(|id| trace.span_id.as_deref().is_none_or(|text| self.string_kept(id, text)))
            // A number is judged whole, as the walk judges it; one whose text is not the
            // canonical form of its value is doubt.
            && plan.depth.is_none_or(|id| {
                trace.depth.source_text().is_none()
                    && self.eval(id, &Value::from(trace.depth.get()), &Path::Root, 1, &mut Silent)
            })
    }

    /// Whether the output of `agent` in a payload of node `id` reaches no convention: the walk
    /// would skip all of it. The schemas that apply are found as the walk finds them, on an
    /// object of its `agent_id` alone (a condition that names any other member is doubt).
    fn reaches_none(&self, id: NodeId, agent: &str) -> bool {
        if !self.reaches_convention(id) {
            return true;
        }
        let id = self.target(id);
        let Ok(bytes) = serde_json::to_vec(&serde_json::json!({ "agent_id": agent })) else { return false };
        let mut members = Cursor::new(&bytes, 0);
        members.only = Some("agent_id");
        let Some(applicable) = self.applicable(id, &mut members, 1) else { return false };
        applicable.iter().all(|node| match self.nodes.get(*node) {
            Some(Node::Schema(s)) => {
                s.convention.is_none()
                    && !s.properties.iter().any(|(_, child)| self.reaches_convention(*child))
                    && !s.additional.is_some_and(|child| self.reaches_convention(child))
            }
            _ => true,
        })
    }

    /// The node a chain of references leads to.
    fn target(&self, mut id: NodeId) -> NodeId {
        let mut hops = 0;
        while let Some(Node::Ref(next)) = self.nodes.get(id) {
            id = *next;
            hops += 1;
            if hops > MAX_DEPTH {
                break;
            }
        }
        id
    }

    /// A node whose own conventions apply to this value: a string without escapes is judged
    /// where it lies; any other value alone is parsed and judged (a number, a small object such
    /// as a trace).
    fn judged_whole(&self, id: NodeId, bytes: &[u8], depth: usize) -> bool {
        if let Some(Node::Schema(s)) = self.nodes.get(id)
            && let Some((text, end)) = plain_string(bytes, 0)
            && end == bytes.len()
        {
            return s.text_kept(text);
        }
        match crate::__private::read::value_from_slice(bytes) {
            Ok(value) => self.eval(id, &value, &Path::Root, depth, &mut Silent),
            Err(_) => false,
        }
    }

    /// The elements of the array at `at`, each against `items` (when it reaches a convention).
    fn array(&self, items: Option<NodeId>, bytes: &[u8], at: usize, depth: usize) -> Option<(bool, usize)> {
        let Some(items) = items else { return Some((true, value_end(bytes, at)?)) };
        let mut at = whitespace(bytes, expect(bytes, at, b'[')?);
        if bytes.get(at) == Some(&b']') {
            return Some((true, at + 1));
        }
        loop {
            let (kept, end) = self.walk(items, bytes, at, depth + 1)?;
            if !kept {
                return Some((false, end));
            }
            at = whitespace(bytes, end);
            match bytes.get(at)? {
                b',' => at = whitespace(bytes, at + 1),
                b']' => return Some((true, at + 1)),
                _ => return None,
            }
        }
    }

    /// The object at `at` against node `id` (a schema object), with its `allOf` parts and the
    /// branches its conditions take.
    fn object(&self, id: NodeId, bytes: &[u8], at: usize, depth: usize) -> Option<(bool, usize)> {
        // The members are read ahead only as far as a condition needs (the dispatch's
        // `agent_id`, most often the first member).
        let mut members = Cursor::new(bytes, at);
        let applicable = self.applicable(id, &mut members, depth)?;
        // A schema among them with conventions of its own: those on the object itself
        // (`required`, a closed object) are judged on its member names; any other judges the
        // object whole. The conventions of its members are walked below, as any others.
        let own = |node: &NodeId| matches!(self.nodes.get(*node), Some(Node::Schema(s)) if s.convention.is_some());
        if applicable.iter().any(own) {
            members.read_all()?;
            let end = members.end?;
            for node in applicable.iter().filter(|node| own(node)) {
                let Some(Node::Schema(s)) = self.nodes.get(*node) else { continue };
                let kept = if s.enumeration.is_none() && s.constant.is_none() && s.problems.is_empty() {
                    let has = |name: &str| members.seen.iter().any(|m| m.name == name);
                    s.types.as_ref().is_none_or(|types| types.mask & OBJECT != 0)
                        && s.required.iter().all(|name| has(name))
                        && (!s.closed
                            || members.seen.iter().all(|m| {
                                s.properties.binary_search_by(|(declared, _)| declared.as_str().cmp(&m.name)).is_ok()
                            }))
                } else {
                    self.judged_whole(*node, bytes.get(at..end)?, depth)
                };
                if !kept {
                    return Some((false, end));
                }
            }
        }
        // The schemas whose members can lead to a convention.
        let mut routing: Vec<&super::Schema> = Vec::with_capacity(4);
        for node in &applicable {
            if let Some(Node::Schema(s)) = self.nodes.get(*node)
                && (s.properties.iter().any(|(_, child)| self.reaches_convention(*child))
                    || s.additional.is_some_and(|child| self.reaches_convention(child)))
            {
                routing.push(s);
            }
        }
        if routing.is_empty() {
            return Some((true, members.end.map_or_else(|| value_end(bytes, at), Some)?));
        }
        let mut children: Vec<NodeId> = Vec::with_capacity(4);
        let route = |name: &str, children: &mut Vec<NodeId>| {
            children.clear();
            for s in &routing {
                let child = match s.properties.binary_search_by(|(declared, _)| declared.as_str().cmp(name)) {
                    Ok(found) => s.properties.get(found).map(|(_, child)| *child),
                    Err(_) => s.additional,
                };
                children.extend(child.filter(|child| self.reaches_convention(*child)));
            }
        };
        let judge = |children: &[NodeId], value_at: usize| -> Option<(bool, usize)> {
            match children {
                [] => Some((true, value_end(bytes, value_at)?)),
                [child] => self.walk(*child, bytes, value_at, depth + 1),
                several => {
                    let end = value_end(bytes, value_at)?;
                    for &child in several {
                        let (kept, child_end) = self.walk(child, bytes, value_at, depth + 1)?;
                        if !kept || child_end != end {
                            return Some((false, end));
                        }
                    }
                    Some((true, end))
                }
            }
        };
        if let Some(end) = members.end {
            for member in &members.seen {
                route(&member.name, &mut children);
                if !children.is_empty() && !judge(&children, member.at)?.0 {
                    return Some((false, end));
                }
            }
            return Some((true, end));
        }
        let mut at = whitespace(bytes, expect(bytes, at, b'{')?);
        if bytes.get(at) == Some(&b'}') {
            return Some((true, at + 1));
        }
        loop {
            let (name, after) = member_name(bytes, at)?;
            at = whitespace(bytes, expect(bytes, whitespace(bytes, after), b':')?);
            route(&name, &mut children);
            let (kept, end) = judge(&children, at)?;
            if !kept {
                return Some((false, end));
            }
            at = whitespace(bytes, end);
            match bytes.get(at)? {
                b',' => at = whitespace(bytes, at + 1),
                b'}' => return Some((true, at + 1)),
                _ => return None,
            }
        }
    }

    /// The schema objects that apply to the object at `at`: `id`, its `allOf` parts, and the
    /// branch each condition takes (judged on the members it names), transitively. The object's
    /// members are listed into `members` the first time a condition asks.
    fn applicable(&self, id: NodeId, members: &mut Cursor<'_>, depth: usize) -> Option<Vec<NodeId>> {
        // The dispatch on `agent_id` adds one part per agent.
        let mut applicable = Vec::with_capacity(24);
        applicable.push(id);
        let mut next = 0;
        while let Some(&node) = applicable.get(next) {
            next += 1;
            if applicable.len() > MAX_APPLICABLE {
                return None;
            }
            let Some(Node::Schema(s)) = self.nodes.get(node) else { continue };
            for &part in &s.all_of {
                applicable.push(self.target(part));
            }
            let Some((condition, then, otherwise)) = s.condition else { continue };
            if !then.iter().chain(&otherwise).any(|branch| self.reaches_convention(*branch)) {
                continue;
            }
            let holds = self.condition_holds(condition, members, depth)?;
            if let Some(branch) = if holds { then } else { otherwise } {
                applicable.push(self.target(branch));
            }
        }
        Some(applicable)
    }

    /// Whether the condition `id` (of the seed reading) holds for the object of `members`,
    /// judged on the members it names (parsed for the purpose); `None` when the condition looks
    /// at more than named members.
    fn condition_holds(&self, id: NodeId, members: &mut Cursor<'_>, depth: usize) -> Option<bool> {
        let id = self.target(id);
        let Some(Node::Schema(s)) = self.nodes.get(id) else { return None };
        if s.additional.is_some() || s.condition.is_some() || !s.all_of.is_empty() || s.closed {
            return None;
        }
        let mut partial = Map::new();
        for name in s.required.iter().chain(s.properties.iter().map(|(name, _)| name)).map(String::as_str) {
            if partial.contains_key(name) {
                continue;
            }
            let Some(member) = members.find(name)? else { continue };
            let value = member.value?;
            let parsed = match plain_string(value, 0) {
                Some((text, length)) if length == value.len() => Value::String(text.to_owned()),
                _ => crate::__private::read::value_from_slice(value).ok()?,
            };
            partial.insert(member.name.to_string(), parsed);
        }
        Some(self.eval(id, &Value::Object(partial), &Path::Root, depth, &mut Silent))
    }
}

/// The shape of a v1.1.0 envelope's conventions that [`Tree::kept_by_facts`] judges: for each
/// member the skim keeps, the node of its conventions (`None`: it reaches none).
pub(super) struct FactsPlan {
    root: NodeId,
    session_id: Option<NodeId>,
    trace: Option<TracePlan>,
    /// When the payload reaches a convention: per agent (every [`crate::AgentInfo`], found
    /// when the plan is read), whether its dispatched output reaches none. An agent not listed
    /// is doubt.
    outputs: Option<Vec<(&'static str, bool)>>,
}

/// The conventions of a trace, as [`FactsPlan`] keeps them.
pub(super) struct TracePlan {
    trace_id: Option<NodeId>,
    span_id: Option<NodeId>,
    depth: Option<NodeId>,
    /// Whether the trace's conventions require `trace_id` and `span_id`.
    requires: [bool; 2],
}

/// One member of an object: its name, where its value starts, and the value's bytes when it is
/// a scalar (an object or array is not kept: no condition looks inside one).
struct Member<'a> {
    name: std::borrow::Cow<'a, str>,
    at: usize,
    value: Option<&'a [u8]>,
}

/// The members of an object, read ahead only as far as asked.
struct Cursor<'a> {
    bytes: &'a [u8],
    /// Where the next unread member starts (`None` once the object is read to its end).
    next: Option<usize>,
    /// The members read so far, in order.
    seen: Vec<Member<'a>>,
    /// The index after the object, once read to its end.
    end: Option<usize>,
    /// The only member a condition may ask for (`None`: any); asking for another is doubt.
    only: Option<&'static str>,
}

impl<'a> Cursor<'a> {
    fn new(bytes: &'a [u8], at: usize) -> Self {
        let first = expect(bytes, at, b'{').map(|after| whitespace(bytes, after));
        let (next, end) = match first {
            Some(first) if bytes.get(first) == Some(&b'}') => (None, Some(first + 1)),
            first => (first, None),
        };
        Self { bytes, next, seen: Vec::new(), end, only: None }
    }

    /// The member named `name` (`Some(None)` when the object has none), reading on as far as
    /// needed; `None` on anything unexpected.
    fn find(&mut self, name: &str) -> Option<Option<&Member<'a>>> {
        if self.only.is_some_and(|only| only != name) {
            return None;
        }
        if let Some(index) = self.seen.iter().position(|m| m.name == name) {
            return Some(self.seen.get(index));
        }
        while self.next.is_some() {
            self.advance()?;
            if self.seen.last().is_some_and(|m| m.name == name) {
                return Some(self.seen.last());
            }
        }
        Some(None)
    }

    /// Reads the object to its end.
    fn read_all(&mut self) -> Option<()> {
        while self.next.is_some() {
            self.advance()?;
        }
        Some(())
    }

    /// Reads the next member.
    fn advance(&mut self) -> Option<()> {
        let at = self.next?;
        let bytes = self.bytes;
        let (name, after) = member_name(bytes, at)?;
        let value_at = whitespace(bytes, expect(bytes, whitespace(bytes, after), b':')?);
        let end = value_end(bytes, value_at)?;
        let scalar = !matches!(bytes.get(value_at), Some(b'{' | b'['));
        self.seen.push(Member {
            name,
            at: value_at,
            value: if scalar { Some(bytes.get(value_at..end)?) } else { None },
        });
        let after = whitespace(bytes, end);
        match bytes.get(after)? {
            b',' => self.next = Some(whitespace(bytes, after + 1)),
            b'}' => {
                self.next = None;
                self.end = Some(after + 1);
            }
            _ => return None,
        }
        Some(())
    }
}

/// The name of the member at `at` (decoded when it has escapes), and the index after it.
fn member_name(bytes: &[u8], at: usize) -> Option<(std::borrow::Cow<'_, str>, usize)> {
    match plain_string(bytes, at) {
        Some((name, after)) => Some((std::borrow::Cow::Borrowed(name), after)),
        None => {
            let end = string_end(bytes, at)?;
            Some((std::borrow::Cow::Owned(serde_json::from_slice::<String>(bytes.get(at..end)?).ok()?), end))
        }
    }
}
