//! The accounts' price plans, held in memory for sends and simulations and read again from the
//! database each second, so that `texto plan set` and `texto account plan` reach every node
//! within a second.

use std::{
    collections::HashMap,
    sync::{Arc, RwLock},
};

use texto_core::PriceTable;
use tokio_util::sync::CancellationToken;

use crate::{
    Error,
    store::{AccountId, PlanStore, plans::SHIPPED},
};

/// A plan: its name and prices.
pub(crate) type Plan = (Arc<str>, Arc<PriceTable>);

/// Every account's plan; accounts on none pay the shipped prices.
pub(crate) struct PricePlans {
    shipped: Plan,
    by_account: RwLock<Arc<HashMap<AccountId, Plan>>>,
}

impl Default for PricePlans {
    fn default() -> PricePlans {
        PricePlans { shipped: (Arc::from(SHIPPED), Arc::new(PriceTable::default())), by_account: RwLock::default() }
    }
}

impl PricePlans {
    /// The plan `account` pays by.
    pub(crate) fn for_account(&self, account: AccountId) -> Plan {
        let by_account = Arc::clone(&self.by_account.read().unwrap_or_else(|e| e.into_inner()));
        by_account.get(&account).cloned().unwrap_or_else(|| self.shipped.clone())
    }

    /// Reads the plans and the accounts on them again.
    pub(crate) async fn refresh(&self, store: &dyn PlanStore) -> Result<(), Error> {
        let plans: HashMap<String, Plan> = store
            .plans()
            .await?
            .into_iter()
            .map(|(name, table)| (name.clone(), (Arc::from(name.as_str()), Arc::new(table))))
            .collect();
        let by_account = store
            .account_plans()
            .await?
            .into_iter()
            .filter_map(|(account, name)| plans.get(&name).map(|plan| (account, plan.clone())))
            .collect();
        *self.by_account.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(by_account);
        Ok(())
    }
}

/// Refreshes `plans` every second until stopped.
pub(crate) async fn run(plans: Arc<PricePlans>, store: Arc<dyn PlanStore>, stop: CancellationToken) {
    crate::operator::settings_reload::run("price plans", stop, || plans.refresh(store.as_ref())).await;
}
