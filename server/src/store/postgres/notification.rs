//! Balance alert settings in PostgreSQL (`balance_alerts`, one row per account).

use async_trait::async_trait;

use super::PgStore;
use crate::{
    Error,
    store::{AccountId, BalanceAlert, NotificationStore, notification::read_alert},
};

#[async_trait]
impl NotificationStore for PgStore {
    async fn balance_alert(&self, account: AccountId) -> Result<Option<BalanceAlert>, Error> {
        let client = self.pool.get().await?;
        let row = client
            .query_opt("SELECT alert_trigger, alert_email, alert_gsm, email, phone_number FROM balance_alerts WHERE account_id = $1", &[&account])
            .await?;
        Ok(row.map(|row| read_alert(&row, 0)).transpose()?)
    }

    async fn set_balance_alert(&self, account: AccountId, alert: &BalanceAlert) -> Result<(), Error> {
        let client = self.pool.get().await?;
        client
            .execute(
                "INSERT INTO balance_alerts (account_id, alert_trigger, alert_email, alert_gsm, email, phone_number)
                 VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (account_id) DO UPDATE SET alert_trigger = excluded.alert_trigger, alert_email = excluded.alert_email,
                     alert_gsm = excluded.alert_gsm, email = excluded.email, phone_number = excluded.phone_number",
                &[&account, &alert.trigger, &alert.email_enabled, &alert.gsm_enabled, &alert.email, &alert.phone_number],
            )
            .await?;
        Ok(())
    }
}
