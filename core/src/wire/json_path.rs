//! The field path of a JSON deserialization error, told from where serde_json stopped.
//!
//! The server names a failing field by deserializing the document a second time through
//! `serde_path_to_error`, which instantiates every DTO's deserializer once more (and wraps
//! every visitor): a large share of the npm package's WebAssembly. The package finds the same
//! path from the error's line and column instead. serde_json stops right after a value it
//! refuses, right before an object or array it refuses, or right inside an array refused as
//! soon as it opened; a value that a field reader refuses after reading it whole leaves
//! serde_json at the comma after it or after the enclosing object. The lenient readers say
//! which case it was ([`Hint`]). The path is written as `serde_path_to_error` writes it.

use serde_json::Value;

use super::{
    hint::{FINGERPRINT_START, Hint, fingerprint, take_hint},
    json_read::prefixed,
};

/// The failing field of a JSON body, as the server's `failing_path` finds it, without a second
/// deserializer: the document (its root value) is written again as JSON text, so that
/// duplicate keys resolve as in a JSON value, and `reread` reads that text; the field is told
/// from where it stops (see [`path_at`]).
pub(super) fn reread_path(
    body: &str,
    root: Option<&str>,
    reread: &dyn Fn(&str) -> Result<(), serde_json::Error>,
) -> Option<String> {
    let value = serde_json::from_str::<Value>(body).ok()?;
    let text = match root {
        Some(root) => value.get(root)?.to_string(),
        None => value.to_string(),
    };
    take_hint();
    let error = reread(&text).err()?;
    // `text` is well-formed: a syntax error is an array with more items than its reader took.
    let trailing = error.classify() == serde_json::error::Category::Syntax;
    let path = path_at(&text, error.line(), error.column(), take_hint(), trailing);
    Some(prefixed(root, &display(&path)))
}

/// One step of a path: an object's key or an array's index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Segment {
    Key(String),
    Index(usize),
}

/// The path of the value at which a deserializer of `text` stopped at `line`:`column`
/// (serde_json's position: 1-based line, bytes of the line read so far). `text` must be
/// well-formed JSON up to that point.
///
/// `trailing`: serde_json refused more items in an array than its reader took ("trailing
/// characters", at the first extra item); the path is the array's.
pub(crate) fn path_at(text: &str, line: usize, column: usize, hint: Hint, trailing: bool) -> Vec<Segment> {
    let offset = offset_of(text, line, column);
    match hint {
        _ if trailing => path_at_offset(text, offset.saturating_sub(1), Stop::Inside),
        Hint::FieldValue { map } => path_at_offset(text, refused_value_end(text, offset, map), Stop::At),
        Hint::None => path_at_offset(text, offset, Stop::At),
        Hint::RejectedSequence => path_at_offset(text, offset, Stop::AtRejectedSequence),
    }
}

/// The byte offset of serde_json's `line`:`column` in `text`.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start = match line {
        0 | 1 => 0,
        _ => text.match_indices('\n').nth(line - 2).map_or(text.len(), |(at, _)| at + 1),
    };
    line_start.saturating_add(column)
}

/// The number of items of the array in which serde_json found trailing items (see
/// [`path_at`]).
pub(crate) fn trailing_array_len(text: &str, line: usize, column: usize) -> usize {
    let offset = offset_of(text, line, column).saturating_sub(1);
    // Per open container: commas seen, and whether it has an item.
    let mut open: Vec<(usize, bool)> = Vec::new();
    let mut target = None;
    for (start, _, token) in Tokens::new(text) {
        if target.is_none() && start >= offset {
            target = Some(open.len());
        }
        if let (Some(top), Token::Open(_) | Token::Scalar) = (open.last_mut(), token) {
            top.1 = true;
        }
        match token {
            Token::Open(_) => open.push((0, false)),
            Token::Close => {
                if target == Some(open.len()) {
                    return open.last().map_or(0, |&(commas, items)| if items { commas + 1 } else { 0 });
                }
                open.pop();
            }
            Token::Comma => {
                if let Some(top) = open.last_mut() {
                    top.0 += 1;
                }
            }
            Token::Key | Token::Colon | Token::Scalar => {}
        }
    }
    0
}

/// `path` as `serde_path_to_error` displays it: keys joined by `.`, indexes as `[i]`, `.` alone
/// for the document itself.
pub(crate) fn display(path: &[Segment]) -> String {
    if path.is_empty() {
        return ".".to_owned();
    }
    let mut text = String::new();
    for (n, segment) in path.iter().enumerate() {
        match segment {
            Segment::Key(key) => {
                if n > 0 {
                    text.push('.');
                }
                text.push_str(key);
            }
            Segment::Index(index) => {
                text.push('[');
                text.push_str(&index.to_string());
                text.push(']');
            }
        }
    }
    text
}

/// A token of JSON text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Token {
    /// `{` or `[`.
    Open(u8),
    /// `}` or `]`.
    Close,
    Colon,
    Comma,
    /// An object's key.
    Key,
    /// A string, number, `true`, `false` or `null` in a value's place.
    Scalar,
}

/// The tokens of JSON text with their start and end offsets.
pub(super) struct Tokens<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Whether each open container is an object.
    objects: Vec<bool>,
    expect_key: bool,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Self {
        Tokens::starting_at(text, 0)
    }

    /// The tokens of `text` from the byte offset `at`, where a value starts.
    pub(super) fn starting_at(text: &'a str, at: usize) -> Self {
        Tokens { bytes: text.as_bytes(), at, objects: Vec::new(), expect_key: false }
    }
}

impl Iterator for Tokens<'_> {
    type Item = (usize, usize, Token);

    fn next(&mut self) -> Option<Self::Item> {
        let bytes = self.bytes;
        let mut i = self.at;
        while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r') {
            i += 1;
        }
        let start = i;
        let c = *bytes.get(i)?;
        i += 1;
        let token = match c {
            b'{' | b'[' => {
                self.objects.push(c == b'{');
                self.expect_key = c == b'{';
                Token::Open(c)
            }
            b'}' | b']' => {
                self.objects.pop();
                self.expect_key = false;
                Token::Close
            }
            b':' => Token::Colon,
            b',' => {
                self.expect_key = self.objects.last() == Some(&true);
                Token::Comma
            }
            b'"' => {
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(bytes.len());
                match std::mem::replace(&mut self.expect_key, false) {
                    true => Token::Key,
                    false => Token::Scalar,
                }
            }
            _ => {
                while i < bytes.len() && !matches!(bytes[i], b',' | b']' | b'}' | b':' | b' ' | b'\t' | b'\n' | b'\r') {
                    i += 1;
                }
                Token::Scalar
            }
        };
        self.at = i;
        Some((start, i, token))
    }
}

/// Where the value ends that a field reader refused, serde_json having stopped at `offset`:
/// the last scalar before it, or for an object (`map`: the fingerprint of its keys) the last
/// object with those keys closed before it (serde_json may have gone on to close the
/// enclosing object).
fn refused_value_end(text: &str, offset: usize, map: Option<u64>) -> usize {
    let mut last = offset;
    // The fingerprints of the open containers (arrays too, unused).
    let mut open: Vec<u64> = Vec::new();
    for (start, end, token) in Tokens::new(text) {
        if start >= offset {
            break;
        }
        match token {
            Token::Scalar if map.is_none() => last = end,
            Token::Open(_) => open.push(FINGERPRINT_START),
            Token::Key => {
                let key = serde_json::from_str::<String>(&text[start..end]).unwrap_or_default();
                if let Some(hash) = open.last_mut() {
                    *hash = fingerprint(*hash, &key);
                }
            }
            Token::Close => {
                if open.pop().is_some_and(|keys| Some(keys) == map) && text.as_bytes()[start] == b'}' {
                    last = end;
                }
            }
            Token::Scalar | Token::Colon | Token::Comma => {}
        }
    }
    last
}

/// One open object or array, and the key or index of its current member.
enum Frame {
    Object(Option<String>),
    Array(usize),
}

/// The path through the first `depth` frames.
fn path_of(stack: &[Frame], depth: usize) -> Vec<Segment> {
    stack[..depth]
        .iter()
        .map(|frame| match frame {
            Frame::Object(key) => Segment::Key(key.clone().unwrap_or_else(|| "?".to_owned())),
            Frame::Array(index) => Segment::Index(*index),
        })
        .collect()
}

/// What the position at which serde_json stopped points at.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// The value ending or starting there.
    At,
    /// Likewise, an array having been refused as a whole as soon as it opened.
    AtRejectedSequence,
    /// The innermost object or array open there.
    Inside,
}

/// The path of the value that ends at byte `offset`, else of the one that starts there (for
/// the first item of an array: of the array, when it was refused as a whole or the item is
/// a scalar, which serde_json reads before refusing), else of the innermost open container
/// (also after a key: an item refused after its first key was read).
fn path_at_offset(text: &str, offset: usize, stop: Stop) -> Vec<Segment> {
    let mut stack: Vec<Frame> = Vec::new();
    let mut before = None;
    for (start, end, token) in Tokens::new(text) {
        if start == offset && stop != Stop::Inside && matches!(token, Token::Open(_) | Token::Scalar) {
            let rejected = stop == Stop::AtRejectedSequence;
            let inside = matches!(before, Some(Token::Open(b'['))) && (token == Token::Scalar || rejected);
            return path_of(&stack, if inside { stack.len() - 1 } else { stack.len() });
        }
        if start >= offset {
            break;
        }
        match token {
            Token::Open(c) => stack.push(if c == b'{' { Frame::Object(None) } else { Frame::Array(0) }),
            Token::Close => {
                stack.pop();
            }
            Token::Comma => {
                if let Some(Frame::Array(index)) = stack.last_mut() {
                    *index += 1;
                }
            }
            Token::Key => {
                let key = serde_json::from_str::<String>(&text[start..end]).unwrap_or_default();
                if let Some(Frame::Object(current)) = stack.last_mut() {
                    *current = Some(key);
                }
            }
            Token::Colon | Token::Scalar => {}
        }
        if end == offset && stop != Stop::Inside && matches!(token, Token::Close | Token::Scalar) {
            return path_of(&stack, stack.len());
        }
        before = Some(token);
    }
    path_of(&stack, stack.len().saturating_sub(1))
}
