//! Balance alert settings in SQLite (`balance_alerts`, one row per account).

use async_trait::async_trait;
use rusqlite::{Connection, OptionalExtension, params};

use super::SqliteStore;
use crate::{
    Error,
    store::{AccountId, BalanceAlert, NotificationStore, notification::read_alert},
};

/// The account's balance alert settings, if it saved any.
pub(super) fn settings(db: &Connection, account: AccountId) -> Result<Option<BalanceAlert>, Error> {
    Ok(db
        .prepare_cached("SELECT alert_trigger, alert_email, alert_gsm, email, phone_number FROM balance_alerts WHERE account_id = ?")?
        .query_row([account], |row| read_alert(row, 0))
        .optional()?)
}

#[async_trait]
impl NotificationStore for SqliteStore {
    async fn balance_alert(&self, account: AccountId) -> Result<Option<BalanceAlert>, Error> {
        self.db.read(move |db| settings(db, account)).await
    }

    async fn set_balance_alert(&self, account: AccountId, alert: &BalanceAlert) -> Result<(), Error> {
        let alert = alert.clone();
        self.db
            .write(move |db| {
                db.execute(
                    "INSERT INTO balance_alerts (account_id, alert_trigger, alert_email, alert_gsm, email, phone_number)
                     VALUES (?, ?, ?, ?, ?, ?)
                     ON CONFLICT (account_id) DO UPDATE SET alert_trigger = excluded.alert_trigger, alert_email = excluded.alert_email,
                         alert_gsm = excluded.alert_gsm, email = excluded.email, phone_number = excluded.phone_number",
                    params![account, alert.trigger, alert.email_enabled, alert.gsm_enabled, alert.email, alert.phone_number],
                )?;
                Ok(())
            })
            .await
    }
}
