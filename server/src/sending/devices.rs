//! Brand, model and OS of the phone behind a User-Agent, read with uap-core's regexes (by the
//! `uaparser` crate) and remembered per User-Agent: phones of one campaign share a few.

use std::{
    collections::HashMap,
    sync::{Mutex, OnceLock},
};

use uaparser::{Parser, UserAgentParser};

/// uap-core's regexes (see `server/data/README.md`).
const REGEXES: &[u8] = include_bytes!("../../data/ua-regexes.yaml");
/// User-Agents remembered; the memory is emptied when full.
const MOST_REMEMBERED: usize = 10_000;

/// A phone's brand, model and OS (empty when unknown).
pub(crate) type Device = [String; 3];

/// The parser, built on first use (it compiles about a thousand regexes), and what it found.
#[derive(Default)]
pub(crate) struct Devices {
    parser: OnceLock<Option<UserAgentParser>>,
    seen: Mutex<HashMap<String, Device>>,
}

impl Devices {
    /// What was found for `user_agent` before, without parsing.
    pub(crate) fn remembered(&self, user_agent: &str) -> Option<Device> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner()).get(user_agent).cloned()
    }

    /// Parses `user_agent` (slow the first time for each: call it off the async threads).
    pub(crate) fn device(&self, user_agent: &str) -> Device {
        if let Some(device) = self.remembered(user_agent) {
            return device;
        }
        let device = match self.parser() {
            Some(parser) => {
                let found = parser.parse_device(user_agent);
                let os = parser.parse_os(user_agent);
                let known =
                    |value: Option<std::borrow::Cow<'_, str>>| value.map(|v| v.into_owned()).unwrap_or_default();
                let os = if os.family == "Other" { String::new() } else { os.family.into_owned() };
                [known(found.brand), known(found.model), os]
            }
            None => Device::default(),
        };
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        if seen.len() >= MOST_REMEMBERED {
            seen.clear();
        }
        seen.insert(user_agent.to_owned(), device.clone());
        device
    }

    fn parser(&self) -> Option<&UserAgentParser> {
        self.parser
            .get_or_init(|| {
                UserAgentParser::builder()
                    .with_user_agent(false)
                    .with_unicode_support(false)
                    .build_from_bytes(REGEXES)
                    .map_err(|error| {
                        tracing::error!(?error, "the User-Agent regexes do not load: clicks get no device")
                    })
                    .ok()
            })
            .as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phones_are_recognised() {
        let devices = Devices::default();
        let iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1";
        assert_eq!(devices.device(iphone), ["Apple".to_owned(), "iPhone".to_owned(), "iOS".to_owned()]);
        let samsung = "Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Mobile Safari/537.36";
        let [brand, model, os] = devices.device(samsung);
        assert_eq!((brand.as_str(), os.as_str()), ("Samsung", "Android"));
        assert!(model.starts_with("SM-S911B"), "{model}");
        assert_eq!(devices.remembered(samsung).map(|d| d[0].clone()), Some("Samsung".to_owned()));
        assert_eq!(devices.device("curl/8.0"), [String::new(), String::new(), String::new()]);
    }
}
