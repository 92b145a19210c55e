//! Balance alert settings in SQLite (`balance_alerts`, one row per account).

use async_trait::async_trait;
use sqlx::Row;

use super::SqliteStore;
use crate::{
    Error,
    store::{AccountId, BalanceAlert, NotificationStore},
};

#[async_trait]
impl NotificationStore for SqliteStore {
    async fn balance_alert(&self, account: AccountId) -> Result<Option<BalanceAlert>, Error> {
        let row = sqlx::query("SELECT alert_trigger, alert_email, alert_gsm, email, phone_number FROM balance_alerts WHERE account_id = ?")
            .bind(account)
            .fetch_optional(&self.read)
            .await?;
        let Some(row) = row else { return Ok(None) };
        Ok(Some(BalanceAlert {
            trigger: row.try_get(0)?,
            email_enabled: row.try_get::<i64, _>(1)? != 0,
            gsm_enabled: row.try_get::<i64, _>(2)? != 0,
            email: row.try_get(3)?,
            phone_number: row.try_get(4)?,
        }))
    }

    async fn set_balance_alert(&self, account: AccountId, alert: &BalanceAlert) -> Result<(), Error> {
        sqlx::query(
            "INSERT INTO balance_alerts (account_id, alert_trigger, alert_email, alert_gsm, email, phone_number)
             VALUES (?, ?, ?, ?, ?, ?)
             ON CONFLICT (account_id) DO UPDATE SET alert_trigger = excluded.alert_trigger, alert_email = excluded.alert_email,
                 alert_gsm = excluded.alert_gsm, email = excluded.email, phone_number = excluded.phone_number",
        )
        .bind(account)
        .bind(alert.trigger)
        .bind(alert.email_enabled)
        .bind(alert.gsm_enabled)
        .bind(&alert.email)
        .bind(&alert.phone_number)
        .execute(&self.write)
        .await?;
        Ok(())
    }
}
