//! Routes: which connectors may carry a message, in failover order. The rules
//! are pure: the routes are read from the database, the connectors' health is the delivery
//! side's, and [`Routes::candidates`] only matches.

use std::{collections::HashMap, fmt, str::FromStr, sync::Arc};

use texto_core::{Country, Msisdn, PushType};

use crate::store::AccountId;

/// The connector `--smsc` defines, which takes every message no route matches.
pub(crate) const DEFAULT_CONNECTOR: &str = "default";

/// A connector's name: 1 to 32 letters, digits, `-` or `_`.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConnectorName(Arc<str>);

impl ConnectorName {
    /// `default`, the `--smsc` connector.
    pub(crate) fn default_connector() -> ConnectorName {
        ConnectorName(Arc::from(DEFAULT_CONNECTOR))
    }

    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether this is `default`.
    pub(crate) fn is_default(&self) -> bool {
        &*self.0 == DEFAULT_CONNECTOR
    }
}

impl FromStr for ConnectorName {
    type Err = String;

    fn from_str(text: &str) -> Result<ConnectorName, String> {
        let fits = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        if text.is_empty() || text.len() > 32 || !text.chars().all(fits) {
            return Err(format!("{text:?} is not a connector name (1 to 32 letters, digits, - or _)"));
        }
        Ok(ConnectorName(Arc::from(text)))
    }
}

impl fmt::Display for ConnectorName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for ConnectorName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", &*self.0)
    }
}

/// The destinations a route is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Destination {
    /// Numbers whose international digits begin with these.
    Prefix(String),
    /// Numbers of this country's mobile ranges.
    Country(Country),
}

impl Destination {
    /// A prefix of 1 to 15 digits.
    pub(crate) fn prefix(digits: &str) -> Result<Destination, String> {
        let digits = digits.trim_start_matches('+');
        if digits.is_empty() || digits.len() > 15 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("{digits:?} is not a prefix of international digits (such as 33 or 336)"));
        }
        Ok(Destination::Prefix(digits.to_owned()))
    }

    /// A country by its ISO code.
    pub(crate) fn country(code: &str) -> Result<Destination, String> {
        Country::from_iso2(code).map(Destination::Country).ok_or_else(|| format!("{code:?} is not a country code"))
    }

    /// A country's ISO code (`FR`, any case) or a prefix (`33`, `+336`), as the console writes it.
    pub(crate) fn parse(text: &str) -> Result<Destination, String> {
        let text = text.trim();
        if text.len() == 2 && text.bytes().all(|b| b.is_ascii_alphabetic()) {
            Destination::country(&text.to_ascii_uppercase())
        } else {
            Destination::prefix(text)
        }
    }

    /// The stored form: `prefix:33` or `country:FR`.
    pub(crate) fn to_column(&self) -> String {
        match self {
            Destination::Prefix(digits) => format!("prefix:{digits}"),
            Destination::Country(country) => format!("country:{}", country.iso2()),
        }
    }

    /// Reads [`Destination::to_column`].
    pub(crate) fn from_column(text: &str) -> Result<Destination, String> {
        match text.split_once(':') {
            Some(("prefix", digits)) => Destination::prefix(digits),
            Some(("country", code)) => Destination::country(code),
            _ => Err(format!("{text:?} is not a stored destination")),
        }
    }
}

impl fmt::Display for Destination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Destination::Prefix(digits) => write!(f, "+{digits}"),
            Destination::Country(country) => f.write_str(country.iso2()),
        }
    }
}

/// A route: what it matches (`None`: anything), and its connectors in failover order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Route {
    /// Its id.
    pub(crate) id: i64,
    /// Higher first; among equals, the older (lower id) first.
    pub(crate) priority: i64,
    /// The destinations it is for.
    pub(crate) destination: Option<Destination>,
    /// The account it is for.
    pub(crate) account: Option<AccountId>,
    /// The push type it is for.
    pub(crate) pushtype: Option<PushType>,
    /// The price plan whose accounts it is for (`shipped`: accounts on no plan).
    pub(crate) plan: Option<String>,
    /// Where its messages go, the first available first (never empty).
    pub(crate) connectors: Vec<ConnectorName>,
}

/// What a message is, as far as routes are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Traits {
    /// International digits.
    pub(crate) number: u64,
    /// The sending account.
    pub(crate) account: AccountId,
    /// Alert or marketing.
    pub(crate) pushtype: PushType,
}

/// The routes in the order they are tried.
#[derive(Debug, Clone)]
pub(crate) struct Routes {
    routes: Vec<Route>,
    fallback: [ConnectorName; 1],
    by_country: bool,
    /// The plan of each account on one, when some route matches a plan.
    plans: HashMap<AccountId, String>,
}

impl Default for Routes {
    /// No route: everything goes to `default`.
    fn default() -> Routes {
        Routes::new(Vec::new())
    }
}

impl Routes {
    /// Orders `routes`: highest priority first, then oldest first.
    pub(crate) fn new(mut routes: Vec<Route>) -> Routes {
        routes.sort_by_key(|route| (std::cmp::Reverse(route.priority), route.id));
        let by_country = routes.iter().any(|route| matches!(route.destination, Some(Destination::Country(_))));
        Routes { routes, fallback: [ConnectorName::default_connector()], by_country, plans: HashMap::new() }
    }

    /// Whether some route matches a price plan (then [`Routes::with_plans`] needs the accounts').
    pub(crate) fn by_plan(&self) -> bool {
        self.routes.iter().any(|route| route.plan.is_some())
    }

    /// These routes, knowing which account is on which plan.
    pub(crate) fn with_plans(self, plans: impl IntoIterator<Item = (AccountId, String)>) -> Routes {
        Routes { plans: plans.into_iter().collect(), ..self }
    }

    /// The connectors of the first route that matches, in failover order; `default` when none does.
    pub(crate) fn candidates(&self, message: Traits) -> &[ConnectorName] {
        if self.routes.is_empty() {
            return &self.fallback;
        }
        let digits = message.number.to_string();
        let country = if self.by_country { Msisdn::from_u64(message.number).ok().map(Msisdn::country) } else { None };
        let matches = |route: &Route| {
            route.account.is_none_or(|account| account == message.account)
                && route.pushtype.is_none_or(|pushtype| pushtype == message.pushtype)
                && route.plan.as_deref().is_none_or(|plan| {
                    self.plans.get(&message.account).map_or(crate::store::plans::SHIPPED, String::as_str) == plan
                })
                && match &route.destination {
                    None => true,
                    Some(Destination::Prefix(prefix)) => digits.starts_with(prefix.as_str()),
                    Some(Destination::Country(wanted)) => country == Some(*wanted),
                }
        };
        self.routes.iter().find(|route| matches(route)).map_or(&self.fallback, |route| &route.connectors)
    }
}

/// The id under which a message handed to `connector` is stored, and its receipts looked up:
/// the SMSC's own for `default` (as before connectors existed), prefixed by the connector's
/// name otherwise, since two SMSCs may hand out the same ids.
pub(crate) fn stored_smsc_id(connector: &ConnectorName, smsc_id: &str) -> String {
    if connector.is_default() { smsc_id.to_owned() } else { format!("{connector}:{smsc_id}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(text: &str) -> ConnectorName {
        text.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    fn route(id: i64, priority: i64, destination: Option<Destination>, connectors: &[&str]) -> Route {
        Route {
            id,
            priority,
            destination,
            account: None,
            pushtype: None,
            plan: None,
            connectors: connectors.iter().map(|c| name(c)).collect(),
        }
    }

    fn to(number: u64) -> Traits {
        Traits { number, account: 1, pushtype: PushType::Alert }
    }

    #[test]
    fn the_first_matching_route_by_priority_then_age_decides() {
        let routes = Routes::new(vec![
            route(1, 0, Some(Destination::prefix("33").unwrap()), &["A", "B"]),
            route(2, 0, Some(Destination::country("BE").unwrap()), &["B"]),
            route(3, 5, Some(Destination::prefix("3361").unwrap()), &["C"]),
            route(4, 0, Some(Destination::prefix("33").unwrap()), &["D"]),
        ]);
        assert_eq!(routes.candidates(to(33612345678)), &[name("C")]);
        assert_eq!(routes.candidates(to(33712345678)), &[name("A"), name("B")]);
        assert_eq!(routes.candidates(to(32470123456)), &[name("B")]);
        assert_eq!(routes.candidates(to(447700900123)), &[name("default")]);
    }

    #[test]
    fn account_and_pushtype_narrow_a_route() {
        let mut only = route(1, 0, None, &["A"]);
        only.account = Some(7);
        only.pushtype = Some(PushType::Marketing);
        let routes = Routes::new(vec![only]);
        let marketing = |account| Traits { number: 33612345678, account, pushtype: PushType::Marketing };
        assert_eq!(routes.candidates(marketing(7)), &[name("A")]);
        assert_eq!(routes.candidates(marketing(8)), &[name("default")]);
        assert_eq!(routes.candidates(Traits { pushtype: PushType::Alert, ..marketing(7) }), &[name("default")]);
    }

    #[test]
    fn a_plan_narrows_a_route_to_its_accounts_and_shipped_to_those_on_none() {
        let mut gold = route(1, 0, None, &["A"]);
        gold.plan = Some("gold".into());
        let mut shipped = route(2, 0, None, &["B"]);
        shipped.plan = Some("shipped".into());
        let routes = Routes::new(vec![gold, shipped]);
        assert!(routes.by_plan());
        let routes = routes.with_plans([(7, "gold".to_owned()), (8, "silver".to_owned())]);
        let from = |account| Traits { number: 33612345678, account, pushtype: PushType::Alert };
        assert_eq!(routes.candidates(from(7)), &[name("A")]);
        assert_eq!(routes.candidates(from(9)), &[name("B")], "on no plan: shipped");
        assert_eq!(routes.candidates(from(8)), &[name("default")], "another plan");
        assert!(!Routes::new(vec![route(3, 0, None, &["C"])]).by_plan());
    }

    #[test]
    fn names_destinations_and_stored_ids() {
        for bad in ["", "a b", "é", &"x".repeat(33)] {
            assert!(bad.parse::<ConnectorName>().is_err(), "{bad:?}");
        }
        assert!(Destination::prefix("3a").is_err());
        assert!(Destination::country("XX").is_err());
        let fr = Destination::country("fr").unwrap();
        assert_eq!(Destination::from_column(&fr.to_column()), Ok(fr));
        assert_eq!(Destination::from_column("prefix:+33").unwrap().to_string(), "+33");
        assert_eq!(stored_smsc_id(&name("default"), "42"), "42");
        assert_eq!(stored_smsc_id(&name("A"), "42"), "A:42");
    }
}
