//! The PostgreSQL schema, brought up to date at start-up under an advisory lock: one node
//! migrates while the others starting at the same time wait, then find it up to date.

use deadpool_postgres::Pool;

use crate::Error;

/// Every migration, in order; the position is the version it brings the schema to.
const MIGRATIONS: &[&str] = &[
    include_str!("../../../migrations/postgres/0001_schema.sql"),
    include_str!("../../../migrations/postgres/0002_campaigns_in_progress.sql"),
    include_str!("../../../migrations/postgres/0003_account_changes.sql"),
    include_str!("../../../migrations/postgres/0004_outbox_without_webhook_key.sql"),
    include_str!("../../../migrations/postgres/0005_idempotency.sql"),
    include_str!("../../../migrations/postgres/0006_health_probe.sql"),
    include_str!("../../../migrations/postgres/0007_token_http_errors.sql"),
    include_str!("../../../migrations/postgres/0008_token_details.sql"),
    include_str!("../../../migrations/postgres/0009_message_lookups.sql"),
    include_str!("../../../migrations/postgres/0010_retention.sql"),
    include_str!("../../../migrations/postgres/0011_team.sql"),
    include_str!("../../../migrations/postgres/0012_two_factor.sql"),
    include_str!("../../../migrations/postgres/0013_sub_accounts.sql"),
    include_str!("../../../migrations/postgres/0014_conversations.sql"),
    include_str!("../../../migrations/postgres/0015_keywords.sql"),
    include_str!("../../../migrations/postgres/0016_daily_counts.sql"),
    include_str!("../../../migrations/postgres/0017_account_contacts.sql"),
    include_str!("../../../migrations/postgres/0018_segments.sql"),
    include_str!("../../../migrations/postgres/0019_operator.sql"),
    include_str!("../../../migrations/postgres/0020_suspension.sql"),
    include_str!("../../../migrations/postgres/0021_operator_sign_in.sql"),
    include_str!("../../../migrations/postgres/0022_route_plans.sql"),
    include_str!("../../../migrations/postgres/0023_platform_settings.sql"),
    include_str!("../../../migrations/postgres/0024_token_makers.sql"),
    include_str!("../../../migrations/postgres/0025_campaign_senders.sql"),
    include_str!("../../../migrations/postgres/0026_released_to_the_team.sql"),
    include_str!("../../../migrations/postgres/0027_totp_step.sql"),
    include_str!("../../../migrations/postgres/0028_campaign_studio.sql"),
    include_str!("../../../migrations/postgres/0029_drafts.sql"),
    include_str!("../../../migrations/postgres/0030_utm.sql"),
    include_str!("../../../migrations/postgres/0031_marketing_cap.sql"),
    include_str!("../../../migrations/postgres/0032_campaign_template.sql"),
    include_str!("../../../migrations/postgres/0033_senders.sql"),
    include_str!("../../../migrations/postgres/0034_conversions.sql"),
    include_str!("../../../migrations/postgres/0035_profile_phone.sql"),
    include_str!("../../../migrations/postgres/0036_ab_tests.sql"),
    include_str!("../../../migrations/postgres/0037_overseas_zones.sql"),
    include_str!("../../../migrations/postgres/0038_report_counts.sql"),
    include_str!("../../../migrations/postgres/0039_inbox_counts.sql"),
    include_str!("../../../migrations/postgres/0040_inbox_search.sql"),
    include_str!("../../../migrations/postgres/0041_sending_campaigns.sql"),
    include_str!("../../../migrations/postgres/0042_segments_match_any.sql"),
    include_str!("../../../migrations/postgres/0043_journeys.sql"),
    include_str!("../../../migrations/postgres/0044_journey_triggers.sql"),
    include_str!("../../../migrations/postgres/0045_journey_webhooks.sql"),
    include_str!("../../../migrations/postgres/0046_signup_pages.sql"),
    include_str!("../../../migrations/postgres/0047_journey_claims_in_order.sql"),
    include_str!("../../../migrations/postgres/0048_journey_entries_room.sql"),
];

/// The advisory lock's key ("texto" in ASCII).
const LOCK: i64 = 0x74_65_78_74_6f;

/// Applies the migrations the database has not seen, each in its own transaction.
pub(super) async fn run(pool: &Pool) -> Result<(), Error> {
    let mut client = pool.get().await?;
    client.execute("SELECT pg_advisory_lock($1)", &[&LOCK]).await?;
    let applied = apply(&mut client).await;
    // Unlocked whatever happened (the session would also drop it when the connection closes).
    client.execute("SELECT pg_advisory_unlock($1)", &[&LOCK]).await?;
    applied
}

async fn apply(client: &mut deadpool_postgres::Client) -> Result<(), Error> {
    let exists: bool = client.query_one("SELECT to_regclass('schema_version') IS NOT NULL", &[]).await?.get(0);
    if !exists {
        client.batch_execute("CREATE TABLE schema_version (version BIGINT NOT NULL)").await?;
    }
    loop {
        let tx = client.transaction().await?;
        let version: i64 = tx.query_opt("SELECT version FROM schema_version", &[]).await?.map_or(0, |row| row.get(0));
        let version = usize::try_from(version).unwrap_or(usize::MAX);
        if version > MIGRATIONS.len() {
            return Err(Error::Migration(format!(
                "the database is at schema version {version}, newer than this texto ({}): use a newer texto",
                MIGRATIONS.len()
            )));
        }
        let Some(sql) = MIGRATIONS.get(version) else {
            return Ok(());
        };
        tx.batch_execute(sql)
            .await
            .map_err(|e| Error::Migration(format!("PostgreSQL migration {}: {e}", version + 1)))?;
        tx.execute("DELETE FROM schema_version", &[]).await?;
        tx.execute("INSERT INTO schema_version (version) VALUES ($1)", &[&(version as i64 + 1)]).await?;
        tx.commit().await?;
        tracing::info!(version = version + 1, "PostgreSQL schema migrated");
    }
}
