//! The web app comes as four bundles for an account's people, so that none passes 500 KB
//! served: the marketing bundle (sign-in, Home, Compose), the audience and conversations (lists,
//! contacts, segments, the blacklist, NPAI, templates, the inbox and the replies listing), the
//! campaigns with the account area (campaigns and their pages; the team, tokens, settings,
//! webhooks, the audit log, the profile, sub-accounts), and automation (journeys). The server answers each area's pages with its bundle's page, and
//! the app reaches another bundle's page with a full page load.

/// The pages of the audience and conversations, under `/app/`.
pub const AUDIENCE_AREA: &[&str] = &[
    "/app/lists",
    "/app/contacts",
    "/app/segments",
    "/app/blacklist",
    "/app/npai",
    "/app/templates",
    "/app/inbox",
    "/app/replies",
];

/// The pages of the campaigns and of the account area, under `/app/`.
pub const ACCOUNT_AREA: &[&str] = &[
    "/app/campaigns",
    "/app/team",
    "/app/tokens",
    "/app/settings",
    "/app/webhooks",
    "/app/audit",
    "/app/profile",
    "/app/sub-accounts",
];

/// The pages of automation, under `/app/`: what sends on its own, opened by fewer people.
pub const AUTOMATION_AREA: &[&str] = &["/app/journeys", "/app/signup-pages"];

/// The bundle a page of the app belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppArea {
    /// Sign-in, Home, Compose (and any other path).
    Marketing,
    /// [`AUDIENCE_AREA`].
    Audience,
    /// [`ACCOUNT_AREA`].
    Account,
    /// [`AUTOMATION_AREA`].
    Automation,
}

/// The area of `path` (without query): a page of an area or one of its sub-pages.
pub fn app_area(path: &str) -> AppArea {
    let path = path.trim_end_matches('/');
    let holds = |pages: &[&str]| {
        pages.iter().any(|page| path == *page || path.strip_prefix(page).is_some_and(|rest| rest.starts_with('/')))
    };
    if holds(AUDIENCE_AREA) {
        AppArea::Audience
    } else if holds(ACCOUNT_AREA) {
        AppArea::Account
    } else if holds(AUTOMATION_AREA) {
        AppArea::Automation
    } else {
        AppArea::Marketing
    }
}

#[cfg(test)]
mod tests {
    use super::{AppArea, app_area};

    #[test]
    fn each_area_holds_its_pages_and_their_sub_pages_only() {
        for path in ["/app/team", "/app/team/", "/app/sub-accounts", "/app/audit/x", "/app/campaigns/12"] {
            assert_eq!(app_area(path), AppArea::Account, "{path}");
        }
        for path in ["/app/lists/3", "/app/inbox", "/app/inbox/33612345678", "/app/templates", "/app/npai"] {
            assert_eq!(app_area(path), AppArea::Audience, "{path}");
        }
        for path in ["/app/journeys", "/app/journeys/4"] {
            assert_eq!(app_area(path), AppArea::Automation, "{path}");
        }
        for path in ["/app", "/app/", "/app/compose", "/app/home", "/app/teams", "/team", "/app/listsx"] {
            assert_eq!(app_area(path), AppArea::Marketing, "{path}");
        }
    }
}
