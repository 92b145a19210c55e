//! Stop words (docs/interface.md §7.2): a reply that is one of them unsubscribes its sender.

/// The stop words, upper case.
const STOP_WORDS: [&str; 5] = ["STOP", "STOP SMS", "ARRET", "ARRÊT", "UNSUBSCRIBE"];

/// True when `reply` is a stop word, in any case, ignoring the spaces and the final
/// punctuation around it (`" Stop ! "`), and runs of spaces inside (`"stop  sms"`).
pub fn is_stop_word(reply: &str) -> bool {
    let trimmed = reply.trim().trim_end_matches(['.', '!', '?']).trim();
    let words: Vec<String> = trimmed.split_whitespace().map(str::to_uppercase).collect();
    let joined = words.join(" ");
    STOP_WORDS.contains(&joined.as_str())
}

#[cfg(test)]
mod tests {
    use super::is_stop_word;

    #[test]
    fn stop_words_in_any_case() {
        for reply in
            ["STOP", "stop", "Stop SMS", " stop  sms ", "arret", "Arrêt", "ARRÊT", "unsubscribe", "STOP!", "Stop."]
        {
            assert!(is_stop_word(reply), "{reply:?}");
        }
        for reply in ["", "STOPPED", "please stop", "stop it", "ARRETEZ", "Merci"] {
            assert!(!is_stop_word(reply), "{reply:?}");
        }
    }
}
