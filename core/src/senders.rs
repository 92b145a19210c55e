//! Registered sender IDs: once an account has registered senders (`texto sender add`), a send
//! may only name one of them, and one without a sender goes from the account's default.

use crate::{FieldError, Sender};

/// The sender to give a send, given the account's `registered` senders and its `default`:
/// `None` when the send keeps its own (the account registers none; or the send names none and
/// there is no default), the registered spelling of the one it names (case does not matter),
/// the default when it names none, and a problem naming the sender when the account registers
/// others only.
pub fn registered_sender(
    named: Option<&Sender>,
    registered: &[String],
    default: Option<&str>,
) -> Result<Option<String>, FieldError> {
    match named {
        None => Ok(default.map(str::to_owned)),
        Some(_) if registered.is_empty() => Ok(None),
        Some(sender) if let Some(spelled) = registered.iter().find(|r| r.eq_ignore_ascii_case(sender.as_str())) => {
            Ok(Some(spelled.clone()))
        }
        Some(sender) => Err(FieldError::new(
            "sms.message.sender",
            format!("\"{}\" is not a registered sender of the account: {}", sender.as_str(), registered.join(", ")),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sender(name: &str) -> Sender {
        Sender::parse(name).expect("a sender")
    }

    #[test]
    fn only_registered_senders_go_once_the_account_has_some() {
        let registered = vec!["Boutique".to_owned(), "Atelier".to_owned()];
        assert_eq!(
            registered_sender(Some(&sender("boutique")), &registered, None),
            Ok(Some("Boutique".to_owned())),
            "case does not matter: the registered spelling goes"
        );
        let refused = registered_sender(Some(&sender("Promo")), &registered, None).expect_err("not registered");
        assert_eq!(refused.path, "sms.message.sender");
        assert!(refused.message.contains("\"Promo\""), "{}", refused.message);
        assert_eq!(registered_sender(None, &registered, Some("Atelier")), Ok(Some("Atelier".to_owned())));
        assert_eq!(registered_sender(None, &registered, None), Ok(None), "the short code");
        assert_eq!(
            registered_sender(Some(&sender("Promo")), &[], None),
            Ok(None),
            "no rule without registered senders"
        );
    }
}
