//! The in-memory log of what the simulator received, with the parts of concatenated messages
//! held until their last part arrives.

use std::collections::{HashMap, VecDeque};

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::carrier::sms_text::Concat;

/// The most messages kept; the oldest go first.
pub const MAX_MESSAGES: usize = 1_000_000;
/// The most incomplete concatenated messages held; the oldest is dropped beyond it.
const MAX_PENDING: usize = 100_000;

/// One part of a submit_sm as received.
#[derive(Debug, Clone)]
pub struct Part {
    /// The message_id the simulator gave this part.
    pub message_id: String,
    /// Where the message came from.
    pub source_addr: String,
    /// Where it goes.
    pub destination_addr: String,
    /// Its data_coding.
    pub data_coding: u8,
    /// Its validity_period as sent (empty: the SMSC's default).
    pub validity_period: String,
    /// Its place in a concatenated message, if it is one.
    pub concat: Option<Concat>,
    /// The short message without the UDH.
    pub payload: Vec<u8>,
    /// When it arrived.
    pub received_at: DateTime<Utc>,
}

/// A whole message, as `GET /messages` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct Message {
    /// The message_id of its first part.
    pub message_id: String,
    /// Where it came from.
    pub source_addr: String,
    /// Where it goes.
    pub destination_addr: String,
    /// Its data_coding.
    pub data_coding: u8,
    /// Its validity_period as sent (empty: the SMSC's default).
    pub validity_period: String,
    /// How many parts it had.
    pub parts: usize,
    /// The parts' text, decoded and joined.
    pub text: String,
    /// When its first part arrived (RFC 3339).
    pub received_at: String,
    /// The message_id of each of its parts: an ESME knows the message by one of them.
    #[serde(skip)]
    pub part_ids: Vec<String>,
    /// Its place in the order of arrival (1 for the first message since the start).
    #[serde(skip)]
    pub position: u64,
}

type PendingKey = (String, String, u16);

/// The log and the incomplete concatenated messages.
#[derive(Debug, Default)]
pub struct Store {
    messages: VecDeque<Message>,
    pending: HashMap<PendingKey, Vec<Part>>,
    pending_order: VecDeque<PendingKey>,
    /// Messages completed since the start, kept or not.
    received: u64,
}

impl Store {
    /// Records a part; returns the message and all its parts once it is complete.
    pub fn add(&mut self, part: Part) -> Option<(Message, Vec<Part>)> {
        let parts = match part.concat {
            Some(concat) if concat.total > 1 => {
                let key = (part.source_addr.clone(), part.destination_addr.clone(), concat.reference);
                let entry = self.pending.entry(key.clone()).or_default();
                if entry.is_empty() {
                    self.pending_order.push_back(key.clone());
                }
                if !entry.iter().any(|p| p.concat.map(|c| c.seq) == Some(concat.seq)) {
                    entry.push(part);
                }
                if entry.len() < usize::from(concat.total) {
                    self.trim_pending();
                    return None;
                }
                let mut parts = self.pending.remove(&key).unwrap_or_default();
                self.pending_order.retain(|k| *k != key);
                parts.sort_by_key(|p| p.concat.map(|c| c.seq));
                parts
            }
            _ => vec![part],
        };
        let first = &parts[0];
        let text: String = parts.iter().map(|p| texto_core::decode_short_message(p.data_coding, &p.payload)).collect();
        let message = Message {
            message_id: first.message_id.clone(),
            source_addr: first.source_addr.clone(),
            destination_addr: first.destination_addr.clone(),
            data_coding: first.data_coding,
            validity_period: first.validity_period.clone(),
            parts: parts.len(),
            text,
            received_at: first.received_at.to_rfc3339(),
            part_ids: parts.iter().map(|p| p.message_id.clone()).collect(),
            position: self.received + 1,
        };
        self.received += 1;
        if self.messages.len() == MAX_MESSAGES {
            self.messages.pop_front();
        }
        self.messages.push_back(message.clone());
        Some((message, parts))
    }

    fn trim_pending(&mut self) {
        while self.pending_order.len() > MAX_PENDING {
            if let Some(key) = self.pending_order.pop_front() {
                self.pending.remove(&key);
            }
        }
    }

    /// How many messages were received since the start (the newest [`MAX_MESSAGES`] are kept).
    pub fn received(&self) -> u64 {
        self.received
    }

    /// The newest `limit` messages that arrived before the one at `before` (a
    /// [`Message::position`]; all of them without it), newest first, optionally to one
    /// destination only.
    pub fn list(&self, destination: Option<&str>, before: Option<u64>, limit: usize) -> Vec<Message> {
        // Positions grow along the log: the messages before `before` are a prefix of it.
        let end = before.map_or(self.messages.len(), |before| self.messages.partition_point(|m| m.position < before));
        self.messages
            .range(..end)
            .rev()
            .filter(|m| destination.is_none_or(|d| m.destination_addr == d))
            .take(limit)
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(id: &str, concat: Option<Concat>, payload: &[u8]) -> Part {
        Part {
            message_id: id.into(),
            source_addr: "36180".into(),
            destination_addr: "33612345678".into(),
            data_coding: 0,
            validity_period: String::new(),
            concat,
            payload: payload.to_vec(),
            received_at: Utc::now(),
        }
    }

    #[test]
    fn parts_are_joined_in_order() {
        let mut store = Store::default();
        let second = Some(Concat { reference: 1, total: 2, seq: 2 });
        let first = Some(Concat { reference: 1, total: 2, seq: 1 });
        assert!(store.add(part("2", second, b"lo")).is_none());
        let (message, parts) = store.add(part("1", first, b"Hel")).unwrap();
        assert_eq!((message.message_id.as_str(), message.text.as_str(), message.parts), ("1", "Hello", 2));
        assert_eq!(parts.len(), 2);
        store.add(part("3", None, b"x"));
        let listed = store.list(Some("33612345678"), None, 10);
        assert_eq!(listed.iter().map(|m| m.message_id.as_str()).collect::<Vec<_>>(), ["3", "1"]);
        assert_eq!(listed[1].part_ids, ["1", "2"], "every part's id, in the parts' order");
        assert!(store.list(Some("1"), None, 10).is_empty());
        assert_eq!(store.list(None, None, 1).len(), 1);
        let older = store.list(None, Some(listed[0].position), 10);
        assert_eq!(older.iter().map(|m| m.message_id.as_str()).collect::<Vec<_>>(), ["1"], "only what came before");
    }
}
