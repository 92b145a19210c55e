//! A journey's steps laid out as numbered nodes, in the order they are written (a branch's
//! `then` steps after it, then its `else` steps, then the step after the branch), and the walk
//! a contact makes through them. Each node knows where a contact goes next, so the server keeps
//! a contact's place as one number, and every way through goes forward: a walk always ends.

use super::{Condition, Journey, ListChange, Step, TagChange, Wait, step};
use crate::PushType;

/// What a node does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeKind {
    /// Sends a message (a contact waits here until the send is done).
    Send {
        /// The text, with merge fields.
        text: String,
        /// Alert or marketing.
        pushtype: PushType,
        /// The addresses its short-link markers stand for.
        links: Vec<String>,
        /// The sender, else the account's default.
        sender: Option<String>,
    },
    /// Waits so long, or until a day and time (a contact waits here).
    Wait(Wait),
    /// Goes to `then` when the test holds, else to `otherwise`.
    Branch {
        /// The test.
        condition: Condition,
        /// The first node when it holds (`None`: the journey ends there).
        then: Option<usize>,
        /// The first node when it does not.
        otherwise: Option<usize>,
    },
    /// Tags the contact, or takes a tag off.
    Tag(TagChange),
    /// Adds the number to a list, or takes it out.
    List(ListChange),
    /// Posts the contact's place to an address.
    Webhook(String),
    /// Ends the contact's way.
    End,
}

/// One step, laid out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// Where it is written: `2`, `2.then.0`, `2.else.1.then.0`.
    pub path: String,
    /// What it does.
    pub kind: NodeKind,
    /// The node after it (`None`: the journey ends after it).
    pub next: Option<usize>,
}

impl Node {
    /// Its type on the wire.
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            NodeKind::Send { .. } => "send",
            NodeKind::Wait(_) => "wait",
            NodeKind::Branch { .. } => "branch",
            NodeKind::Tag(_) => "tag",
            NodeKind::List(_) => "list",
            NodeKind::Webhook(_) => "webhook",
            NodeKind::End => "end",
        }
    }

    /// Whether a contact waits at this node (a send to be done, or a wait), rather than
    /// passing through it at once.
    pub fn holds(&self) -> bool {
        matches!(self.kind, NodeKind::Send { .. } | NodeKind::Wait(_))
    }
}

/// What a walk changes on the contact, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// A tag added or taken off.
    Tag(TagChange),
    /// A list joined or left.
    List(ListChange),
    /// A post to an address, of the node at this place (`2.then.0`).
    Webhook {
        /// The address.
        url: String,
        /// The node's place.
        path: String,
    },
}

/// Where a walk leaves a contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rest {
    /// At a node that holds it: a send (due at once) or a wait (due when it is over).
    At(usize),
    /// At the end of the journey.
    Done,
}

/// A contact's walk from one node to the next that holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Walk {
    /// The nodes it reached and left on the way, in order.
    pub passed: Vec<usize>,
    /// What those nodes changed on it.
    pub effects: Vec<Effect>,
    /// Where it is left.
    pub rest: Rest,
}

/// A journey's steps as nodes; node 0 is the first step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// The nodes, in the order the steps are written.
    pub nodes: Vec<Node>,
    /// The journey's exit test, if any.
    pub exit: Option<Condition>,
    /// How many contacts may be in the journey at once, if it says.
    pub most_at_once: Option<u32>,
}

impl Program {
    /// `journey`'s steps, laid out.
    pub fn of(journey: &Journey) -> Program {
        let mut nodes = Vec::with_capacity(step::count(&journey.steps));
        lay(&journey.steps, "", None, &mut nodes);
        Program { nodes, exit: journey.exit.clone(), most_at_once: journey.most_at_once }
    }

    /// Every test it makes: its branches' and its exit's.
    pub fn tests(&self) -> impl Iterator<Item = &Condition> {
        let branches = self.nodes.iter().filter_map(|node| match &node.kind {
            NodeKind::Branch { condition, .. } => Some(condition),
            _ => None,
        });
        branches.chain(self.exit.as_ref())
    }

    /// The segments its tests ask about.
    pub fn segments(&self) -> Vec<i64> {
        let mut segments: Vec<i64> = self
            .tests()
            .filter_map(|test| match test {
                Condition::Segment(segment) => Some(*segment),
                _ => None,
            })
            .collect();
        segments.sort_unstable();
        segments.dedup();
        segments
    }

    /// The node after `node`: where a contact goes once a send or a wait there is done.
    pub fn after(&self, node: usize) -> Option<usize> {
        self.nodes.get(node).and_then(|n| n.next)
    }

    /// A contact's walk from arriving at `from` (`None`: the end) to the next node that holds
    /// it, `holds` answering each branch's test.
    pub fn walk(&self, from: Option<usize>, mut holds: impl FnMut(&Condition) -> bool) -> Walk {
        let mut walk = Walk { passed: Vec::new(), effects: Vec::new(), rest: Rest::Done };
        let mut at = from;
        while let Some(index) = at {
            let Some(node) = self.nodes.get(index) else { break };
            at = match &node.kind {
                NodeKind::Send { .. } | NodeKind::Wait(_) => {
                    walk.rest = Rest::At(index);
                    return walk;
                }
                NodeKind::Branch { condition, then, otherwise } => match holds(condition) {
                    true => *then,
                    false => *otherwise,
                },
                NodeKind::Tag(change) => {
                    walk.effects.push(Effect::Tag(change.clone()));
                    node.next
                }
                NodeKind::List(change) => {
                    walk.effects.push(Effect::List(*change));
                    node.next
                }
                NodeKind::Webhook(url) => {
                    walk.effects.push(Effect::Webhook { url: url.clone(), path: node.path.clone() });
                    node.next
                }
                NodeKind::End => None,
            };
            walk.passed.push(index);
        }
        walk
    }
}

impl Program {
    /// The way a contact would go through every step from the first, as if each send and wait
    /// were done at once, `holds` answering each test: each node it reaches, in order, with its
    /// test's answer for a branch (a trial run: nothing is sent).
    pub fn trial(&self, mut holds: impl FnMut(&Condition) -> bool) -> Vec<(usize, Option<bool>)> {
        let mut way = Vec::new();
        let mut at = (!self.nodes.is_empty()).then_some(0);
        while let Some(index) = at {
            let Some(node) = self.nodes.get(index) else { break };
            at = match &node.kind {
                NodeKind::Branch { condition, then, otherwise } => {
                    let held = holds(condition);
                    way.push((index, Some(held)));
                    if held { *then } else { *otherwise }
                }
                _ => {
                    way.push((index, None));
                    node.next
                }
            };
        }
        way
    }
}

/// Lays `steps` out after the nodes already in `nodes`, their paths under `prefix`; a contact
/// goes to `continuation` after the last of them.
fn lay(steps: &[Step], prefix: &str, continuation: Option<usize>, nodes: &mut Vec<Node>) {
    for (i, step) in steps.iter().enumerate() {
        let index = nodes.len();
        let after_this = index + step::count(std::slice::from_ref(step));
        let next = if i + 1 < steps.len() { Some(after_this) } else { continuation };
        let path = format!("{prefix}{i}");
        let kind = match step {
            Step::Send { text, pushtype, links, sender } => {
                NodeKind::Send { text: text.clone(), pushtype: *pushtype, links: links.clone(), sender: sender.clone() }
            }
            Step::Wait(duration) => NodeKind::Wait(*duration),
            Step::Branch { condition, then, otherwise } => NodeKind::Branch {
                condition: condition.clone(),
                then: if then.is_empty() { next } else { Some(index + 1) },
                otherwise: if otherwise.is_empty() { next } else { Some(index + 1 + step::count(then)) },
            },
            Step::Tag(change) => NodeKind::Tag(change.clone()),
            Step::List(change) => NodeKind::List(*change),
            Step::Webhook(url) => NodeKind::Webhook(url.clone()),
            Step::End => NodeKind::End,
        };
        let next = if matches!(step, Step::End) { None } else { next };
        nodes.push(Node { path: path.clone(), kind, next });
        if let Step::Branch { then, otherwise, .. } = step {
            lay(then, &format!("{path}.then."), next, nodes);
            lay(otherwise, &format!("{path}.else."), next, nodes);
        }
    }
}
