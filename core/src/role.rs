//! Who may do what in an account: the five roles of a team and the one table of what each
//! may do. The server checks it on every route; the web app reads it to hide what a role
//! cannot do.

use std::{fmt, str::FromStr};

/// A person's or a token's role in an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Everything, including handing ownership over.
    Owner,
    /// Everything but handing ownership over.
    Admin,
    /// Compose, simulate, send, cancel and approve; lists, blacklist, NPAI, webhooks; reads
    /// everything.
    Sender,
    /// Compose and simulate; a send waits for approval; lists.
    Author,
    /// Reads only: campaigns, messages, replies, statistics, exports, the audit log.
    Analyst,
}

/// What a request does, as the role table knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Read the account's campaigns, messages, replies, lists, statistics and exports.
    Read,
    /// Read the audit log.
    ReadAudit,
    /// Compose and simulate; send, where a role without [`Action::Send`] sends for approval.
    Compose,
    /// Send at once, and cancel a scheduled campaign.
    Send,
    /// Approve or reject a campaign awaiting approval.
    Approve,
    /// Create, change and delete lists and their contacts.
    EditLists,
    /// Change the blacklist, the NPAI list and the webhooks.
    EditDelivery,
    /// Manage the team, the API tokens, the sub-accounts and the account's settings.
    Manage,
    /// Make someone an owner, or change or remove an owner.
    HandOver,
}

impl Role {
    /// Every role, the most powerful first.
    pub const ALL: [Role; 5] = [Role::Owner, Role::Admin, Role::Sender, Role::Author, Role::Analyst];

    /// Whether this role may do `action`: the role table.
    pub fn may(self, action: Action) -> bool {
        use Action::*;
        match self {
            Role::Owner => true,
            Role::Admin => action != HandOver,
            Role::Sender => matches!(action, Read | ReadAudit | Compose | Send | Approve | EditLists | EditDelivery),
            Role::Author => matches!(action, Read | Compose | EditLists),
            Role::Analyst => matches!(action, Read | ReadAudit),
        }
    }

    /// The stored and wire name (`owner`).
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Admin => "admin",
            Role::Sender => "sender",
            Role::Author => "author",
            Role::Analyst => "analyst",
        }
    }
}

impl Action {
    /// Every action.
    pub const ALL: [Action; 9] = [
        Action::Read,
        Action::ReadAudit,
        Action::Compose,
        Action::Send,
        Action::Approve,
        Action::EditLists,
        Action::EditDelivery,
        Action::Manage,
        Action::HandOver,
    ];

    /// A short name for error details and docs (`send`).
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Read => "read",
            Action::ReadAudit => "read the audit log",
            Action::Compose => "compose",
            Action::Send => "send",
            Action::Approve => "approve campaigns",
            Action::EditLists => "edit lists",
            Action::EditDelivery => "edit the blacklist, NPAI and webhooks",
            Action::Manage => "manage the team, tokens and settings",
            Action::HandOver => "hand ownership over",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = String;

    /// A role by its name, in any case.
    fn from_str(name: &str) -> Result<Role, String> {
        let name = name.trim();
        Role::ALL
            .into_iter()
            .find(|role| role.as_str().eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("{name:?} is not a role: owner, admin, sender, author or analyst"))
    }
}

#[cfg(test)]
mod tests {
    use super::{Action, Role};

    #[test]
    fn the_table_grants_each_role_what_the_issue_lists() {
        let granted = |role: Role| Action::ALL.into_iter().filter(|a| role.may(*a)).count();
        assert_eq!(granted(Role::Owner), Action::ALL.len());
        assert_eq!(granted(Role::Admin), Action::ALL.len() - 1);
        assert!(!Role::Admin.may(Action::HandOver));
        assert!(Role::Sender.may(Action::Send) && Role::Sender.may(Action::Approve));
        assert!(!Role::Sender.may(Action::Manage));
        assert!(Role::Author.may(Action::Compose) && Role::Author.may(Action::EditLists));
        assert!(!Role::Author.may(Action::Send) && !Role::Author.may(Action::Approve));
        assert!(!Role::Author.may(Action::EditDelivery) && !Role::Author.may(Action::ReadAudit));
        assert!(Role::Analyst.may(Action::Read) && Role::Analyst.may(Action::ReadAudit));
        assert_eq!(granted(Role::Analyst), 2);
    }

    #[test]
    fn roles_read_back_from_their_names_in_any_case() {
        for role in Role::ALL {
            assert_eq!(role.as_str().parse::<Role>(), Ok(role));
            assert_eq!(role.as_str().to_uppercase().parse::<Role>(), Ok(role));
        }
        assert!("root".parse::<Role>().unwrap_err().contains("not a role"));
    }
}
