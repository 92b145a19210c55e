//! Reading a delivery receipt: the `id:` and `stat:`/`err:` of its text (the delivery code they
//! mean is [`texto_core::DeliveryCode::from_receipt`]).

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
    fn fields_are_read_from_the_text() {
        let text = "id:1f sub:001 dlvrd:001 submit date:2611240705 done date:2611240705 stat:DELIVRD err:000 text:id:x stat:NO";
        assert_eq!(field(text, "id"), Some("1f"));
        assert_eq!(field(text, "stat"), Some("DELIVRD"));
        assert_eq!(field(text, "err"), Some("000"));
        assert_eq!(field(text, "date"), Some("2611240705"));
        assert_eq!(field("nothing here", "id"), None);
    }
}
