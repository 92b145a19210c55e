//! A segment's rules as a `WHERE` clause over the account's contacts, `a`
//! ([`super::account_contacts::BOOK`]).
//! Engagements are semi-joins on the account's messages, clicks and replies, which read the
//! indexes on (account, time) and on campaigns rather than one look-up per contact.

use chrono::{DateTime, Duration, Utc};
use texto_core::{ContactField, DeliveryCode, Engagement, EngagementWindow, FieldTest, SegmentMatch, SegmentRule};

use super::{
    AccountId,
    conditions::{Conditions, SqlValue, contains_pattern},
    time,
};

/// Which store the clause is written for (they read JSON and numbers differently).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// SQLite.
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

/// The conditions a contact of `account` meets to be in a segment of `rules` combined by
/// `matching`, as of `now`. No rule: every contact, whichever the match.
pub(crate) fn segment_conditions(
    account: AccountId,
    matching: SegmentMatch,
    rules: &[SegmentRule],
    now: DateTime<Utc>,
    dialect: Dialect,
) -> Conditions {
    let mut conditions = Conditions::default();
    conditions.require("1 = 1", []);
    let each = rules.iter().map(|rule| rule_conditions(account, rule, now, dialect));
    match matching {
        SegmentMatch::All => each.for_each(|rule| conditions.extend(rule)),
        SegmentMatch::Any => conditions.require_any(each.collect()),
    }
    conditions
}

/// The conditions of one rule.
fn rule_conditions(account: AccountId, rule: &SegmentRule, now: DateTime<Utc>, dialect: Dialect) -> Conditions {
    let mut conditions = Conditions::default();
    match rule {
        SegmentRule::Field { field, test, value } => field_condition(&mut conditions, field, *test, value, dialect),
        SegmentRule::Tag(tag) => {
            // Tags are a JSON array of strings: the quoted tag is looked for.
            let quoted = serde_json::to_string(tag).unwrap_or_default();
            // SQLite's LIKE ignores the case of ASCII letters already (and reads faster).
            let tags = if dialect == Dialect::Sqlite { "a.tags" } else { "lower(a.tags)" };
            conditions.require(&format!("{tags} LIKE ? ESCAPE '\\'"), [contains_pattern(&quoted)]);
        }
        SegmentRule::List(list) => conditions.require(
            // The API checks that the list is the account's when rules are saved; the list
            // may be deleted since, so it is checked again here.
            "EXISTS (SELECT 1 FROM contacts c JOIN lists l ON l.id = c.list_id
                     WHERE c.list_id = ? AND l.account_id = a.account_id AND c.number = a.number)",
            [SqlValue::Int(*list)],
        ),
        SegmentRule::Consent(true) => conditions.require("a.opt_in_at IS NOT NULL AND a.opt_out_at IS NULL", []),
        SegmentRule::Consent(false) => {
            conditions.require("(a.opt_in_at IS NULL OR a.opt_out_at IS NOT NULL)", []);
        }
        SegmentRule::Engaged { what, window, negated } => {
            engagement_condition(&mut conditions, account, *what, *window, *negated, now);
        }
    }
    conditions
}

/// The value of a contact's field on `a` (`account_contacts`), '' when it has none.
pub(crate) fn field_value(field: &ContactField, dialect: Dialect) -> String {
    match (field, dialect) {
        (ContactField::FirstName, _) => "COALESCE(a.firstname, '')".to_owned(),
        (ContactField::LastName, _) => "COALESCE(a.lastname, '')".to_owned(),
        // The name is letters, digits and `_` (checked by the core): safe to write in.
        (ContactField::Custom(name), Dialect::Sqlite) => format!("COALESCE(json_extract(a.fields, '$.{name}'), '')"),
        (ContactField::Custom(name), Dialect::Postgres) => format!("COALESCE(a.fields::jsonb ->> '{name}', '')"),
    }
}

/// A field compared with a value: text without regard to case; `before` and `after` compare
/// numbers as numbers when the value is one, and other texts (dates as `Y-m-d`) as texts.
fn field_condition(conditions: &mut Conditions, field: &ContactField, test: FieldTest, value: &str, dialect: Dialect) {
    let column = field_value(field, dialect);
    let compare = |sign: &str| -> (String, Vec<SqlValue>) {
        match value.parse::<f64>().ok().filter(|n| n.is_finite()) {
            // A number parsed by Rust is written back as digits: safe to write in.
            Some(number) => {
                let numeric = match dialect {
                    Dialect::Sqlite => format!(
                        "CASE WHEN {column} <> '' AND {column} NOT GLOB '*[^0-9.+-]*' THEN CAST({column} AS REAL) END"
                    ),
                    // No `?` in the pattern: the clause's `?`s become PostgreSQL's parameters.
                    Dialect::Postgres => format!(
                        "CASE WHEN {column} ~ '^[+-]{{0,1}}[0-9]+([.][0-9]+){{0,1}}$' THEN CAST({column} AS DOUBLE PRECISION) END"
                    ),
                };
                (format!("{numeric} {sign} {number:?}"), Vec::new())
            }
            None => (format!("{column} <> '' AND {column} {sign} ?"), vec![SqlValue::Text(value.to_owned())]),
        }
    };
    let (condition, values) = match test {
        FieldTest::Equals => (format!("lower({column}) = ?"), vec![SqlValue::Text(value.to_lowercase())]),
        FieldTest::Contains => (format!("lower({column}) LIKE ? ESCAPE '\\'"), vec![contains_pattern(value)]),
        FieldTest::Before => compare("<"),
        FieldTest::After => compare(">"),
    };
    conditions.require(&condition, values);
}

/// "Delivered", "clicked" or "replied" (or, negated, not) in a window.
fn engagement_condition(
    conditions: &mut Conditions,
    account: AccountId,
    what: Engagement,
    window: EngagementWindow,
    negated: bool,
    now: DateTime<Utc>,
) {
    let since = |days: u32| SqlValue::Text(time::store(now - Duration::days(i64::from(days))));
    let mut values = vec![SqlValue::Int(account)];
    let numbers = match what {
        Engagement::Delivered => {
            let mut sql = format!(
                "SELECT m.number FROM messages m WHERE m.account_id = ? AND m.delivery = {}",
                DeliveryCode::Delivered.code()
            );
            match window {
                EngagementWindow::Ever => {}
                EngagementWindow::LastDays(days) => {
                    sql.push_str(" AND m.created_at >= ?");
                    values.push(since(days));
                }
                EngagementWindow::Campaign(campaign) => {
                    sql.push_str(" AND m.campaign_id = ?");
                    values.push(SqlValue::Int(campaign));
                }
            }
            sql
        }
        Engagement::Clicked => {
            let mut sql = "SELECT m.number FROM clicks k JOIN messages m ON m.id = k.message_id WHERE m.account_id = ?"
                .to_owned();
            match window {
                EngagementWindow::Ever => {}
                EngagementWindow::LastDays(days) => {
                    sql.push_str(" AND k.clicked_at >= ?");
                    values.push(since(days));
                }
                EngagementWindow::Campaign(campaign) => {
                    sql.push_str(" AND k.campaign_id = ?");
                    values.push(SqlValue::Int(campaign));
                }
            }
            sql
        }
        Engagement::Replied => {
            let mut sql = "SELECT r.number FROM replies r WHERE r.account_id = ?".to_owned();
            match window {
                EngagementWindow::Ever => {}
                EngagementWindow::LastDays(days) => {
                    sql.push_str(" AND r.received_at >= ?");
                    values.push(since(days));
                }
                EngagementWindow::Campaign(campaign) => {
                    sql.push_str(" AND r.message_id IN (SELECT id FROM messages WHERE campaign_id = ?)");
                    values.push(SqlValue::Int(campaign));
                }
            }
            sql
        }
    };
    let not = if negated { "NOT " } else { "" };
    conditions.require(&format!("a.number {not}IN ({numbers})"), values);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_is_compared_as_a_number_and_a_date_as_text() {
        let field = ContactField::Custom("age".into());
        let rules = [
            SegmentRule::Field { field: field.clone(), test: FieldTest::After, value: "30".into() },
            SegmentRule::Field { field, test: FieldTest::Before, value: "2026-01-31".into() },
        ];
        let conditions = segment_conditions(7, SegmentMatch::All, &rules, Utc::now(), Dialect::Sqlite);
        let sql = conditions.sqlite();
        assert!(sql.contains("CAST(COALESCE(json_extract(a.fields, '$.age'), '') AS REAL) END > 30.0"), "{sql}");
        assert!(sql.contains("<> '' AND COALESCE(json_extract(a.fields, '$.age'), '') < ?"), "{sql}");
        assert_eq!(conditions.values(), [SqlValue::Text("2026-01-31".into())]);
    }

    #[test]
    fn any_rule_is_one_condition_of_alternatives_and_no_rule_is_every_contact() {
        let rules = [SegmentRule::Tag("vip".into()), SegmentRule::List(12), SegmentRule::Consent(true)];
        let conditions = segment_conditions(7, SegmentMatch::Any, &rules, Utc::now(), Dialect::Sqlite);
        let sql = conditions.sqlite();
        assert!(sql.starts_with("1 = 1 AND ((a.tags LIKE ? ESCAPE '\\') OR (EXISTS"), "{sql}");
        assert!(sql.ends_with("OR (a.opt_in_at IS NOT NULL AND a.opt_out_at IS NULL))"), "{sql}");
        assert_eq!(conditions.values(), [SqlValue::Text("%\"vip\"%".into()), SqlValue::Int(12)]);
        for matching in SegmentMatch::ALL {
            assert_eq!(segment_conditions(7, matching, &[], Utc::now(), Dialect::Sqlite).sqlite(), "1 = 1");
        }
    }

    #[test]
    fn an_engagement_in_the_last_days_reads_from_that_day_on() {
        let now = "2026-03-31T10:00:00Z".parse().expect("time");
        let rule =
            SegmentRule::Engaged { what: Engagement::Clicked, window: EngagementWindow::LastDays(30), negated: true };
        let conditions = segment_conditions(7, SegmentMatch::All, &[rule], now, Dialect::Postgres);
        assert!(conditions.postgres(2).contains("a.number NOT IN (SELECT m.number FROM clicks k"));
        assert_eq!(conditions.values(), [SqlValue::Int(7), SqlValue::Text(time::store(now - Duration::days(30)))]);
    }
}
