//! Reading a delivery receipt: the `id:` and `stat:`/`err:` of its text, and the delivery code
//! they mean (docs/interface.md §6.3).

/// The delivery code of a receipt's `stat:` and `err:`; `None` when it is not final
/// (ACCEPTD, ENROUTE) or unknown to SMPP 3.4.
pub(crate) fn delivery_code(stat: &str, err: &str) -> Option<i64> {
    match stat {
        "DELIVRD" => Some(3),
        "UNDELIV" if err.trim_start_matches('0') == "1" => Some(5),
        "UNDELIV" => Some(2),
        "EXPIRED" => Some(12),
        "REJECTD" | "DELETED" => Some(9),
        "UNKNOWN" => Some(11),
        _ => None,
    }
}

/// The value of `key:` in a receipt text (`id:1f sub:001 … stat:DELIVRD err:000 text:…`).
pub(super) fn field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let mut rest = text;
    loop {
        let at = rest.find(key)?;
        let before_ok = at == 0 || rest.as_bytes()[at - 1] == b' ';
        let value = &rest[at + key.len()..];
        if before_ok && value.starts_with(':') {
            let value = &value[1..];
            return Some(value.split(' ').next().unwrap_or(""));
        }
        rest = &rest[at + key.len()..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_stat_has_its_reference_code() {
        assert_eq!(delivery_code("DELIVRD", "000"), Some(3));
        assert_eq!(delivery_code("UNDELIV", "001"), Some(5));
        assert_eq!(delivery_code("UNDELIV", "000"), Some(2));
        assert_eq!(delivery_code("UNDELIV", "034"), Some(2));
        assert_eq!(delivery_code("EXPIRED", "000"), Some(12));
        assert_eq!(delivery_code("REJECTD", "000"), Some(9));
        assert_eq!(delivery_code("DELETED", "000"), Some(9));
        assert_eq!(delivery_code("UNKNOWN", "000"), Some(11));
        assert_eq!(delivery_code("ENROUTE", "000"), None);
        assert_eq!(delivery_code("ACCEPTD", "000"), None);
    }

    #[test]
    fn fields_are_read_from_the_text() {
        let text = "id:1f sub:001 dlvrd:001 submit date:2611240705 done date:2611240705 stat:DELIVRD err:000 text:id:x stat:NO";
        assert_eq!(field(text, "id"), Some("1f"));
        assert_eq!(field(text, "stat"), Some("DELIVRD"));
        assert_eq!(field(text, "err"), Some("000"));
        assert_eq!(field(text, "date"), Some("2611240705"));
        assert_eq!(field("nothing here", "id"), None);
    }
}
