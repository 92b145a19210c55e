//! The schema, brought up to date at start-up: the files of `migrations/`, applied in order,
//! with `PRAGMA user_version` recording how many have run.

use rusqlite::{Connection, OptionalExtension, TransactionBehavior};

use crate::Error;

/// Every migration, in order; the position is the version it brings the schema to.
const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/0001_accounts.sql"),
    include_str!("../../migrations/0002_interface.sql"),
    include_str!("../../migrations/0003_webhook_log.sql"),
    include_str!("../../migrations/0004_usage_counters.sql"),
    include_str!("../../migrations/0005_account_limits.sql"),
    include_str!("../../migrations/0006_delivery.sql"),
    include_str!("../../migrations/0007_health_probe.sql"),
    include_str!("../../migrations/0008_idempotency.sql"),
    include_str!("../../migrations/0009_idempotency_in_campaigns.sql"),
    include_str!("../../migrations/0010_token_http_errors.sql"),
    include_str!("../../migrations/0011_token_details.sql"),
    include_str!("../../migrations/0012_message_lookups.sql"),
    include_str!("../../migrations/0013_retention.sql"),
    include_str!("../../migrations/0014_team.sql"),
    include_str!("../../migrations/0015_two_factor.sql"),
    include_str!("../../migrations/0016_sub_accounts.sql"),
    include_str!("../../migrations/0017_conversations.sql"),
    include_str!("../../migrations/0018_keywords.sql"),
    include_str!("../../migrations/0019_daily_counts.sql"),
    include_str!("../../migrations/0020_account_contacts.sql"),
    include_str!("../../migrations/0021_segments.sql"),
    include_str!("../../migrations/0022_operator.sql"),
    include_str!("../../migrations/0023_suspension.sql"),
    include_str!("../../migrations/0024_operator_sign_in.sql"),
    include_str!("../../migrations/0025_route_plans.sql"),
    include_str!("../../migrations/0026_platform_settings.sql"),
    include_str!("../../migrations/0027_token_makers.sql"),
    include_str!("../../migrations/0028_campaign_senders.sql"),
    include_str!("../../migrations/0029_released_to_the_team.sql"),
    include_str!("../../migrations/0030_ids_never_reused.sql"),
    include_str!("../../migrations/0031_totp_step.sql"),
    include_str!("../../migrations/0032_balance_moved_by_the_store.sql"),
    include_str!("../../migrations/0033_campaign_studio.sql"),
    include_str!("../../migrations/0034_drafts.sql"),
    include_str!("../../migrations/0035_utm.sql"),
    include_str!("../../migrations/0036_marketing_cap.sql"),
    include_str!("../../migrations/0037_campaign_template.sql"),
    include_str!("../../migrations/0038_senders.sql"),
    include_str!("../../migrations/0039_conversions.sql"),
    include_str!("../../migrations/0040_profile_phone.sql"),
    include_str!("../../migrations/0041_ab_tests.sql"),
    include_str!("../../migrations/0042_overseas_zones.sql"),
    include_str!("../../migrations/0043_report_counts.sql"),
    include_str!("../../migrations/0044_inbox_counts.sql"),
    include_str!("../../migrations/0045_inbox_search.sql"),
    include_str!("../../migrations/0046_sending_campaigns.sql"),
    include_str!("../../migrations/0047_segments_match_any.sql"),
    include_str!("../../migrations/0048_journeys.sql"),
    include_str!("../../migrations/0049_journey_triggers.sql"),
    include_str!("../../migrations/0050_journey_webhooks.sql"),
    include_str!("../../migrations/0051_signup_pages.sql"),
    include_str!("../../migrations/0052_journey_claims_in_order.sql"),
    include_str!("../../migrations/0053_checks_without_in_lists.sql"),
];

/// Applies the migrations the database has not seen, each in its own transaction. The version
/// is read inside that (immediate) transaction: a second texto process starting at the same
/// time waits for it, then finds the schema already up to date.
///
/// Foreign keys are off meanwhile, as SQLite asks when a table is rebuilt to change its
/// definition: dropping the old copy of a parent (a list) would otherwise delete its children
/// (the list's contacts). Each migration's result is checked against them before it commits.
pub(super) fn run(connection: &mut Connection) -> Result<(), Error> {
    connection.pragma_update(None, "foreign_keys", "OFF")?;
    let applied = apply(connection);
    connection.pragma_update(None, "foreign_keys", "ON")?;
    applied
}

/// The migrations not applied yet, in order.
fn apply(connection: &mut Connection) -> Result<(), Error> {
    loop {
        let tx = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let version = current_version(&tx)?;
        if version > MIGRATIONS.len() {
            return Err(Error::Migration(format!(
                "the database is at schema version {version}, newer than this texto ({}): use a newer texto",
                MIGRATIONS.len()
            )));
        }
        let Some(sql) = MIGRATIONS.get(version) else {
            tracing::debug!(version, "database schema up to date");
            return Ok(());
        };
        tx.execute_batch(sql).map_err(|e| Error::Migration(format!("migration {}: {e}", version + 1)))?;
        let broken: Option<String> = tx.query_row("PRAGMA foreign_key_check", [], |row| row.get(0)).optional()?;
        if let Some(table) = broken {
            return Err(Error::Migration(format!(
                "migration {} left rows of {table} without their parent",
                version + 1
            )));
        }
        tx.pragma_update(None, "user_version", version + 1)?;
        tx.commit()?;
    }
}

/// The schema version: `user_version`, or for a database made by texto's first releases
/// (which used sqlx), the number of migrations recorded in its `_sqlx_migrations` table.
fn current_version(connection: &Connection) -> Result<usize, Error> {
    let version: i64 = connection.pragma_query_value(None, "user_version", |row| row.get(0))?;
    if version > 0 {
        return Ok(usize::try_from(version).unwrap_or(usize::MAX));
    }
    let sqlx: bool = connection.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations')",
        [],
        |row| row.get(0),
    )?;
    if !sqlx {
        return Ok(0);
    }
    let applied: i64 =
        connection.query_row("SELECT COUNT(*) FROM _sqlx_migrations WHERE success", [], |row| row.get(0))?;
    Ok(usize::try_from(applied).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables(connection: &Connection) -> Vec<String> {
        let mut query =
            connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").expect("a query");
        query.query_map([], |row| row.get(0)).expect("rows").collect::<Result<_, _>>().expect("names")
    }

    #[test]
    fn a_new_database_gets_every_migration_once() {
        let mut connection = Connection::open_in_memory().expect("a database");
        run(&mut connection).expect("migrated");
        run(&mut connection).expect("nothing left to do");
        let version: usize = connection.pragma_query_value(None, "user_version", |row| row.get(0)).expect("a version");
        assert_eq!(version, MIGRATIONS.len());
        assert!(tables(&connection).contains(&"monthly_usage".to_owned()));
    }

    #[test]
    fn a_database_of_the_sqlx_releases_continues_where_it_stopped() {
        let mut connection = Connection::open_in_memory().expect("a database");
        for sql in &MIGRATIONS[..3] {
            connection.execute_batch(sql).expect("an old migration");
        }
        connection
            .execute_batch(
                "CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, success BOOLEAN NOT NULL);
                 INSERT INTO _sqlx_migrations VALUES (1, TRUE), (2, TRUE), (3, TRUE);",
            )
            .expect("sqlx's bookkeeping");
        connection.execute_batch("INSERT INTO accounts (name) VALUES ('old')").expect("old data");
        run(&mut connection).expect("migrated");
        let version: usize = connection.pragma_query_value(None, "user_version", |row| row.get(0)).expect("a version");
        assert_eq!(version, MIGRATIONS.len());
        let kept: i64 = connection.query_row("SELECT COUNT(*) FROM accounts", [], |row| row.get(0)).expect("a count");
        assert_eq!(kept, 1);
    }

    #[test]
    fn two_processes_starting_together_migrate_once() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let path = dir.path().join("race.db");
        let racers: Vec<_> = (0..4)
            .map(|_| {
                let path = path.clone();
                std::thread::spawn(move || {
                    let mut connection = Connection::open(path).expect("a database");
                    connection.busy_timeout(std::time::Duration::from_secs(10)).expect("a busy timeout");
                    run(&mut connection).map_err(|e| e.to_string())
                })
            })
            .collect();
        for racer in racers {
            assert_eq!(racer.join().expect("no panic"), Ok(()));
        }
        let connection = Connection::open(&path).expect("a database");
        let version: usize = connection.pragma_query_value(None, "user_version", |row| row.get(0)).expect("a version");
        assert_eq!(version, MIGRATIONS.len());
    }

    #[test]
    fn campaigns_stuck_before_delivery_existed_are_not_sent_late() {
        let mut connection = Connection::open_in_memory().expect("a database");
        for sql in &MIGRATIONS[..5] {
            connection.execute_batch(sql).expect("an old migration");
        }
        connection.pragma_update(None, "user_version", 5).expect("a version");
        connection
            .execute_batch(
                "INSERT INTO accounts (id, name) VALUES (1, 'old');
                 INSERT INTO campaigns (id, account_id, text, pushtype, status, send_at, created_at, cost, total, sent, blacklisted,
                     duplicated, invalid, npai, not_allowed, flood, country_limit)
                 VALUES (1, 1, 'Code 1234', 'alert', 'sending', '2026-01-01T10:00:00Z', '2026-01-01T10:00:00Z', 1, 1, 1, 0, 0, 0, 0, 0, 0, 0),
                        (2, 1, 'Later', 'alert', 'scheduled', '2099-01-01T10:00:00Z', '2026-01-01T10:00:00Z', 1, 1, 1, 0, 0, 0, 0, 0, 0, 0);
                 INSERT INTO messages (campaign_id, account_id, number, country, parts, cost, text_hash, created_at)
                 VALUES (1, 1, 33612345678, 'FR', 1, 100, 0, '2026-01-01T10:00:00Z'), (2, 1, 33612345679, 'FR', 1, 100, 0, '2026-01-01T10:00:00Z');",
            )
            .expect("old data");
        run(&mut connection).expect("migrated");
        let row = |sql: &str| connection.query_row(sql, [], |r| r.get::<_, String>(0)).expect("a row");
        assert_eq!(
            row(
                "SELECT status || ' ' || (SELECT delivery FROM messages WHERE campaign_id = 1) FROM campaigns WHERE id = 1"
            ),
            "sent 7"
        );
        assert_eq!(
            row(
                "SELECT status || ' ' || (SELECT delivery FROM messages WHERE campaign_id = 2) FROM campaigns WHERE id = 2"
            ),
            "scheduled 0"
        );
    }

    #[test]
    fn campaigns_sent_before_reports_were_counted_keep_their_figures() {
        let mut connection = Connection::open_in_memory().expect("a database");
        for sql in &MIGRATIONS[..42] {
            connection.execute_batch(sql).expect("an old migration");
        }
        connection.pragma_update(None, "user_version", 42).expect("a version");
        connection
            .execute_batch(
                "INSERT INTO accounts (id, name) VALUES (1, 'old');
                 INSERT INTO campaigns (id, account_id, text, pushtype, status, send_at, created_at, cost, total, sent, blacklisted,
                     duplicated, invalid, npai, not_allowed, flood, country_limit)
                 VALUES (1, 1, 'Soldes', 'alert', 'sent', '2026-01-01T10:00:00Z', '2026-01-01T10:00:00Z', 3, 3, 3, 0, 0, 0, 0, 0, 0, 0);
                 INSERT INTO messages (campaign_id, account_id, number, country, parts, cost, text_hash, created_at, delivery, delivered_at)
                 VALUES (1, 1, 33612345678, 'FR', 1, 100, 0, '2026-01-01T10:00:00Z', 3, '2026-01-01T10:00:07Z'),
                        (1, 1, 33612345679, 'FR', 1, 100, 0, '2026-01-01T10:00:00Z', 2, '2026-01-01T11:00:00Z'),
                        (1, 1, 32470123456, 'BE', 1, 100, 0, '2026-01-01T10:00:00Z', 3, '2026-01-01T11:30:00Z');",
            )
            .expect("old data");
        run(&mut connection).expect("migrated");
        let rows = |sql: &str| -> Vec<String> {
            let mut statement = connection.prepare(sql).expect("a query");
            statement.query_map([], |r| r.get(0)).expect("rows").collect::<Result<_, _>>().expect("rows")
        };
        let countries =
            rows("SELECT country || ' ' || sent || ' ' || delivered FROM report_countries ORDER BY country");
        assert_eq!(countries, ["BE 1 1", "FR 2 1"]);
        let hours = rows("SELECT hour || ' ' || delivered FROM report_hours ORDER BY hour");
        assert_eq!(hours, ["2026-01-01T10 1", "2026-01-01T11 1"]);
    }

    #[test]
    fn inboxes_filled_before_their_counts_were_kept_are_counted_and_then_kept() {
        let mut connection = Connection::open_in_memory().expect("a database");
        for sql in &MIGRATIONS[..43] {
            connection.execute_batch(sql).expect("an old migration");
        }
        connection.pragma_update(None, "user_version", 43).expect("a version");
        connection
            .execute_batch(
                "INSERT INTO accounts (id, name) VALUES (1, 'old');
                 INSERT INTO replies (account_id, number, text, stop, received_at) VALUES
                     (1, 33611111101, 'Oui', 0, '2026-01-01T10:00:00Z'), (1, 33611111102, 'Non', 0, '2026-01-01T10:00:00Z');
                 UPDATE conversations SET unread = 0 WHERE number = 33611111101;",
            )
            .expect("old data");
        run(&mut connection).expect("migrated");
        let counts = |connection: &Connection| {
            connection
                .query_row("SELECT conversations || ' ' || unread FROM inbox_counts WHERE account_id = 1", [], |r| {
                    r.get::<_, String>(0)
                })
                .expect("the counts")
        };
        assert_eq!(counts(&connection), "2 1");
        connection
            .execute_batch(
                "INSERT INTO replies (account_id, number, text, stop, received_at) VALUES
                     (1, 33611111101, 'Encore', 0, '2026-01-02T10:00:00Z'), (1, 33611111103, 'Bonjour', 0, '2026-01-02T10:00:00Z');
                 UPDATE conversations SET unread = 0 WHERE number = 33611111102;",
            )
            .expect("new replies and a read");
        assert_eq!(counts(&connection), "3 2");
    }

    #[test]
    fn campaigns_waiting_before_hands_were_recorded_get_the_person_or_the_one_token_named() {
        let mut connection = Connection::open_in_memory().expect("a database");
        for sql in &MIGRATIONS[..27] {
            connection.execute_batch(sql).expect("an old migration");
        }
        connection.pragma_update(None, "user_version", 27).expect("a version");
        connection
            .execute_batch(
                "INSERT INTO accounts (id, name) VALUES (1, 'old');
                 INSERT INTO users (id, account_id, email, name, password_hash, role, created_at)
                 VALUES (7, 1, 'max@old.example', 'Max', '', 'admin', '2026-01-01T10:00:00Z');
                 INSERT INTO api_tokens (id, account_id, token_hash, name) VALUES (3, 1, x'03', 'Shop'),
                     (4, 1, x'04', 'Twice'), (5, 1, x'05', 'Twice');
                 INSERT INTO campaigns (id, account_id, text, pushtype, status, send_at, created_at, cost, total, sent, blacklisted,
                     duplicated, invalid, npai, not_allowed, flood, country_limit, approval, created_by)
                 VALUES (1, 1, 'a', 'alert', 'scheduled', '9999-12-31T00:00:00Z', '2026-01-01T10:00:00Z', 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 'awaiting', 'max@old.example'),
                        (2, 1, 'b', 'alert', 'scheduled', '9999-12-31T00:00:00Z', '2026-01-01T10:00:00Z', 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 'awaiting', 'Shop'),
                        (3, 1, 'c', 'alert', 'scheduled', '9999-12-31T00:00:00Z', '2026-01-01T10:00:00Z', 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 'awaiting', 'Twice');",
            )
            .expect("old data");
        run(&mut connection).expect("migrated");
        let hands: Vec<(Option<i64>, Option<i64>)> = connection
            .prepare("SELECT sent_by_person, sent_by_token FROM campaigns ORDER BY id")
            .expect("a query")
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
            .expect("rows")
            .collect::<Result<_, _>>()
            .expect("hands");
        assert_eq!(hands, [(Some(7), None), (None, Some(3)), (None, None)], "two tokens of one name: nobody known");
    }

    #[test]
    fn rebuilt_tables_keep_their_rows_and_never_give_an_id_twice() {
        let mut connection = Connection::open_in_memory().expect("a database");
        connection.pragma_update(None, "foreign_keys", "ON").expect("foreign keys");
        for sql in &MIGRATIONS[..26] {
            connection.execute_batch(sql).expect("an old migration");
        }
        connection.pragma_update(None, "user_version", 26).expect("a version");
        // List 3 was deleted before the upgrade; a saved segment still names it.
        connection
            .execute_batch(
                r#"INSERT INTO accounts (id, name) VALUES (1, 'old');
                 INSERT INTO lists (id, account_id, name) VALUES (1, 1, 'a'), (2, 1, 'b');
                 INSERT INTO contacts (list_id, number) VALUES (1, 33611111111), (2, 33622222222);
                 INSERT INTO segments (account_id, name, rules, created_at, updated_at)
                 VALUES (1, 's', '[{"type":"list","list":"3"}, "x"]', '', ''), (1, 'odd', 'not JSON', '', '');"#,
            )
            .expect("old data");
        run(&mut connection).expect("migrated");
        let count = |sql: &str| connection.query_row(sql, [], |row| row.get::<_, i64>(0)).expect("a count");
        assert_eq!(count("SELECT COUNT(*) FROM contacts"), 2, "the lists' contacts are kept");
        connection.execute_batch("INSERT INTO lists (account_id, name) VALUES (1, 'c')").expect("a new list");
        assert_eq!(count("SELECT MAX(id) FROM lists"), 4, "above the id the segment names");
        connection.execute_batch("INSERT INTO contacts (list_id, number) VALUES (4, 33633333333)").expect("a contact");
        assert_eq!(count("SELECT COUNT(*) FROM account_contacts"), 3, "the list's numbers are contacts again");
        connection.execute_batch("DELETE FROM lists WHERE id = 1").expect("a deletion");
        assert_eq!(count("SELECT COUNT(*) FROM contacts"), 2, "foreign keys are on again: the list's contacts go");
    }

    /// Migration 53: writing a row checks its values without building a temporary b-tree (a
    /// check's `IN` list of three values or more did), and the checks refuse what they refused.
    #[test]
    fn checks_build_no_temporary_table_and_still_refuse() {
        let mut connection = Connection::open_in_memory().expect("a database");
        run(&mut connection).expect("migrated");
        // Tables with a trigger are left out: the trigger's own statements may need one.
        let tables: Vec<String> = connection
            .prepare(
                "SELECT name FROM sqlite_master AS t WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                 AND NOT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND tbl_name = t.name)",
            )
            .expect("a query")
            .query_map([], |row| row.get(0))
            .expect("rows")
            .collect::<Result<_, _>>()
            .expect("names");
        assert!(tables.iter().any(|table| table == "ledger") && tables.iter().any(|table| table == "campaigns"));
        for table in &tables {
            let opcodes: Vec<String> = connection
                .prepare(&format!("EXPLAIN INSERT INTO \"{table}\" DEFAULT VALUES"))
                .expect("an insert")
                .query_map([], |row| row.get(1))
                .expect("its program")
                .collect::<Result<_, _>>()
                .expect("opcodes");
            assert!(!opcodes.iter().any(|opcode| opcode == "OpenEphemeral"), "{table} builds a temporary table");
        }
        connection.execute_batch("INSERT INTO accounts (id, name) VALUES (1, 'a')").expect("an account");
        let insert = "INSERT INTO ledger (account_id, amount, kind) VALUES (1, 1, ?)";
        assert!(connection.execute(insert, ["gift"]).is_err(), "a kind the ledger does not know");
        assert_eq!(connection.execute(insert, ["topup"]).ok(), Some(1));
    }

    #[test]
    fn a_database_from_a_newer_texto_is_refused() {
        let mut connection = Connection::open_in_memory().expect("a database");
        connection.pragma_update(None, "user_version", MIGRATIONS.len() + 1).expect("a version");
        assert!(matches!(run(&mut connection), Err(Error::Migration(_))));
    }
}
