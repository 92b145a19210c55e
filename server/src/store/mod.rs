//! Where texto keeps its data: one trait per resource, together the [`Store`]. The embedded
//! SQLite database implements them ([`sqlite::SqliteStore`]), and so does PostgreSQL for
//! several nodes ([`postgres::PgStore`]); handlers and workers see only the traits.

pub(crate) mod ab_tests;
pub(crate) mod account_contacts;
mod accounts;
pub(crate) mod approval;
pub(crate) mod audit;
mod campaign_filter;
mod campaign_rows;
mod campaigns;
mod clicks;
mod columns;
mod conditions;
mod consumption;
#[cfg(test)]
mod contract;
mod conversations;
pub(crate) mod conversions;
pub(crate) mod daily;
pub(crate) mod delivery;
pub(crate) mod drafts;
mod driver_errors;
mod effects;
mod event_batch;
pub(crate) mod faults;
mod flood_window;
mod idempotency;
pub(crate) mod journey_plans;
pub(crate) mod journey_runs;
pub(crate) mod journeys;
mod keyword_effects;
pub(crate) mod keywords;
mod list_upkeep;
mod lists;
pub(crate) mod merge_cards;
mod messages;
pub(crate) mod moderation;
pub(crate) mod money;
mod notification;
mod number_lists;
mod open;
pub(crate) mod operators;
mod outbox;
mod pausing;
pub(crate) mod plans;
pub(crate) mod postgres;
pub(crate) mod replies_kept;
mod report;
mod retention;
pub(crate) mod routing;
pub(crate) mod segment_sql;
pub(crate) mod segments;
mod senders;
mod sending_campaigns;
pub(crate) mod signups;
mod simulator;
pub(crate) mod sqlite;
mod sub_accounts;
pub(crate) mod team;
mod team_rows;
mod team_rules;
pub(crate) mod team_sessions;
pub(crate) mod templates;
mod time;
mod token_rows;
mod tokens;
pub(crate) mod wave;
mod webhooks;
mod zones;

pub(crate) use ab_tests::AbTestStore;
pub(crate) use account_contacts::ContactStore;
pub use accounts::HttpErrors;
pub(crate) use accounts::{AccountStore, CountryRule, CountryRuleChange, token_hash};
pub(crate) use approval::ApprovalStore;
pub(crate) use audit::{AuditEntry, AuditFilter, AuditPage, AuditStore};
pub(crate) use campaign_filter::{CampaignFilter, SortOrder};
pub(crate) use campaign_rows::{CampaignRow, MessageRow, SEGMENT_PREFIX, per_country};
pub(crate) use campaigns::{CampaignRecord, CampaignStatus, CampaignStore, FilterInputs, NewCampaign};
pub(crate) use clicks::{ClickStore, Clicker, Followed, LinkClicks};
pub(crate) use conditions::SqlValue;
pub(crate) use consumption::{ConsumptionStore, CountryConsumption, consumption_conditions, consumption_query};
pub(crate) use conversations::{ConversationFilter, ConversationStore};
pub(crate) use conversions::ConversionStore;
pub(crate) use daily::{DailyStore, DayCounts};
pub(crate) use delivery::{Arrival, CampaignText, Click, DeliveryStore, HandOff, Notice, Queued};
pub(crate) use drafts::{DraftStore, SavedDraft, SentCampaign};
pub(crate) use effects::{REPLIES_WITHIN_DAYS, reply_number};
pub(crate) use idempotency::{Created, IdempotencyKey, StoredAnswer, kept_since, prune_due, replay_of};
pub(crate) use journey_plans::JourneyPlanStore;
pub(crate) use journey_runs::JourneyRunStore;
pub(crate) use journeys::JourneyStore;
pub(crate) use keyword_effects::answer_sender;
pub(crate) use keywords::{
    AccountSettings, AutoReplyOutcome, DueAutoReply, KeywordChange, KeywordRule, KeywordSaved, KeywordStore,
};
pub(crate) use list_upkeep::{ContactChange, ContactUpdate, ListUpkeep};
pub(crate) use lists::{Added, ContactSearch, ListContact, ListPage, ListStore, ListSummary};
pub(crate) use messages::{CampaignNumber, MessageFilter, MessageRecord, MessageStore, ReplyFilter, ReplyRecord};
pub(crate) use moderation::{HeldCampaign, ModerationStore};
pub(crate) use notification::{BalanceAlert, NotificationStore};
pub(crate) use number_lists::{
    EntryRef, NewContact, NumberEntry, NumberFilter, NumberList, NumberListStore, NumberPage,
};
pub use open::DbLocation;
pub(crate) use open::{for_commands, for_serving};
pub(crate) use operators::{OperatorRecord, OperatorStore};
pub(crate) use outbox::{Attempt, AttemptResult, DueEvent, NextStep, OutboxStore};
pub(crate) use pausing::Pausing;
pub(crate) use plans::PlanStore;
pub(crate) use report::ReportStore;
pub(crate) use retention::{Cursor, Expiry, RetentionSettings, RetentionStore, expiry_statement};
pub(crate) use routing::{ConnectorConfig, ConnectorStatus, RoutingStore};
pub(crate) use segments::SegmentStore;
pub(crate) use senders::SenderStore;
pub(crate) use signups::SignupStore;
pub(crate) use simulator::SimulatorStore;
pub(crate) use sub_accounts::{NewSubAccount, SubAccountRecord, SubAccountStore};
pub(crate) use team::{LinkKind, OneTimeLink, SessionGrant, SessionOwner, TeamStore, TwoFactor, UserRecord};
pub(crate) use team_rules::{TeamRules, TeamRulesStore};
pub(crate) use templates::{SavedTemplate, TemplateStore};
pub(crate) use tokens::{NewToken, TokenGrant, TokenRecord, TokenStore, ranges_to_column, role_from_column};
pub(crate) use webhooks::{
    DeliveryRecord, NewWebhook, WebhookChange, WebhookRecord, WebhookStatus, WebhookStore, WebhookType,
};

/// An account's id.
pub type AccountId = i64;

/// A window of a long listing: `start` (0) and `length` (100, at most 1000).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(default)]
pub(crate) struct Page {
    pub(crate) start: i64,
    pub(crate) length: i64,
}

impl Default for Page {
    fn default() -> Page {
        Page { start: 0, length: 100 }
    }
}

impl Page {
    /// `start` when a query leaves it out: 0.
    pub(crate) fn first_record() -> i64 {
        Page::default().start
    }

    /// `length` when a query leaves it out: 100.
    pub(crate) fn records_per_page() -> i64 {
        Page::default().length
    }

    /// The page with `start` at least 0 and `length` between 1 and 1000.
    pub(crate) fn clamped(self) -> Page {
        Page { start: self.start.max(0), length: self.length.clamp(1, 1000) }
    }
}

/// Everything texto stores.
pub(crate) trait Store:
    AccountStore
    + CampaignStore
    + ClickStore
    + DeliveryStore
    + WebhookStore
    + NotificationStore
    + ListStore
    + NumberListStore
    + OutboxStore
    + TokenStore
    + MessageStore
    + ListUpkeep
    + RetentionStore
    + ConsumptionStore
    + TeamStore
    + AuditStore
    + ApprovalStore
    + SubAccountStore
    + TeamRulesStore
    + ConversationStore
    + KeywordStore
    + DailyStore
    + ContactStore
    + SegmentStore
    + RoutingStore
    + PlanStore
    + OperatorStore
    + ModerationStore
    + SimulatorStore
    + TemplateStore
    + DraftStore
    + ReportStore
    + SenderStore
    + ConversionStore
    + AbTestStore
    + JourneyStore
    + JourneyRunStore
    + JourneyPlanStore
    + SignupStore
{
}

impl<T> Store for T where
    T: AccountStore
        + CampaignStore
        + ClickStore
        + DeliveryStore
        + WebhookStore
        + NotificationStore
        + ListStore
        + NumberListStore
        + OutboxStore
        + TokenStore
        + MessageStore
        + ListUpkeep
        + RetentionStore
        + ConsumptionStore
        + TeamStore
        + AuditStore
        + ApprovalStore
        + SubAccountStore
        + TeamRulesStore
        + ConversationStore
        + KeywordStore
        + DailyStore
        + ContactStore
        + SegmentStore
        + RoutingStore
        + PlanStore
        + OperatorStore
        + ModerationStore
        + SimulatorStore
        + TemplateStore
        + DraftStore
        + ReportStore
        + SenderStore
        + ConversionStore
        + AbTestStore
        + JourneyStore
        + JourneyRunStore
        + JourneyPlanStore
        + SignupStore
{
}
