//! A serving node keeps a copy of what the filter reads of an account besides its blacklist
//! and NPAI (balance, anti-flood limits, country rules); a change made through another node
//! reaches that node's next send all the same.

use chrono::{Duration, Utc};
use texto_core::{Country, Credits, FloodLimits};

use super::nodes::two_nodes;
use crate::store::{AccountStore, CampaignStore, CountryRuleChange};

#[tokio::test]
async fn a_change_made_on_one_node_reaches_the_next_send_on_another() {
    let Some((first, second)) = two_nodes().await else { return };
    let account = second.create_account("acme", Credits::whole(100)).await.expect("an account");
    let (france, belgium) = (Country::from_iso2("FR").expect("France"), Country::from_iso2("BE").expect("Belgium"));
    let number = 33_612_345_678;
    let now = Utc::now();
    for read in ["the first read", "a read from the copy"] {
        let inputs = first.filter_inputs(account, &[number], 0, now).await.expect("the filter's inputs");
        assert_eq!((inputs.balance, inputs.flood), (Credits::whole(100), FloodLimits::default()), "{read}");
        assert!(inputs.allowed_countries.is_none() && inputs.monthly_caps.is_empty(), "{read}");
    }

    let read = || async { first.filter_inputs(account, &[number], 0, now).await.expect("the filter's inputs") };
    second.top_up(account, Credits::whole(5)).await.expect("a top-up");
    assert_eq!(read().await.balance, Credits::whole(105), "the top-up");
    second.update_flood_limits(account, Some(1), Some(2)).await.expect("new limits");
    assert_eq!(read().await.flood, FloodLimits { identical_per_hour: 1, any_per_hour: 2 }, "the new limits");
    second
        .update_country_rule(account, france, CountryRuleChange { allowed: Some(false), monthly_cap: None })
        .await
        .expect("France blocked");
    let allowed = read().await.allowed_countries.expect("a country is blocked");
    assert!(!allowed.contains(&france) && allowed.contains(&belgium), "France is blocked");
    second
        .update_country_rule(account, belgium, CountryRuleChange { allowed: None, monthly_cap: Some(Some(10)) })
        .await
        .expect("a cap");
    assert_eq!(read().await.monthly_caps.get(&belgium), Some(&10), "the cap");
    second.execute_batch(&format!("INSERT INTO blacklist (account_id, number, created_at) VALUES ({account}, {number}, '2026-11-24T10:00:00Z')"))
        .await
        .expect("a blacklisted number");
    assert!(read().await.blacklist.contains(&number), "the blacklist is read for every send");
}

#[tokio::test]
async fn a_change_made_outside_texto_reaches_the_copy_within_a_minute() {
    let Some((first, second)) = two_nodes().await else { return };
    let account = second.create_account("acme", Credits::whole(100)).await.expect("an account");
    let now = Utc::now();
    let first = &first;
    let limits = |at| async move {
        first.filter_inputs(account, &[33_612_345_678], 0, at).await.expect("the filter's inputs").flood
    };
    assert_eq!(limits(now).await, FloodLimits::default());
    second
        .execute_batch(&format!("UPDATE accounts SET flood_any_per_hour = 3 WHERE id = {account}"))
        .await
        .expect("an operator's SQL");
    assert_eq!(limits(now + Duration::seconds(61)).await.any_per_hour, 3, "read again after a minute");
}
