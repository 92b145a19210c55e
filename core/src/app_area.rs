//! The web app comes as two bundles: what marketing staff use every day (sign-in, Home,
//! Compose, Campaigns, Inbox, Lists), and the rest, opened less often or by fewer people (the
//! team, tokens, settings, webhooks, the audit log, the profile, sub-accounts, the blacklist,
//! the NPAI list, the replies listing, contacts and segments). The server answers the account area's
//! pages with that bundle's page, and the app reaches them with a full page load, so marketing
//! staff never download it.

/// The pages of the account area, under `/app/`.
pub const ACCOUNT_AREA: &[&str] = &[
    "/app/team",
    "/app/tokens",
    "/app/settings",
    "/app/webhooks",
    "/app/audit",
    "/app/profile",
    "/app/sub-accounts",
    "/app/blacklist",
    "/app/npai",
    "/app/replies",
    "/app/contacts",
    "/app/segments",
];

/// Whether `path` (without query) is a page of the account area.
pub fn in_account_area(path: &str) -> bool {
    let path = path.trim_end_matches('/');
    ACCOUNT_AREA.iter().any(|page| path == *page || path.strip_prefix(page).is_some_and(|rest| rest.starts_with('/')))
}

#[cfg(test)]
mod tests {
    use super::in_account_area;

    #[test]
    fn the_account_area_holds_its_pages_and_their_sub_pages_only() {
        for path in ["/app/team", "/app/team/", "/app/sub-accounts", "/app/audit/x", "/app/npai"] {
            assert!(in_account_area(path), "{path}");
        }
        for path in ["/app", "/app/", "/app/compose", "/app/teams", "/app/campaigns/12", "/team"] {
            assert!(!in_account_area(path), "{path}");
        }
    }
}
